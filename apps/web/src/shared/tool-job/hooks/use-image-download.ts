import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/toast';
import { downloadImage } from '../api/download';

/** Download a result with the spec's fallbacks (001 §7/§9); a toast when every route failed. */
export function useImageDownload() {
  const { t } = useTranslation();
  const [downloading, setDownloading] = useState(false);
  const download = useCallback(
    async (url: string) => {
      setDownloading(true);
      try {
        if (!(await downloadImage(url))) notify.error(t('toolJob.error.download'));
      } finally {
        setDownloading(false);
      }
    },
    [t],
  );
  return { downloading, download };
}
