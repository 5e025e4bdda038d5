import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';

/**
 * The delete confirmation of a notice (spec 002 §5: it cannot be undone). A failure is shown inside
 * the dialog as an alert (002 §8), so the administrator can retry or cancel.
 */
export function ConfirmDeleteDialog({ open, busy, error, onCancel, onConfirm }: { open: boolean; busy: boolean; error: string | null; onCancel: () => void; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && !busy && onCancel()}
      title={t('notices.confirmDelete.title')}
      description={t('notices.confirmDelete.body')}
      testId="notice-delete-dialog"
      closeLabel={t('common.close')}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onCancel} disabled={busy}>
            {t('notices.confirmDelete.cancel')}
          </button>
          <button type="button" className="btn btn-danger" onClick={onConfirm} disabled={busy} data-testid="notice-delete-confirm">
            {busy ? t('notices.confirmDelete.deleting') : t('notices.confirmDelete.confirm')}
          </button>
        </>
      }
    >
      {error ? (
        <p className="notices-form-error" role="alert" data-testid="notice-delete-error">
          {error}
        </p>
      ) : null}
    </Dialog>
  );
}
