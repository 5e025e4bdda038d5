import { paymentMethodName, type BillingHistoryEntry } from '@dewy/contracts';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { formatSeoulDateTime, formatSignedNumber, formatSignedPrice } from '../../../lib/format';
import type { Locale } from '../../../lib/locale-path';
import { useLocale } from '../../../lib/use-locale';
import { useBillingHistory } from '../api/billing';
import { receiptLink, signedAmount } from '../lib/billing-lines';
import { useBillingTranslation } from '../lib/i18n';
import { PagedHistory } from './paged-history';
import { itemText } from './billing-text';

/** A line's receipt: the provider's page in a new tab, ours inside the site in the page's language. */
function ReceiptCell({ entry, t, lp }: { entry: BillingHistoryEntry; t: TFunction; lp: (path: string) => string }) {
  const link = receiptLink(entry.receiptUrl);
  if (!link) return <span className="billing-none">—</span>;
  if (link.kind === 'internal') {
    return (
      <Link to={lp(link.path)} data-testid="mypage-billing-receipt" data-receipt="ours">
        {t('billing.history.viewReceipt')}
      </Link>
    );
  }
  return (
    <a href={link.href} target="_blank" rel="noopener noreferrer" data-testid="mypage-billing-receipt" data-receipt="provider">
      {t('billing.history.viewReceipt')}
      <span className="billing-newtab" aria-hidden="true">
        ↗
      </span>
      <span className="visually-hidden"> ({t('billing.history.newTab')})</span>
    </a>
  );
}

function Row({ entry, t, locale, lp }: { entry: BillingHistoryEntry; t: TFunction; locale: Locale; lp: (path: string) => string }) {
  const amount = signedAmount(entry);
  return (
    <tr data-testid="mypage-billing-row" data-kind={entry.kind} data-payment-id={entry.paymentId} data-currency={entry.currency} className={`billing-row kind-${entry.kind}`}>
      <td className="billing-date">
        <time dateTime={entry.at}>{formatSeoulDateTime(entry.at, locale)}</time>
      </td>
      <td className="billing-what">
        <span className="billing-item" data-testid="mypage-billing-item">
          {itemText(t, entry.item)}
        </span>
        <span className={`billing-kind kind-${entry.kind}`} data-testid="mypage-billing-kind">
          {t(`billing.kind.${entry.kind}`)}
        </span>
      </td>
      <td className={`num billing-amount${amount < 0 ? ' is-minus' : ''}${entry.kind === 'failed' ? ' is-failed' : ''}`} data-testid="mypage-billing-amount">
        {formatSignedPrice(amount, entry.currency, locale)}
      </td>
      <td className="billing-method" data-testid="mypage-billing-method">
        {paymentMethodName(entry.method, locale) || <span className="billing-none">—</span>}
      </td>
      <td className={`num billing-credits ${entry.credits >= 0 ? 'is-plus' : 'is-minus'}`} data-testid="mypage-billing-credits">
        {formatSignedNumber(entry.credits, locale)}
      </td>
      <td className="billing-receipt">
        <ReceiptCell entry={entry} t={t} lp={lp} />
      </td>
    </tr>
  );
}

/**
 * Billing history (issue 25): every payment, renewal, upgrade, refund and failed charge, newest first,
 * paged by the server's cursor. Each line: date and time in KST, what was bought and how (kind),
 * the amount in its currency (refunds negative), the payment method, the credits it moved, and its
 * receipt (the provider's page in a new tab, or ours at /mypage/receipts/{id}).
 */
export function BillingHistory() {
  const { t } = useBillingTranslation();
  const { locale, lp } = useLocale();
  const history = useBillingHistory();
  const entries = history.data?.pages.flatMap((p) => p.entries) ?? [];

  const body = (
    <PagedHistory
      query={history}
      count={entries.length}
      testId="mypage-billing"
      text={{ failed: t('billing.history.failed'), retry: t('billing.history.retry'), empty: t('billing.history.empty'), loadMore: t('billing.history.loadMore'), loadingMore: t('billing.history.loadingMore') }} noteLaterFailure
    >
      <table className="mypage-billing" data-testid="mypage-billing-table">
        <thead>
          <tr>
            <th scope="col">{t('billing.history.date')}</th>
            <th scope="col">{t('billing.history.item')}</th>
            <th scope="col" className="num">
              {t('billing.history.amount')}
            </th>
            <th scope="col">{t('billing.history.method')}</th>
            <th scope="col" className="num">
              {t('billing.history.credits')}
            </th>
            <th scope="col">{t('billing.history.receipt')}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((e) => (
            <Row key={e.id} entry={e} t={t} locale={locale} lp={lp} />
          ))}
        </tbody>
      </table>
    </PagedHistory>
  );

  return (
    <section className="card mypage-card mypage-billing-card" aria-labelledby="mypage-billing-title" data-testid="mypage-billing">
      <h2 id="mypage-billing-title">{t('billing.history.title')}</h2>
      <p className="mypage-note">{t('billing.history.lead')}</p>
      {body}
    </section>
  );
}
