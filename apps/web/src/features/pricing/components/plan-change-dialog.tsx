import type { Currency, PaidPlan, PriceTable } from '@dewy/contracts';
import { formatPrice, planCredits } from '@dewy/contracts';
import { Dialog } from '../../../components/ui/dialog';
import { formatNumber } from '../../../lib/format';
import { upgradeCreditDifference } from '../lib/credit-math';
import { usePricingT } from '../lib/pricing-copy';

export interface PlanChange {
  from: PaidPlan;
  to: PaidPlan;
  direction: 'upgrade' | 'downgrade';
}

/**
 * Plan-change confirmation (spec 000 §2, worded per case by issue 21 point 13 / decision 030): current
 * and target plan with their credits; an upgrade says it applies now, is prorated and cannot be undone;
 * a downgrade says it applies from the next cycle and can be withdrawn until then (never both texts);
 * plus the notice that a scheduled cancellation is removed. Confirm calls change-plan.
 * Each plan shows its monthly price in the subscription's currency (issue 25: a plan change stays in
 * the currency the subscription was bought in, which subscription-status answers), whatever the page's
 * currency switch shows.
 */
export function PlanChangeDialog({
  change,
  prices,
  currency,
  cancelScheduled,
  busy,
  error,
  onConfirm,
  onClose,
}: {
  change: PlanChange | null;
  prices: PriceTable;
  /** The subscription's currency (the page's while the status has not said). */
  currency: Currency;
  cancelScheduled: boolean;
  busy: boolean;
  error: string | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t, locale } = usePricingT();
  const credits = (plan: PaidPlan) => t('pricing.change.creditsPerMonth', { n: formatNumber(planCredits(plan), locale) });
  const price = (plan: PaidPlan) => t('pricing.change.price', { price: formatPrice(prices[plan][currency], currency, locale) });
  return (
    <Dialog
      open={change !== null}
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
      title={t('pricing.change.title')}
      size="md"
      testId="plan-change-dialog"
      closeLabel={t('common.close')}
      actions={
        <>
          <button type="button" className="btn btn-secondary" onClick={onClose} disabled={busy} data-testid="plan-change-cancel">
            {t('pricing.change.back')}
          </button>
          <button type="button" className="btn btn-primary" onClick={onConfirm} disabled={busy} aria-busy={busy} data-testid="plan-change-confirm">
            {busy ? <span className="btn-spinner" aria-hidden="true" /> : null}
            {busy ? t('pricing.change.confirmBusy') : t('pricing.change.confirm')}
          </button>
        </>
      }
    >
      {change ? (
        <div className="change-body">
          <div className="change-plans">
            <div className="change-plan" data-testid="plan-change-from">
              <span className="change-label">{t('pricing.change.current')}</span>
              <strong>{t(`plans.${change.from}`)}</strong>
              <span className="change-price">{price(change.from)}</span>
              <span className="change-credits">{credits(change.from)}</span>
            </div>
            <span className="change-arrow" aria-hidden="true">
              →
            </span>
            <div className="change-plan is-target" data-testid="plan-change-to">
              <span className="change-label">{t('pricing.change.target')}</span>
              <strong>{t(`plans.${change.to}`)}</strong>
              <span className="change-price">{price(change.to)}</span>
              <span className="change-credits">{credits(change.to)}</span>
            </div>
          </div>
          <ul className="change-notes">
            {change.direction === 'upgrade' ? (
              <li data-testid="plan-change-proration">{t('pricing.change.upgradeNote', { n: formatNumber(upgradeCreditDifference(change.from, change.to), locale) })}</li>
            ) : (
              <li data-testid="plan-change-downgrade">{t('pricing.change.downgradeNote')}</li>
            )}
            {cancelScheduled ? <li data-testid="plan-change-cancel-notice">{t('pricing.change.cancelScheduledNote')}</li> : null}
          </ul>
          {change.direction === 'upgrade' ? (
            <p className="change-warning" data-testid="plan-change-warning">
              {t('pricing.change.warning')}
            </p>
          ) : (
            <p className="change-withdraw-note" data-testid="plan-change-withdrawable">
              {t('pricing.change.withdrawable')}
            </p>
          )}
          {error ? (
            <p className="change-error" role="alert" data-testid="plan-change-error">
              {error}
            </p>
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}
