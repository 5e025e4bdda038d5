import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../components/ui/dialog';
import './tool-job.css';

/**
 * The confirmation before history items are deleted for good (issue 28, point 12): says how many, that
 * the files go and that no credits come back; the button waits for the deletion. Test ids:
 * `<testIdPrefix>-delete-dialog`, `-delete-confirm`, `-delete-cancel`.
 * @param onConfirm deletes; a rejection keeps the dialog open (the caller has said why)
 */
export function DeleteHistoryDialog({ open, count, testIdPrefix, onOpenChange, onConfirm }: { open: boolean; count: number; testIdPrefix: string; onOpenChange: (open: boolean) => void; onConfirm: () => Promise<void> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  // One item or many in words of their own (Korean has one plural form, so no i18next plural suffixes).
  const n = count === 1 ? 'One' : 'Many';
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      onOpenChange(false);
    } catch {
      // the caller showed the message; the dialog stays for another try or a cancel
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (busy ? undefined : onOpenChange(o))}
      title={t(`toolJob.history.deleteTitle${n}`, { count })}
      description={t(`toolJob.history.deleteBody${n}`, { count })}
      testId={`${testIdPrefix}-delete-dialog`}
      closeLabel={t('common.close')}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={() => onOpenChange(false)} disabled={busy} data-testid={`${testIdPrefix}-delete-cancel`}>
            {t('common.cancel')}
          </button>
          <button type="button" className="btn btn-danger" onClick={() => void confirm()} disabled={busy} aria-busy={busy} data-testid={`${testIdPrefix}-delete-confirm`}>
            {busy ? <span className="spinner spinner-sm" /> : null} {t(`toolJob.history.deleteConfirm${n}`, { count })}
          </button>
        </>
      }
    />
  );
}
