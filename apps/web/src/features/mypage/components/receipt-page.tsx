import { paymentMethodName, type ReceiptResponse } from '@dewy/contracts';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router';
import { formatSeoulDateTime, formatSignedNumber, formatSignedPrice } from '../../../lib/format';
import type { Locale } from '../../../lib/locale-path';
import { useSiteInfoDetails } from '../../../lib/site-info';
import { useLocale } from '../../../lib/use-locale';
import { isReceiptNotFound, useReceipt } from '../api/billing';
import { parseReceiptId, sellerRows } from '../lib/billing-lines';
import { useBillingTranslation } from '../lib/i18n';
import { itemText } from './billing-text';
import './receipt.css';

type Receipt = ReceiptResponse['receipt'];

function refundText(t: TFunction, r: Receipt, locale: Locale): string {
  if (r.status === 'paid') return t('billing.receipt.status.paid');
  const date = r.refundedAt ? formatSeoulDateTime(r.refundedAt, locale) : '';
  return t(`billing.receipt.status.${r.status}`, { amount: formatSignedPrice(r.refunded, r.currency, locale), date });
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId: string }) {
  return (
    <div className="receipt-row">
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/** The seller's details the operator has set (GET /api/site-info); nothing at all when none is. */
function Seller({ t }: { t: TFunction }) {
  const { company, supportEmail } = useSiteInfoDetails();
  const rows = sellerRows(company, supportEmail);
  if (rows.length === 0) return null;
  return (
    <section className="receipt-seller" aria-labelledby="receipt-seller-title" data-testid="receipt-seller">
      <h2 id="receipt-seller-title">{t('billing.receipt.seller')}</h2>
      <dl className="receipt-seller-list">
        {rows.map(([field, value]) => (
          <div key={field} className="receipt-seller-row">
            <dt>{t(`legal.company.${field}`)}</dt>
            <dd data-testid={`receipt-seller-${field}`}>{field === 'email' ? <a href={`mailto:${value}`}>{value}</a> : value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function ReceiptSheet({ receipt: r, t, locale }: { receipt: Receipt; t: TFunction; locale: Locale }) {
  return (
    <article className="receipt-sheet card" data-testid="receipt" data-payment-id={r.paymentId} data-status={r.status}>
      <header className="receipt-head">
        <div>
          <strong className="receipt-brand">Dewy</strong>
          <h1>{t('billing.receipt.title')}</h1>
        </div>
        <p className="receipt-number">
          <span>{t('billing.receipt.number')}</span>
          <strong data-testid="receipt-number">{r.number}</strong>
        </p>
      </header>
      <p className="receipt-total">
        <span>{t('billing.receipt.amount')}</span>
        <strong data-testid="receipt-amount">{formatSignedPrice(r.amount, r.currency, locale)}</strong>
      </p>
      <dl className="receipt-list">
        <Row label={t('billing.receipt.paidAt')} testId="receipt-paid-at">
          <time dateTime={r.paidAt}>{formatSeoulDateTime(r.paidAt, locale)}</time>
        </Row>
        <Row label={t('billing.receipt.customer')} testId="receipt-customer">
          {r.customer.name ? (
            <>
              {r.customer.name} <span className="receipt-muted">({r.customer.email})</span>
            </>
          ) : (
            r.customer.email
          )}
        </Row>
        <Row label={t('billing.receipt.item')} testId="receipt-item">
          {itemText(t, r.item)} <span className="receipt-muted">· {t(`billing.kind.${r.kind}`)}</span>
        </Row>
        <Row label={t('billing.receipt.currency')} testId="receipt-currency">
          {t(`billing.receipt.currencyName.${r.currency}`)}
        </Row>
        <Row label={t('billing.receipt.method')} testId="receipt-method">
          {paymentMethodName(r.method, locale) || '—'}
        </Row>
        <Row label={t('billing.receipt.credits')} testId="receipt-credits">
          {formatSignedNumber(r.credits, locale)}
        </Row>
        <Row label={t('billing.receipt.refundStatus')} testId="receipt-refund">
          {refundText(t, r, locale)}
        </Row>
        <Row label={t('billing.receipt.providerRef')} testId="receipt-provider-ref">
          <span className="receipt-ref">{r.providerPaymentId}</span>
        </Row>
      </dl>
      <Seller t={t} />
      <p className="receipt-note">{t('billing.receipt.note')}</p>
    </article>
  );
}

/**
 * Our printable receipt of one of the caller's payments (issue 25; /mypage/receipts/:id and
 * /en/mypage/receipts/:id, signed-in only): receipt number, date in KST, customer, item, amount and
 * currency, method, credits, refund status, and the seller's details the operator has set. Print
 * prints the sheet alone (receipt.css). Another account's or an unknown id reads "not found".
 */
export function ReceiptPage() {
  const { t } = useBillingTranslation();
  const { locale, lp } = useLocale();
  const params = useParams();
  const id = parseReceiptId(params.id);
  const query = useReceipt(id);

  const back = (
    <Link className="btn btn-ghost btn-sm" to={lp('/mypage')} data-testid="receipt-back">
      ← {t('billing.receipt.back')}
    </Link>
  );

  let body: ReactNode;
  if (id === null || (query.isError && isReceiptNotFound(query.error))) {
    body = (
      <div className="receipt-state card" role="alert" data-testid="receipt-not-found">
        <h1>{t('billing.receipt.notFound')}</h1>
        <p>{t('billing.receipt.notFoundHint')}</p>
      </div>
    );
  } else if (query.isError) {
    body = (
      <div className="receipt-state card" role="alert" data-testid="receipt-error">
        <h1>{t('billing.receipt.failed')}</h1>
        <button type="button" className="btn btn-secondary btn-sm" onClick={() => void query.refetch()}>
          {t('billing.receipt.retry')}
        </button>
      </div>
    );
  } else if (!query.data) {
    body = (
      <div className="receipt-state" aria-busy="true">
        <div className="spinner" />
        <span className="visually-hidden">{t('billing.receipt.loading')}</span>
      </div>
    );
  } else {
    body = <ReceiptSheet receipt={query.data.receipt} t={t} locale={locale} />;
  }

  return (
    <div className="container page receipt-page" data-testid="receipt-page">
      <div className="receipt-actions">
        {back}
        {query.data ? (
          <button type="button" className="btn btn-primary btn-sm" onClick={() => window.print()} data-testid="receipt-print">
            {t('billing.receipt.print')}
          </button>
        ) : null}
      </div>
      {body}
    </div>
  );
}
