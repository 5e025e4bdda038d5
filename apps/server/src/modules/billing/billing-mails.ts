import { and, eq } from 'drizzle-orm';
import { CREDIT_PACKS, formatPrice, isPaymentIssueStatus, paymentMethodName, type Locale, type PackId, type PaidPlan, type SubscriptionStatus } from '@dewy/contracts';
import type { AppServices } from '../../context';
import type { Database } from '../../db/client';
import { billingMails, billingPayments, subscriptions, users } from '../../db/schema';
import type { MailMessage } from '../../providers/mail/mail.provider';
import { cancellationScheduledMail, mailDate, paymentFailedMail, purchaseMail, refundMail, renewalDoneMail, subscriptionEndedMail } from '../../providers/mail/templates';
import { siteLink } from '../../lib/site-link';
import { getBalance } from '../credits';
import type { PaymentsProvider, WebhookObjectRef } from './payments-provider';

/**
 * The billing mails (issue 25, decision 041): what a customer is told about money, in their language
 * (`users.locale`), one mail per event.
 *
 * When: after a webhook's transaction has committed (billing.webhooks.ts `handleWebhook`, every
 * delivery, replays included), {@link sendBillingMails} reads what our books now say about the object
 * the event named — its `billing_payments` row, and the subscription it belongs to — and mails what
 * that state calls for; a cancellation made through our API mails from `cancelSubscription` too. The
 * mail is decided from the committed state, never from the delivery's outcome, so the next delivery
 * about an object finds a mail that could not be sent and sends it.
 *
 * Once per event: every mail is claimed by inserting its `(kind, eventKey)` under a unique index
 * before it goes out: of any number of deliveries about one event (replays, parallel retries, the
 * subscription event beside the invoice event, our API beside the provider's webhook), exactly one
 * insert succeeds and that caller sends. A send that fails releases the claim. A deleted user or one
 * without an e-mail address gets nothing (and nothing is claimed).
 *
 * | kind                     | when (committed state)                                            | key                                  |
 * | ------------------------ | ----------------------------------------------------------------- | ------------------------------------ |
 * | `purchase`               | a pack order, first or upgrade invoice that granted credits        | `payment:<billing_payments.id>`      |
 * | `renewal`                | a renewal invoice that granted the new period's credits            | `payment:<billing_payments.id>`      |
 * | `renewal_failed`         | an invoice `failed`, or `open` while its subscription is past due  | `invoice:<provider>:<invoice id>`    |
 * | `refund`                 | a payment with money refunded (the total so far)                   | `refund:<billing_payments.id>:<refunded minor units>` |
 * | `cancellation_scheduled` | a credited subscription set to end at its period end               | `cancel:<subscriptions.id>:<period end ISO>` |
 * | `subscription_ended`     | a credited subscription ended                                      | `ended:<subscriptions.id>`           |
 *
 * A refused duplicate subscription (decision 029) mails only its refund, in words saying why; it is
 * never mailed as bought, cancelled or ended. Events older than {@link BILLING_MAIL_WINDOW_MS} are not
 * mailed (a refund of an old purchase must not confirm that purchase now).
 */

/** The billing mails (issue 25): what a customer is told about money, one mail per event. */
export const BILLING_MAIL_KINDS = ['purchase', 'renewal', 'renewal_failed', 'refund', 'cancellation_scheduled', 'subscription_ended'] as const;
export type BillingMailKind = (typeof BILLING_MAIL_KINDS)[number];

/**
 * Claims the mail `kind` about `eventKey` for `userId`.
 * @returns the claim's id when this caller is to send it, null when another claim exists.
 */
export async function claimBillingMail(database: Database, userId: number, kind: BillingMailKind, eventKey: string): Promise<number | null> {
  const rows = await database.db.insert(billingMails).values({ userId, kind, eventKey }).onConflictDoNothing().returning({ id: billingMails.id });
  return rows[0]?.id ?? null;
}

/** Releases a claim whose mail could not be sent (a later delivery retries). Never throws. */
export async function releaseBillingMail(database: Database, claimId: number): Promise<void> {
  await database.db.delete(billingMails).where(eq(billingMails.id, claimId)).catch(() => undefined);
}

