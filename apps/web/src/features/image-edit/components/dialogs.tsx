import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import type { ErrorDialogContent } from '../lib/rules';

/** The error dialog of 002 §8: a title and a message. */
export function ErrorDialog({ content, onClose }: { content: ErrorDialogContent | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={content !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={content ? t(content.titleKey) : ''}
      testId="image-edit-error-dialog"
      closeLabel={t('common.close')}
      actions={
        <button type="button" className="btn btn-primary" onClick={onClose} data-testid="image-edit-error-ok">
          {t('common.ok')}
        </button>
      }
    >
      <p className="image-edit-error-message" data-testid="image-edit-error-message" data-key={content?.messageKey ?? ''}>
        {content ? t(content.messageKey, content.values) : ''}
      </p>
    </Dialog>
  );
}

/** The image viewer dialog (002 §2): one result at full size, with download. */
export function ViewerDialog({ url, onClose, onDownload }: { url: string | null; onClose: () => void; onDownload: (url: string) => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={url !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('imageEdit.viewer.title')}
      size="full"
      testId="image-edit-viewer"
      closeLabel={t('common.close')}
      actions={
        url ? (
          <button type="button" className="btn btn-primary" onClick={() => onDownload(url)}>
            {t('imageEdit.results.download')}
          </button>
        ) : null
      }
    >
      {url ? <img className="image-edit-viewer-img" src={url} alt={t('imageEdit.viewer.alt')} referrerPolicy="no-referrer" /> : null}
    </Dialog>
  );
}
