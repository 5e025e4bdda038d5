import { useTranslation } from 'react-i18next';

export interface DownloadButtonProps {
  downloading: boolean;
  onDownload: () => void;
  testId: string;
  className?: string;
}

/** The result's download button (busy while the download runs). */
export function DownloadButton({ downloading, onDownload, testId, className = 'btn btn-primary btn-sm' }: DownloadButtonProps) {
  const { t } = useTranslation();
  return (
    <button type="button" className={className} onClick={onDownload} disabled={downloading} aria-busy={downloading} data-testid={testId}>
      {downloading ? t('toolJob.result.downloading') : t('toolJob.result.download')}
    </button>
  );
}