/** Whether the mail `kind` about `eventKey` was claimed (sent or being sent). */
export async function billingMailClaimed(database: Database, kind: BillingMailKind, eventKey: string): Promise<boolean> {
  const rows = await database.db.select({ id: billingMails.id }).from(billingMails).where(and(eq(billingMails.kind, kind), eq(billingMails.eventKey, eventKey)));
  return rows.length > 0;
}

/** The claim key of a payment's purchase or renewal mail. */
export const paymentMailKey = (paymentId: number) => `payment:${paymentId}`;
/** The claim key of a refund mail: the payment and its refunded total (a later partial refund is a new event). */
export const refundMailKey = (paymentId: number, refundedMinor: number) => `refund:${paymentId}:${refundedMinor}`;
/** The claim key of a cancellation mail: cancelling again in a later period is a new event. */
export const cancelMailKey = (subscriptionId: number, periodEnd: Date) => `cancel:${subscriptionId}:${periodEnd.toISOString()}`;
/** The claim key of the subscription-ended mail. */
export const endedMailKey = (subscriptionId: number) => `ended:${subscriptionId}`;
/** The claim key of the failed-payment mail of one invoice (kept from decision 030's claim). */
export function failedMailKey(provider: string, invoiceId: string): string {
  return `invoice:${provider}:${invoiceId}`;
}

/**
 * How recent an event must be to be mailed: 14 days from the payment row's creation (purchase,
 * renewal), the last refund, the cancellation, the end. Covers the providers' retries (Stripe retries a
 * renewal for up to two weeks) and keeps events from before these mails existed from being mailed late.
 */
export const BILLING_MAIL_WINDOW_MS = 14 * 86_400_000;

export type BillingMailServices = Pick<AppServices, 'database' | 'log' | 'mail' | 'config'>;
type PaymentRow = typeof billingPayments.$inferSelect;
type SubscriptionRow = typeof subscriptions.$inferSelect;
type Owner = { email: string; locale: Locale };

const PLAN_NAMES: Record<Locale, Record<PaidPlan, string>> = {
  ko: { basic: '베이직', deluxe: '디럭스', premium: '프리미엄' },
  en: { basic: 'Basic', deluxe: 'Deluxe', premium: 'Premium' },
};
/** Pack names as the pricing page shows them (web locales `packs.*`; English from contracts). */
const PACK_NAMES_KO: Record<PackId, string> = { package1: '스타터', package2: '베이직', package3: '스탠다드', package4: '프리미엄', package5: '얼티밋' };

/** A plan's name in the reader's language (mails); an unknown id as it is. */
export const planName = (plan: string, locale: Locale) => PLAN_NAMES[locale][plan as PaidPlan] ?? plan;
const packName = (pack: string, locale: Locale) => (locale === 'ko' ? PACK_NAMES_KO[pack as PackId] : CREDIT_PACKS[pack as PackId]?.name) ?? pack;
/** '스타터 크레딧 팩' / 'Starter credit pack', '베이직 플랜' / 'Basic plan'. */
function itemName(row: PaymentRow, locale: Locale): string {
  if (row.kind === 'order') return locale === 'ko' ? `${packName(row.item, locale)} 크레딧 팩` : `${packName(row.item, locale)} credit pack`;
  return locale === 'ko' ? `${planName(row.item, locale)} 플랜` : `${planName(row.item, locale)} plan`;
}

const recent = (at: Date | null) => at !== null && Date.now() - at.getTime() < BILLING_MAIL_WINDOW_MS;
const isDuplicate = (row: PaymentRow) => row.reason.startsWith('duplicate:');

/** My Page's billing history (the anchor the page gives that section). */
const historyUrl = (s: BillingMailServices, locale: Locale) => siteLink(s.config, locale, '/mypage#billing-history');
/** The provider's receipt page when it gave one, else ours. */
const receiptUrl = (s: BillingMailServices, locale: Locale, row: PaymentRow) => row.receiptUrl ?? siteLink(s.config, locale, `/mypage/receipts/${row.id}`);

/**
 * Claims and sends one mail to `userId` in their language. Never throws on a failed send: the claim
 * is released (a later delivery retries) and the failure logged.
 * @returns whether this call sent it
 */
