import { PACK_IDS, PAID_PLANS, type Locale, type PackId, type PaidPlan } from '@dewy/contracts';
import { useCallback, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Tabs } from '../../../components/ui/tabs';
import { ApiError } from '../../../lib/api-client';
import { postChangePlan, postCheckout, postCreditCheckout } from '../../../lib/billing-api';
import { stripEnPrefix } from '../../../lib/locale-path';
import { usePrices } from '../../../lib/prices';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { hasPaymentIssue, PaymentIssueBanner, SubscriptionBlock, subscriptionDisplayState, subscriptionSnapshot, useInvalidateSubscriptionStatus, useSubscriptionStatus } from '../../../shared/subscription';
import { paymentErrorText, useCheckoutLauncher } from '../hooks/use-purchase';
import { useCurrencyChoice } from '../lib/currency-choice';
import { currentPaidPlan, planButtonState, type PlanButtonState } from '../lib/plan-button';
import { PricingLocaleContext, usePricingT } from '../lib/pricing-copy';
import { CurrencySwitch } from './currency-switch';
import { PackCard } from './pack-card';
import { PlanCard } from './plan-card';
import { PlanChangeDialog, type PlanChange } from './plan-change-dialog';
import { PricingFaq } from './pricing-faq';
import './pricing.css';

type Tab = 'monthly' | 'credits';

/**
 * The pricing page (spec 000 §2/§4/§5/§8): monthly plans and one-time packs in two tabs, each plan's
 * button in its state, the plan-change confirmation, the caller's subscription block, a ten-item FAQ.
 * `?tab=credits` opens the one-time tab. Prices are in won or dollars (issue 25): the language's
 * currency unless the visitor picked the other on the currency switch (remembered), and a checkout
 * opens in the currency shown.
 * @param contentLocale fixes the content's language (/pricing/en, /pricing/kr); else the site's language
 */
export function PricingPage({ contentLocale }: { contentLocale?: Locale }) {
  return (
    <PricingLocaleContext.Provider value={contentLocale}>
      <PricingContent />
    </PricingLocaleContext.Provider>
  );
}

