import { and, eq } from 'drizzle-orm';
import { formatPrice, isPaymentIssueStatus, type Locale, type PaidPlan } from '@dewy/contracts';
import type { AppServices } from '../../context';
import { billingPayments, users } from '../../db/schema';
import { paymentFailedMail } from '../../providers/mail/templates';
import { siteLink } from '../../lib/site-link';
import type { PaymentsProvider, ProviderInvoice, ProviderSubscription } from './payments-provider';
import { claimBillingMail, releaseBillingMail } from './billing-mails';

/**
 * The failed-payment mail (issue 21 point 12, decision 030).
 *
 * When: a webhook's transaction has committed an invoice of a subscription whose payment failed: the
 * invoice is `failed` (sandbox, Stripe after a declined attempt), or still `open` while the subscription
 * is in a payment-issue status (Lemon Squeezy keeps a failed renewal `pending` and the subscription goes
 * `past_due`).
 *
 * Once per failed invoice: claimed in `billing_mails` (kind `renewal_failed`, billing-mails.ts) before
 * the mail goes out, so of any number of deliveries about the invoice (replays, parallel retries, the
 * subscription event beside the invoice event) exactly one sends. A send that fails releases the claim,
 * so the provider's next delivery about it retries.
 */

export type PaymentFailedMailServices = Pick<AppServices, 'database' | 'log' | 'mail' | 'config'>;

/** Whether this invoice snapshot is a payment that failed (see the file comment). */
export function isFailedPayment(invoice: ProviderInvoice, subscription: ProviderSubscription): boolean {
  if (invoice.status === 'failed') return true;
  return invoice.status === 'open' && isPaymentIssueStatus(subscription.status);
}

const PLAN_NAMES: Record<Locale, Record<PaidPlan, string>> = {
  ko: { basic: '베이직', deluxe: '디럭스', premium: '프리미엄' },
  en: { basic: 'Basic', deluxe: 'Deluxe', premium: 'Premium' },
};

/**
 * Claims and sends the failed-payment mail of one invoice, in the owner's language, with the provider's
 * update-payment link (My Page when it has none or cannot be reached). Never throws: the webhook has
 * already been applied; failures are logged and the claim released.
 * @returns whether this call sent the mail
 */
export async function mailPaymentFailed(s: PaymentFailedMailServices, provider: PaymentsProvider, invoice: ProviderInvoice): Promise<boolean> {
  const db = s.database.db;
  const row = (
    await db
      .select({ userId: billingPayments.userId })
      .from(billingPayments)
      .where(and(eq(billingPayments.provider, provider.name), eq(billingPayments.kind, 'invoice'), eq(billingPayments.providerId, invoice.id)))
  )[0];
  if (!row) return false;
  const claim = await claimBillingMail(s.database, row.userId, 'renewal_failed', failedMailKey(provider.name, invoice.id));
  if (claim === null) return false;
  try {
    const owner = (await db.select({ email: users.email, locale: users.locale, deletedAt: users.deletedAt }).from(users).where(eq(users.id, row.userId)))[0];
    if (!owner || owner.deletedAt || !owner.email) return false;
    const locale = owner.locale;
    const fix = await provider.updatePaymentUrl(invoice.subscriptionId).catch((err: unknown) => {
      s.log.warn({ err, invoice: invoice.id }, 'update-payment URL unavailable for the failed-payment mail');
      return null;
    });
    const fixUrl = fix ? (fix.startsWith('/') ? `${s.config.publicUrl}${fix}` : fix) : siteLink(s.config, locale, '/mypage');
    const amountMinor = invoice.amountMinor > 0 ? invoice.amountMinor : s.config.payments.prices[invoice.plan][invoice.currency];
    const amount = formatPrice(amountMinor, invoice.currency, locale);
    await s.mail.send(paymentFailedMail(locale, owner.email, { planName: PLAN_NAMES[locale][invoice.plan], amount, fixUrl }));
    s.log.info({ userId: row.userId, invoice: invoice.id }, 'failed-payment mail sent');
    return true;
  } catch (err) {
    await releaseBillingMail(s.database, claim);
    s.log.warn({ err, userId: row.userId, invoice: invoice.id }, 'failed-payment mail failed; a later delivery retries');
    return false;
  }
}

/** The claim key of the failed-payment mail of one invoice (billing_mails, kind `renewal_failed`). */
export function failedMailKey(provider: string, invoiceId: string): string {
  return `invoice:${provider}:${invoiceId}`;
}