async function deliver(s: BillingMailServices, m: { userId: number; kind: BillingMailKind; key: string }, build: (owner: Owner) => Promise<MailMessage> | MailMessage): Promise<boolean> {
  const owner = (await s.database.db.select({ email: users.email, locale: users.locale, deletedAt: users.deletedAt }).from(users).where(eq(users.id, m.userId)))[0];
  if (!owner || owner.deletedAt || !owner.email) return false;
  const claim = await claimBillingMail(s.database, m.userId, m.kind, m.key);
  if (claim === null) return false;
  try {
    await s.mail.send(await build({ email: owner.email, locale: owner.locale }));
    s.log.info({ userId: m.userId, kind: m.kind, key: m.key }, 'billing mail sent');
    return true;
  } catch (err) {
    await releaseBillingMail(s.database, claim);
    s.log.warn({ err, userId: m.userId, kind: m.kind, key: m.key }, 'billing mail failed; a later delivery about it retries');
    return false;
  }
}

/**
 * The mails a webhook's object calls for now (see the file comment), after the delivery's transaction
 * committed — or found it already applied. Never throws: the webhook has been applied; failures are
 * logged.
 */
export async function sendBillingMails(s: BillingMailServices, provider: PaymentsProvider, ref: WebhookObjectRef | null): Promise<void> {
  if (!ref) return;
  try {
    if (ref.kind === 'subscription') {
      const sub = await subscriptionRow(s, provider.name, ref.id);
      if (sub) await mailSubscriptionState(s, sub);
      return;
    }
    const row = (await s.database.db.select().from(billingPayments).where(and(eq(billingPayments.provider, provider.name), eq(billingPayments.kind, ref.kind), eq(billingPayments.providerId, ref.id))))[0];
    if (!row) return;
    const sub = row.providerSubscriptionId ? await subscriptionRow(s, provider.name, row.providerSubscriptionId) : null;
    // A refused duplicate (decision 029): its invoices are recorded as such, and its subscription row says so too.
    const duplicate = isDuplicate(row) || Boolean(sub?.refusedAt);
    await mailPayment(s, row, duplicate);
    await mailRefund(s, row, duplicate);
    await mailPaymentFailed(s, provider, row, sub);
    // An invoice event may be how we learn that its subscription ended.
    if (sub) await mailSubscriptionState(s, sub);
  } catch (err) {
    s.log.warn({ err, provider: provider.name, object: ref }, 'billing mails not sent');
  }
}

async function subscriptionRow(s: BillingMailServices, provider: string, providerSubscriptionId: string): Promise<SubscriptionRow | null> {
  const rows = await s.database.db.select().from(subscriptions).where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, providerSubscriptionId)));
  return rows[0] ?? null;
}

/** Purchase (pack, first payment, upgrade) or renewal: a payment that granted credits. */
async function mailPayment(s: BillingMailServices, row: PaymentRow, duplicate: boolean): Promise<boolean> {
  if (row.creditsGranted <= 0 || duplicate || !recent(row.createdAt)) return false;
  const renewal = row.kind === 'invoice' && row.reason !== 'initial' && row.reason !== 'upgrade';
  return deliver(s, { userId: row.userId, kind: renewal ? 'renewal' : 'purchase', key: paymentMailKey(row.id) }, ({ email, locale }) => {
    const common = {
      amount: formatPrice(row.amountMinor, row.currency, locale),
      method: paymentMethodName(row.method, locale),
      credits: row.creditsGranted,
      historyUrl: historyUrl(s, locale),
      receiptUrl: receiptUrl(s, locale, row),
    };
    if (renewal) return renewalDoneMail(locale, email, { planName: planName(row.item, locale), ...common });
    const what =
      row.kind === 'order'
        ? { kind: 'pack' as const, name: packName(row.item, locale) }
        : { kind: row.reason === 'upgrade' ? ('upgrade' as const) : ('subscription' as const), name: planName(row.item, locale) };
    return purchaseMail(locale, email, { what, ...common });
  });
}

