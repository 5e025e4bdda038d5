import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { messageText, type ToolMessage } from '../../../shared/tool-job';

/** The error dialog of 002 §8: a title and a message (the workspace's message, imageEditTool's catalogue). */
export function ErrorDialog({ message, onClose }: { message: ToolMessage | null; onClose: () => void }) {
  const { t } = useTranslation();
  const titleKey = message && 'titleKey' in message && message.titleKey ? message.titleKey : 'imageEdit.dialog.errorTitle';
  return (
    <Dialog
      open={message !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={message ? t(titleKey) : ''}
      testId="image-edit-error-dialog"
      closeLabel={t('common.close')}
      actions={
        <button type="button" className="btn btn-primary" onClick={onClose} data-testid="image-edit-error-ok">
          {t('common.ok')}
        </button>
      }
    >
      <p className="image-edit-error-message" data-testid="image-edit-error-message" data-key={message && 'key' in message ? message.key : ''}>
        {message ? messageText(t, message) : ''}
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
