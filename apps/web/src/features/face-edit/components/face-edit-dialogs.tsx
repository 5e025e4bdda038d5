import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import { Icon } from '../../../components/ui/icons';

/** The face-edit error dialog (001 §2/§5/§8): one message by its i18n key, closed with OK. */
export function ErrorDialog({ messageKey, onClose }: { messageKey: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={messageKey !== null}
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
      <p className="face-edit-error-message" data-testid="face-edit-error-message" data-key={messageKey ?? ''}>
        <Icon name="warning" size={22} className="face-edit-error-icon" />
        <span>{messageKey ? t(messageKey) : ''}</span>
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