/** A refund: once per refunded total of the payment. */
async function mailRefund(s: BillingMailServices, row: PaymentRow, duplicate: boolean): Promise<boolean> {
  if (row.refundedMinor <= 0 || !recent(row.refundedAt)) return false;
  return deliver(s, { userId: row.userId, kind: 'refund', key: refundMailKey(row.id, row.refundedMinor) }, ({ email, locale }) =>
    refundMail(locale, email, {
      itemName: itemName(row, locale),
      paid: formatPrice(row.amountMinor, row.currency, locale),
      refunded: formatPrice(row.refundedMinor, row.currency, locale),
      partial: row.refundedMinor < row.amountMinor,
      creditsTaken: row.creditsReclaimed,
      duplicate,
      historyUrl: historyUrl(s, locale),
      receiptUrl: receiptUrl(s, locale, row),
    }),
  );
}

/**
 * The failed-payment mail (issue 21 point 12, decision 030): an invoice `failed` (sandbox, Stripe after
 * a declined attempt), or still `open` while its subscription is in a payment-issue status (Lemon
 * Squeezy keeps a failed renewal `pending` and the subscription goes `past_due`); with the provider's
 * update-payment link (My Page when it has none or cannot be reached). Once per failed invoice.
 */
async function mailPaymentFailed(s: BillingMailServices, provider: PaymentsProvider, row: PaymentRow, sub: SubscriptionRow | null): Promise<boolean> {
  if (row.kind !== 'invoice' || isDuplicate(row) || sub?.refusedAt) return false;
  const failed = row.status === 'failed' || (row.status === 'open' && sub !== null && isPaymentIssueStatus(sub.status as SubscriptionStatus));
  if (!failed) return false;
  return deliver(s, { userId: row.userId, kind: 'renewal_failed', key: failedMailKey(provider.name, row.providerId) }, async ({ email, locale }) => {
    const fix = row.providerSubscriptionId
      ? await provider.updatePaymentUrl(row.providerSubscriptionId).catch((err: unknown) => {
          s.log.warn({ err, invoice: row.providerId }, 'update-payment URL unavailable for the failed-payment mail');
          return null;
        })
      : null;
    const fixUrl = fix ? (fix.startsWith('/') ? `${s.config.publicUrl}${fix}` : fix) : siteLink(s.config, locale, '/mypage');
    const plan = row.item as PaidPlan;
    const amountMinor = row.amountMinor > 0 ? row.amountMinor : (s.config.payments.prices[plan]?.[row.currency] ?? 0);
    return paymentFailedMail(locale, email, { planName: planName(plan, locale), amount: formatPrice(amountMinor, row.currency, locale), fixUrl });
  });
}

/**
 * A subscription's own events: its cancellation scheduled, or its end. Only a subscription that was
 * credited (a first payment went through) and not refused as a duplicate. Called after a webhook, and
 * by `cancelSubscription` after our API scheduled the cancellation (whichever comes first sends).
 */
export async function mailSubscriptionState(s: BillingMailServices, sub: SubscriptionRow): Promise<boolean> {
  if (sub.refusedAt || !sub.creditedPlan) return false;
  const plan = sub.creditedPlan;
  if (sub.status === 'expired') {
    if (!recent(sub.endedAt ?? sub.updatedAt)) return false;
    return deliver(s, { userId: sub.userId, kind: 'subscription_ended', key: endedMailKey(sub.id) }, async ({ email, locale }) => {
      const balance = await getBalance(s.database.db, sub.userId);
      return subscriptionEndedMail(locale, email, { planName: planName(plan, locale), keptCredits: balance.oneTime + balance.bonus, pricingUrl: siteLink(s.config, locale, '/pricing') });
    });
  }
  if (!sub.cancelAtPeriodEnd || sub.status === 'incomplete_expired' || !recent(sub.cancelledAt)) return false;
  return deliver(s, { userId: sub.userId, kind: 'cancellation_scheduled', key: cancelMailKey(sub.id, sub.currentPeriodEnd) }, ({ email, locale }) =>
    cancellationScheduledMail(locale, email, { planName: planName(plan, locale), endDate: mailDate(sub.currentPeriodEnd, locale), manageUrl: siteLink(s.config, locale, '/mypage') }),
  );
}