function PricingContent() {
  const { t, forced, locale } = usePricingT();
  const { lp } = useLocale();
  const prices = usePrices();
  const [currency, setCurrency] = useCurrencyChoice(locale, prices.currencies);
  // Until the server has said which currencies it takes, the checkout leaves the choice to it (the
  // language's, the same rule the page shows by).
  const checkoutCurrency = prices.currencies ? currency : undefined;
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('tab') === 'credits' ? 'credits' : 'monthly';
  const { user, status: authStatus, forceSync } = useSession();
  const subscription = useSubscriptionStatus();
  const invalidateSubscription = useInvalidateSubscriptionStatus();
  const [paymentsOffSeen, setPaymentsOffSeen] = useState(false);
  const onPaymentsOff = useCallback(() => setPaymentsOffSeen(true), []);
  const paymentsOff = subscription.data?.provider.configured === false || paymentsOffSeen;
  const { busyKey, launch, acquire, release } = useCheckoutLauncher(t, onPaymentsOff);
  const [change, setChange] = useState<PlanChange | null>(null);
  const [changeError, setChangeError] = useState<string | null>(null);

  const snap = subscriptionSnapshot(user, subscription.data);
  const now = new Date();
  const current = currentPaidPlan(snap, now);
  const paymentIssue = hasPaymentIssue(subscriptionDisplayState(snap, now));
  const authLoading = authStatus === 'loading';

  const setTab = (next: string) => {
    setParams(
      (prev) => {
        const out = new URLSearchParams(prev);
        if (next === 'credits') out.set('tab', 'credits');
        else out.delete('tab');
        return out;
      },
      { replace: true },
    );
  };

  /** To /login, coming back here (this tab included) after signing in. */
  const loginFirst = (search: string) => {
    const here = `${stripEnPrefix(location.pathname)}${search}`;
    void navigate(`${lp('/login')}?next=${encodeURIComponent(here)}`);
  };

  const waitForAuth = () => {
    notify.info(t('pricing.authLoading'));
  };

  const onPlan = (plan: PaidPlan, state: PlanButtonState) => {
    // A plan change only opens its confirmation (the server decides on confirm), so it needs no wait:
    // a customer whose stored session is still being verified is not told to click again (issue 22,
    // found by the browser tests on a busy CI runner). A purchase or a login redirect does wait (000 §5).
    if (state.kind === 'change' && snap && snap.plan !== 'free') {
      setChangeError(null);
      setChange({ from: snap.plan, to: plan, direction: state.direction });
      return;
    }
    if (authLoading) return waitForAuth();
    if (state.kind === 'get-started') return loginFirst('');
    if (state.kind === 'checkout') return void launch(`plan-${plan}`, () => postCheckout(plan, checkoutCurrency));
  };

  const onPack = (pack: PackId) => {
    if (authLoading) return waitForAuth();
    if (!user) return loginFirst('?tab=credits');
    void launch(`pack-${pack}`, () => postCreditCheckout(pack, checkoutCurrency));
  };

  const confirmChange = async () => {
    if (!change || !acquire(`change-${change.to}`)) return;
    setChangeError(null);
    try {
      const res = await postChangePlan(change.to);
      const planName = t(`plans.${res.plan}`);
      notify.success(res.change === 'downgrade' ? t('pricing.changedDowngrade', { plan: t(`plans.${res.nextPlan ?? change.to}`) }) : t('pricing.changedUpgrade', { plan: planName }));
      if (res.cancelScheduleRemoved) notify.info(t('pricing.cancelScheduleRemoved'));
      // After a plan change the user record is re-synced (000 §4), then My Page refreshes.
      await forceSync();
      void invalidateSubscription();
      setChange(null);
      release();
      void navigate(`${lp('/mypage')}?refresh=${Date.now()}`);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'PAYMENTS_NOT_CONFIGURED') onPaymentsOff();
      setChangeError(t('pricing.changeFailed', { error: paymentErrorText(err, t) }));
      release();
      // The refusal may come from a state this page had not seen yet (a cancellation, an ended plan).
      void invalidateSubscription();
    }
  };

  const monthly = (
    <div className="pricing-panel">
      {user ? <SubscriptionBlock lng={forced} className="pricing-sub-block" /> : null}
      <div className="price-grid">
        {PAID_PLANS.map((plan) => (
          <PlanCard
            key={plan}
            plan={plan}
            amount={prices.table[plan][currency]}
            currency={currency}
            state={planButtonState(plan, snap, now)}
            isCurrent={current === plan}
            paymentIssue={paymentIssue && current === plan}
            busy={busyKey === `plan-${plan}`}
            locked={busyKey !== null && busyKey !== `plan-${plan}`}
            paymentsOff={paymentsOff}
            onAction={onPlan}
          />
        ))}
      </div>
    </div>
  );

  const credits = (
    <div className="pricing-panel">
      <p className="pricing-pack-note">{t('pricing.packNote')}</p>
      <div className="pack-grid">
        {PACK_IDS.map((pack) => (
          <PackCard key={pack} pack={pack} amount={prices.table[pack][currency]} currency={currency} busy={busyKey === `pack-${pack}`} locked={busyKey !== null && busyKey !== `pack-${pack}`} disabled={Boolean(user) && paymentsOff} onBuy={onPack} />
        ))}
      </div>
    </div>
  );

  return (
    <div className="container page pricing-page" data-testid="pricing-page" lang={forced}>
      <header className="pricing-hero">
        <h1>{t('pricing.title')}</h1>
        <p className="pricing-lead">{t('pricing.lead')}</p>
        <CurrencySwitch value={currency} available={prices.currencies} onChange={setCurrency} />
      </header>
      {user ? <PaymentIssueBanner lng={forced} /> : null}
      {paymentsOff ? (
        <p className="pricing-off" role="status" data-testid="payments-off">
          {t('pricing.paymentsOff')}
        </p>
      ) : null}
      <Tabs
        className="pricing-tabs"
        label={t('pricing.tabsLabel')}
        value={tab}
        onValueChange={setTab}
        items={[
          { value: 'monthly', label: t('pricing.tabMonthly'), content: monthly, testId: 'pricing-tab-monthly' },
          { value: 'credits', label: t('pricing.tabOneTime'), content: credits, testId: 'pricing-tab-credits' },
        ]}
      />
      <PricingFaq />
      <PlanChangeDialog
        change={change}
        prices={prices.table}
        currency={subscription.data?.subscription?.data.attributes.currency ?? currency}
        cancelScheduled={snap?.providerCancelScheduled ?? false}
        busy={busyKey !== null && busyKey.startsWith('change-')}
        error={changeError}
        onConfirm={() => void confirmChange()}
        onClose={() => setChange(null)}
      />
    </div>
  );
}
