import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../../../lib/session';
import { PaymentIssueBanner, SubscriptionBlock } from '../../../shared/subscription';
import { useRefreshParam } from '../hooks/use-refresh-param';
import { readPageParams, withoutParams } from '../lib/page-params';
import { AccountCard } from './account-card';
import { AffiliateCard } from './affiliate-card';
import { ApiKeysCard } from './api-keys-card';
import { BatchesCard } from './batches-card';
import { BillingHistory } from './billing-history';
import { CreditHistory } from './credit-history';
import { CreditsCard } from './credits-card';
import { DeleteAccountCard } from './delete-account-card';
import { HistorySection } from './history-section';
import { PaymentBanner } from './payment-banner';
import { ProfileCard } from './profile-card';
import './mypage.css';

/**
 * My Page (/mypage, /en/mypage; spec 001 §2–§4/§7/§8, issue 10): profile, sign-in methods (issue 14), credits by bucket, plan and
 * the subscription block (Cancel/Resume), the sharer's link and results, the history tabs, the billing
 * history with its receipts (issue 25) and the credit history, the API keys (decision 040). `?payment=success` shows a success banner; `?refresh=<ts>` refreshes subscription and
 * credits at once and is then removed. Signed-in only (the route guards it).
 */
export function MyPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const { search, pathname, hash } = useLocation();
  const navigate = useNavigate();
  useRefreshParam();
  const { paymentSuccess } = readPageParams(search);
  if (!user) return null;

  const closeBanner = () => void navigate(`${pathname}${withoutParams(search, ['payment'])}${hash}`, { replace: true, preventScrollReset: true });

  return (
    <div className="container page mypage" data-testid="mypage">
      <header className="mypage-head">
        <h1>{t('mypage.title')}</h1>
        <p>{t('mypage.subtitle')}</p>
      </header>
      {paymentSuccess ? <PaymentBanner onClose={closeBanner} /> : null}
      <PaymentIssueBanner />
      <div className="mypage-top">
        <div className="mypage-col">
          <ProfileCard user={user} />
          <AccountCard />
          <SubscriptionBlock className="mypage-sub" />
        </div>
        <CreditsCard user={user} />
      </div>
      <AffiliateCard />
      <HistorySection userId={user.id} />
      <BatchesCard />
      <BillingHistory />
      <CreditHistory />
      <ApiKeysCard />
      <DeleteAccountCard />
    </div>
  );
}
