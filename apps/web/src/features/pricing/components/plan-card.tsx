import { formatPrice, SUBSCRIPTION_PLANS, type Currency, type PaidPlan } from '@dewy/contracts';
import { Tooltip } from '../../../components/ui/tooltip';
import { formatNumber } from '../../../lib/format';
import { approxImages } from '../lib/credit-math';
import { isBuyingState, type PlanButtonState } from '../lib/plan-button';
import { usePricingT } from '../lib/pricing-copy';

const FEATURES: Record<PaidPlan, string[]> = {
  basic: ['allRetouch', 'history', 'subscriptionCredits'],
  deluxe: ['allRetouch', 'history', 'subscriptionCredits'],
  premium: ['allRetouch', 'beta', 'history', 'subscriptionCredits'],
};

/** One monthly plan: price in the page's currency, credits (the same in every currency), what it includes, and its button in the state of 000 §4. */
export function PlanCard({
  plan,
  amount,
  currency,
  state,
  isCurrent,
  paymentIssue = false,
  busy,
  locked,
  paymentsOff,
  onAction,
}: {
  plan: PaidPlan;
  /** The monthly price in minor units of `currency`. */
  amount: number;
  currency: Currency;
  state: PlanButtonState;
  isCurrent: boolean;
  /** The current plan's payment failed: its button says so instead of "Active" (decision 030). */
  paymentIssue?: boolean;
  /** This card's checkout is starting. */
  busy: boolean;
  /** Another purchase is starting: no second one. */
  locked: boolean;
  paymentsOff: boolean;
  onAction: (plan: PaidPlan, state: PlanButtonState) => void;
}) {
  const { t, locale } = usePricingT();
  const { credits } = SUBSCRIPTION_PLANS[plan];
  const images = approxImages(credits);
  return (
    <article className={`price-card card${plan === 'deluxe' ? ' is-popular' : ''}${isCurrent ? ' is-current' : ''}`} data-testid={`plan-card-${plan}`}>
      <div className="price-card-head">
        <h3 className="price-card-name">{t(`plans.${plan}`)}</h3>
        {isCurrent ? (
          <span className="ui-badge price-badge-current" data-testid={`plan-current-${plan}`}>
            {t('pricing.currentPlan')}
          </span>
        ) : plan === 'deluxe' ? (
          <span className="ui-badge price-badge-popular">{t('pricing.popular')}</span>
        ) : null}
      </div>
      <p className="price-card-price">
        <span className="price-amount" data-testid={`plan-price-${plan}`} data-currency={currency}>
          {formatPrice(amount, currency, locale)}
        </span>
        <span className="price-unit">{t('pricing.perMonth')}</span>
      </p>
      <p className="price-card-credits">{t('pricing.creditsPerMonth', { n: formatNumber(credits, locale) })}</p>
      <p className="price-card-images">{t('pricing.approxImages', { min: formatNumber(images.min, locale), max: formatNumber(images.max, locale) })}</p>
      <ul className="price-card-features">
        {FEATURES[plan].map((f) => (
          <li key={f}>{t(`pricing.features.${f}`)}</li>
        ))}
      </ul>
      <div className="price-card-action">
        <PlanButton plan={plan} state={state} paymentIssue={paymentIssue} busy={busy} locked={locked} paymentsOff={paymentsOff} onAction={onAction} />
      </div>
    </article>
  );
}

function PlanButton({ plan, state, paymentIssue, busy, locked, paymentsOff, onAction }: { plan: PaidPlan; state: PlanButtonState; paymentIssue: boolean; busy: boolean; locked: boolean; paymentsOff: boolean; onAction: (plan: PaidPlan, state: PlanButtonState) => void }) {
  const { t } = usePricingT();
  const testId = `plan-button-${plan}`;
  if (state.kind === 'active') {
    return (
      <button type="button" className="btn btn-secondary btn-block" disabled data-testid={testId} data-state="active">
        {t(paymentIssue ? 'pricing.button.pastDue' : 'pricing.button.active')}
      </button>
    );
  }
  if (state.kind === 'cancelled' || state.kind === 'scheduled') {
    return (
      <Tooltip content={t(state.kind === 'cancelled' ? 'pricing.cancelledTooltip' : 'pricing.scheduledTooltip')} testId={`${testId}-tooltip`} block>
        <button type="button" className="btn btn-secondary btn-block" disabled data-testid={testId} data-state={state.kind}>
          {t(`pricing.button.${state.kind}`)}
        </button>
      </Tooltip>
    );
  }
  const label =
    state.kind === 'get-started' ? t('pricing.button.getStarted') : state.kind === 'checkout' ? t('pricing.button.subscribe') : t(`pricing.button.${state.direction}`);
  const disabled = busy || locked || (paymentsOff && isBuyingState(state));
  return (
    <button
      type="button"
      className={`btn ${state.kind === 'change' && state.direction === 'downgrade' ? 'btn-secondary' : 'btn-primary'} btn-block`}
      disabled={disabled}
      aria-busy={busy}
      onClick={() => onAction(plan, state)}
      data-testid={testId}
      data-state={state.kind === 'change' ? state.direction : state.kind}
    >
      {busy ? <span className="btn-spinner" aria-hidden="true" /> : null}
      {busy ? t('pricing.button.busy') : label}
    </button>
  );
}
