import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { Icon } from '../../../components/ui/icons';
import type { ToolMessage } from '../../../shared/tool-job';

/**
 * The face-edit error dialog (001 §2/§5/§8): the workspace's message (faceEditTool's catalogue), closed
 * with OK. `text` renders a message in the page's language.
 */
export function ErrorDialog({ message, text, onClose }: { message: ToolMessage | null; text: (message: ToolMessage) => string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={message !== null}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      title={t('faceEdit.errorTitle')}
      testId="face-edit-error-dialog"
      closeLabel={t('common.close')}
      actions={
        <button type="button" className="btn btn-primary" onClick={onClose} data-testid="face-edit-error-ok">
          {t('common.ok')}
        </button>
      }
    >
      <p className="face-edit-error-message" data-testid="face-edit-error-message" data-key={message && 'key' in message ? message.key : ''}>
        <Icon name="warning" size={22} className="face-edit-error-icon" />
        <span>{message ? text(message) : ''}</span>
      </p>
    </Dialog>
  );
}

/** Before any upload: what face edit does, in three steps (no sample photo is shipped). */
export function IdleStage() {
  const { t } = useTranslation();
  return (
    <div className="face-edit-idle" data-testid="face-edit-idle">
      <span className="face-edit-idle-icon" aria-hidden="true">
        <Icon name="face" size={34} />
      </span>
      <h2>{t('faceEdit.idle.title')}</h2>
      <ol>
        <li>{t('faceEdit.idle.step1')}</li>
        <li>{t('faceEdit.idle.step2')}</li>
        <li>{t('faceEdit.idle.step3')}</li>
      </ol>
    </div>
  );
}
