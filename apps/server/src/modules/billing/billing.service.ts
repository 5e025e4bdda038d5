import { randomUUID } from 'node:crypto';
import { and, desc, eq, gt } from 'drizzle-orm';
import {
  isPaymentIssueStatus,
  planRank,
  PLAN_CHANGE_MESSAGES,
  type CancelSubscriptionResponse,
  type ChangePlanResponse,
  type CheckoutResponse,
  type CheckoutStatusResponse,
  type Currency,
  defaultCurrency,
  type PricesResponse,
  type Locale,
  type PackId,
  type PaidPlan,
  type ResumeSubscriptionResponse,
  type SubscriptionStatus,
  type SubscriptionStatusResponse,
  type WithdrawDowngradeResponse,
} from '@dewy/contracts';
import type { AppServices } from '../../context';
import { billingCheckouts, subscriptions, users, type UserRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { PaymentProviderError, type PaymentsProvider, type ProviderSubscription } from './payments-provider';
import { effectivePlan, isLiveSubscription, pickCurrentSubscription, syncSubscription, upcomingPlan } from './billing.webhooks';
import { mailSubscriptionState } from './billing-mails';

/**
 * The payment calls of spec 000 §7 and 001 §7, with the rules the spec leaves to the server
 * (decision 012): one live subscription per user, plan changes only on one's own subscription,
 * upgrades now (prorated, the credit difference granted when the provider's invoice is paid),
 * downgrades from the next cycle, no plan change while a cancellation is in force (000 §5), and a
 * provider that is not configured refuses everything (nothing is charged).
 */

export type BillingServices = Pick<AppServices, 'config' | 'database' | 'log' | 'mail' | 'payments'>;

function providerOf(s: BillingServices): PaymentsProvider {
  if (!s.payments) throw new AppError('PAYMENTS_NOT_CONFIGURED', { message: `PAYMENTS_PROVIDER=${s.config.payments.provider} lacks ${s.config.payments.missing.join(', ')}` });
  return s.payments;
}

/** Runs a provider call; its failures become PAYMENT_PROVIDER_ERROR (502) with the detail logged only. */
async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof PaymentProviderError) throw new AppError('PAYMENT_PROVIDER_ERROR', { message: err.message, cause: err });
    throw err;
  }
}

type LocalSubscription = typeof subscriptions.$inferSelect;

/** The provider whose records count: the one in use (its own name), else the configured one. */
const providerName = (s: BillingServices) => s.payments?.name ?? s.config.payments.provider;

/**
 * The user's current subscription with the provider in use: the live one (newest first), else the
 * newest ended one; refused duplicates never count (decision 029). Null when none.
 */
async function currentSubscription(s: BillingServices, userId: number): Promise<LocalSubscription | null> {
  const rows = await s.database.db.select().from(subscriptions).where(and(eq(subscriptions.userId, userId), eq(subscriptions.provider, providerName(s))));
  return pickCurrentSubscription(rows);
}

/**
 * How long an unfinished plan checkout keeps another one from starting (decision 029). After it, the
 * checkout is stale: a new one may start, and should the old one still be paid, the webhook refuses
 * the second subscription (cancelled and refunded at the provider).
 */
export const PLAN_CHECKOUT_OPEN_MS = 30 * 60_000;

/** The live (not ended) subscription, or the errors of 001 §7 / 000 §5. */
async function liveSubscription(s: BillingServices, userId: number): Promise<LocalSubscription> {
  const sub = await currentSubscription(s, userId);
  if (!sub) throw new AppError('NO_SUBSCRIPTION');
  if (sub.status === 'expired' || sub.status === 'incomplete_expired') throw new AppError('SUBSCRIPTION_ENDED');
  return sub;
}

/** Absolute URL on our site in the caller's language (`/en` prefix for English). */
function siteUrl(s: BillingServices, locale: Locale, pathAndQuery: string): string {
  return `${s.config.publicUrl}${locale === 'en' ? '/en' : ''}${pathAndQuery}`;
}


/**
 * Starts a hosted checkout for a plan (POST /api/payment/checkout) or a pack (POST /api/payment/credit-checkout).
 * The checkout row is written before the provider is called, so the return page can ask about it.
 * A plan checkout follows the one-subscription rule (claimPlanCheckout): the open checkout of the same
 * plan may come back instead of a new one.
 * @throws PAYMENTS_NOT_CONFIGURED; ALREADY_SUBSCRIBED (a live subscription exists: change plan, or
 *   resume a scheduled cancel, instead); CHECKOUT_IN_PROGRESS; CURRENCY_NOT_AVAILABLE (a currency the
 *   provider does not take; absent, the language's currency is used where the provider takes it);
 *   PAYMENT_PROVIDER_ERROR.
 */
export async function startCheckout(
  s: BillingServices,
  user: UserRow,
  item: { kind: 'plan'; plan: PaidPlan } | { kind: 'pack'; pack: PackId },
  locale: Locale,
  requestedCurrency?: Currency,
): Promise<CheckoutResponse> {
  const provider = providerOf(s);
  if (requestedCurrency && !provider.currencies.includes(requestedCurrency)) throw new AppError('CURRENCY_NOT_AVAILABLE');
  const currency = requestedCurrency ?? defaultCurrency(locale, provider.currencies);
  const checkoutId = randomUUID();
  const itemId = item.kind === 'plan' ? item.plan : item.pack;
  if (item.kind === 'plan') {
    const open = await claimPlanCheckout(s, user.id, checkoutId, provider.name, item.plan, currency);
    if (open) return { success: true, checkout_url: open.url, checkoutId: open.id };
  } else {
    await s.database.db.insert(billingCheckouts).values({ id: checkoutId, userId: user.id, provider: provider.name, kind: item.kind, item: itemId, currency });
  }
  const q = `checkout=${encodeURIComponent(checkoutId)}`;
  const res = await call(() =>
    provider.createCheckout({
      checkoutId,
      userId: user.id,
      email: user.email,
      item,
      currency,
      locale,
      successUrl: siteUrl(s, locale, `/payment/success?${q}`),
      cancelUrl: siteUrl(s, locale, `/payment/${itemId}?payment=cancelled&${q}`),
      failedUrl: siteUrl(s, locale, `/payment/failed?${q}`),
    }),
  ).catch(async (err: unknown) => {
    await s.database.db.update(billingCheckouts).set({ status: 'failed' }).where(eq(billingCheckouts.id, checkoutId));
    throw err;
  });
  await s.database.db.update(billingCheckouts).set({ providerCheckoutId: res.providerCheckoutId, checkoutUrl: res.url }).where(eq(billingCheckouts.id, checkoutId));
  return { success: true, checkout_url: res.url, checkoutId };
}

/**
 * The one-subscription rule at checkout (issue 21 point 2, decision 029), serialised on the user's
 * row (`SELECT … FOR UPDATE`), so parallel requests are decided one after the other:
 * - a live subscription (any non-ended status, any provider) → ALREADY_SUBSCRIBED (change plan instead);
 * - an open plan checkout (pending, younger than PLAN_CHECKOUT_OPEN_MS) for the same plan and currency
 *   whose hosted page exists → that checkout is returned (a double click or a second tab gets the same page);
 * - an open plan checkout for another plan or currency, or one still being created → CHECKOUT_IN_PROGRESS;
 * - otherwise the new checkout row `checkoutId` is written (in the same transaction) and null returned.
 */
async function claimPlanCheckout(s: BillingServices, userId: number, checkoutId: string, provider: string, plan: PaidPlan, currency: Currency): Promise<{ id: string; url: string } | null> {
  return s.database.db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    const subs = await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId));
    if (subs.some(isLiveSubscription)) throw new AppError('ALREADY_SUBSCRIBED');
    const open = (
      await tx
        .select()
        .from(billingCheckouts)
        .where(and(eq(billingCheckouts.userId, userId), eq(billingCheckouts.kind, 'plan'), eq(billingCheckouts.status, 'pending'), gt(billingCheckouts.createdAt, new Date(Date.now() - PLAN_CHECKOUT_OPEN_MS))))
        .orderBy(desc(billingCheckouts.createdAt))
        .limit(1)
    )[0];
    if (open) {
      if (open.item === plan && open.currency === currency && open.checkoutUrl && open.provider === provider) return { id: open.id, url: open.checkoutUrl };
      throw new AppError('CHECKOUT_IN_PROGRESS');
    }
    await tx.insert(billingCheckouts).values({ id: checkoutId, userId, provider, kind: 'plan', item: plan, currency });
    return null;
  });
}

/**
 * GET /api/payment/prices (ours, issue 25): the price table in force (contracts' defaults with the
 * configured overrides, minor units) and the currencies a checkout may be opened in now: the
 * provider's, or both when payments are not configured (the page still shows prices; buying answers
 * PAYMENTS_NOT_CONFIGURED).
 */
export function prices(s: Pick<BillingServices, 'config' | 'payments'>): PricesResponse {
  return { success: true, prices: s.config.payments.prices, currencies: [...(s.payments?.currencies ?? ['krw', 'usd'])] };
}

/**
 * GET /api/payment/checkout/{id}: what our server recorded about one of the caller's checkouts
 * (`latest`: the newest). Another user's checkout is NOT_FOUND, as an unknown one.
 */
export async function checkoutStatus(s: BillingServices, userId: number, id: string): Promise<CheckoutStatusResponse> {
  const where = id === 'latest' ? eq(billingCheckouts.userId, userId) : and(eq(billingCheckouts.id, id), eq(billingCheckouts.userId, userId));
  const row = (await s.database.db.select().from(billingCheckouts).where(where).orderBy(desc(billingCheckouts.createdAt)).limit(1))[0];
  if (!row) throw new AppError('NOT_FOUND');
  return {
    success: true,
    checkoutId: row.id,
    status: row.status,
    kind: row.kind,
    plan: row.kind === 'plan' ? (row.item as PaidPlan) : null,
    package: row.kind === 'pack' ? (row.item as PackId) : null,
    creditsGranted: row.creditsGranted,
  };
}

/** Writes a fresh provider snapshot of the user's subscription into our records. */
async function record(s: BillingServices, userId: number, snap: ProviderSubscription): Promise<LocalSubscription> {
  return s.database.db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    return syncSubscription(tx, providerName(s), userId, snap);
  });
}

/**
 * POST /api/payment/change-plan (000 §4): higher plan → upgrade now with proration; lower → from the
 * next cycle; the current plan while a downgrade is scheduled → the downgrade is withdrawn.
 * @throws NO_SUBSCRIPTION, SUBSCRIPTION_ENDED, SUBSCRIPTION_CANCEL_SCHEDULED (000 §5: revoke the
 *   cancellation first), SAME_PLAN, PAYMENT_PROVIDER_ERROR.
 */
export async function changePlan(s: BillingServices, user: UserRow, plan: PaidPlan, locale: Locale): Promise<ChangePlanResponse> {
  const provider = providerOf(s);
  const local = await liveSubscription(s, user.id);
  if (local.cancelAtPeriodEnd) throw new AppError('SUBSCRIPTION_CANCEL_SCHEDULED');
  // Act on the provider's present state; a cancel made at the provider whose webhook is still on its
  // way is removed by the change, and the answer says so (cancelScheduleRemoved).
  const fresh = await call(() => provider.getSubscription(local.providerSubscriptionId));
  if (fresh.status === 'expired') {
    await record(s, user.id, fresh);
    throw new AppError('SUBSCRIPTION_ENDED');
  }
  const current = effectivePlan(local) ?? fresh.plan;
  const scheduled = upcomingPlan(local);
  let timing: 'now' | 'next_cycle';
  if (planRank(plan) > planRank(current)) timing = 'now';
  else if (planRank(plan) < planRank(current)) timing = 'next_cycle';
  else if (scheduled) timing = 'next_cycle';
  else throw new AppError('SAME_PLAN');
  // Asking for the current plan while a downgrade is scheduled withdraws it, by the same provider call
  // as POST /api/payment/withdraw-downgrade.
  const withdraw = timing === 'next_cycle' && plan === current;
  const after = await call(() =>
    withdraw ? provider.withdrawScheduledChange(local.providerSubscriptionId, current) : provider.changePlan(local.providerSubscriptionId, plan, timing),
  );
  const row = await record(s, user.id, after);
  const change = timing === 'now' ? 'upgrade' : 'downgrade';
  s.log.info({ userId: user.id, from: current, to: plan, change }, 'plan changed');
  return {
    success: true,
    message: PLAN_CHANGE_MESSAGES[change === 'upgrade' ? 'upgraded' : plan === current ? 'downgradeWithdrawn' : 'downgradeScheduled'][locale],
    change,
    plan: timing === 'now' ? plan : current,
    nextPlan: upcomingPlan(row),
    cancelScheduleRemoved: fresh.cancelAtPeriodEnd,
  };
}

/**
 * POST /api/payment/withdraw-downgrade (decision 030): removes a scheduled downgrade before the next
 * cycle (`provider.withdrawScheduledChange`), so the next renewal bills the plan of this period again;
 * nothing is charged now. The plan of this period is our records' credited plan.
 * @throws NO_SUBSCRIPTION, SUBSCRIPTION_ENDED, NO_SCHEDULED_CHANGE (no downgrade is scheduled; nothing
 *   changes), PAYMENT_PROVIDER_ERROR.
 */
export async function withdrawDowngrade(s: BillingServices, user: UserRow, locale: Locale): Promise<WithdrawDowngradeResponse> {
  const provider = providerOf(s);
  const local = await liveSubscription(s, user.id);
  const scheduled = upcomingPlan(local);
  const current = effectivePlan(local);
  if (!scheduled || !current) throw new AppError('NO_SCHEDULED_CHANGE');
  const after = await call(() => provider.withdrawScheduledChange(local.providerSubscriptionId, current));
  const row = await record(s, user.id, after);
  const left = upcomingPlan(row);
  if (left) throw new AppError('PAYMENT_PROVIDER_ERROR', { message: `withdraw left ${left} scheduled on ${row.providerSubscriptionId}` });
  s.log.info({ userId: user.id, plan: current, withdrawn: scheduled }, 'scheduled downgrade withdrawn');
  return { success: true, message: PLAN_CHANGE_MESSAGES.downgradeWithdrawn[locale], plan: current, nextPlan: null };
}

/**
 * POST /api/payment/cancel-subscription (001 §7): schedules the cancellation at the period end, and
 * mails the owner once it is recorded (decision 041: the provider's webhook about the same change
 * claims the same mail, so whichever comes first sends it, once).
 * @throws NO_SUBSCRIPTION, SUBSCRIPTION_ENDED, PAYMENT_PROVIDER_ERROR.
 */
export async function cancelSubscription(s: BillingServices, user: UserRow): Promise<CancelSubscriptionResponse> {
  const provider = providerOf(s);
  const local = await liveSubscription(s, user.id);
  if (local.cancelAtPeriodEnd) return { success: true, alreadyScheduled: true, scheduled: true, ends_at: local.currentPeriodEnd.toISOString() };
  const after = await call(() => provider.cancel(local.providerSubscriptionId));
  const row = await record(s, user.id, after);
  s.log.info({ userId: user.id, subscription: row.providerSubscriptionId }, 'subscription cancel scheduled');
  await mailSubscriptionState(s, row).catch((err: unknown) => s.log.warn({ err, userId: user.id }, 'cancellation mail not sent'));
  return { success: true, alreadyScheduled: false, scheduled: row.cancelAtPeriodEnd, ends_at: row.currentPeriodEnd.toISOString() };
}

/**
 * POST /api/payment/resume-subscription (001 §7): removes a scheduled cancellation (a no-op when none).
 * @throws NO_SUBSCRIPTION, SUBSCRIPTION_ENDED, PAYMENT_PROVIDER_ERROR.
 */
export async function resumeSubscription(s: BillingServices, user: UserRow): Promise<ResumeSubscriptionResponse> {
  const provider = providerOf(s);
  let row = await liveSubscription(s, user.id);
  if (row.cancelAtPeriodEnd) {
    const after = await call(() => provider.resume(row.providerSubscriptionId));
    row = await record(s, user.id, after);
    s.log.info({ userId: user.id, subscription: row.providerSubscriptionId }, 'subscription resumed');
  }
  return { success: true, plan: effectivePlan(row) ?? row.plan, next_renewal_date: row.cancelAtPeriodEnd ? null : row.currentPeriodEnd.toISOString() };
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * Where the customer fixes a failed payment (`provider.updatePaymentUrl`), asked only while the status is
 * a payment issue; a provider failure answers null (the banner still shows, without the link).
 */
async function updatePaymentUrlOf(s: BillingServices, sub: LocalSubscription | null): Promise<string | null> {
  if (!sub || !s.payments || sub.cancelAtPeriodEnd || !isPaymentIssueStatus(sub.status as SubscriptionStatus)) return null;
  const provider = s.payments;
  try {
    const url = await provider.updatePaymentUrl(sub.providerSubscriptionId);
    return url && url.startsWith('/') ? `${s.config.publicUrl}${url}` : url;
  } catch (err) {
    s.log.warn({ err, subscription: sub.providerSubscriptionId }, 'update-payment URL unavailable');
    return null;
  }
}

/**
 * GET /api/payment/subscription-status (000 §3/§7, 001 §3): from our records; the provider is asked
 * only for the update-payment link while a payment failed (decision 030). A subscription whose renewal
 * failed has no next renewal date (`next_renewal_date` null), so the display order of 001 §4 reaches the
 * provider status (past_due → overdue) instead of stopping at "active".
 */
export async function subscriptionStatus(s: BillingServices, userId: number): Promise<SubscriptionStatusResponse> {
  const u = (await s.database.db.select().from(users).where(eq(users.id, userId)))[0];
  if (!u) throw new AppError('NOT_FOUND');
  const sub = await currentSubscription(s, userId);
  const live = sub && sub.status !== 'expired' ? sub : null;
  const next = sub ? upcomingPlan(sub) : null;
  const paymentIssue = Boolean(live && !live.cancelAtPeriodEnd && isPaymentIssueStatus(live.status as SubscriptionStatus));
  const updatePaymentUrl = paymentIssue ? await updatePaymentUrlOf(s, live) : null;
  return {
    success: true,
    hasSubscription: Boolean(live && effectivePlan(live)),
    plan: u.plan,
    credits: u.oneTimeCredits + u.bonusCredits + u.subscriptionCredits,
    nextPlan: next,
    subscription: sub
      ? {
          data: {
            attributes: {
              status: sub.status === 'expired' ? 'expired' : sub.cancelAtPeriodEnd ? 'cancelled' : (sub.status as SubscriptionStatus),
              created_at: sub.providerCreatedAt.toISOString(),
              renews_at: live && !sub.cancelAtPeriodEnd && !paymentIssue ? sub.currentPeriodEnd.toISOString() : null,
              ends_at: sub.cancelAtPeriodEnd ? sub.currentPeriodEnd.toISOString() : iso(sub.endedAt),
              urls: { update_payment_method: updatePaymentUrl },
              currency: sub.currency,
            },
            scheduled_change: live?.cancelAtPeriodEnd
              ? { action: 'cancel', effective_at: sub.currentPeriodEnd.toISOString() }
              : live && next
                ? { action: 'downgrade', effective_at: sub.currentPeriodEnd.toISOString(), plan: next }
                : null,
          },
        }
      : null,
    user: {
      plan: u.plan,
      cancelled_at: iso(u.cancelledAt),
      subscription_end_date: iso(u.subscriptionEndDate),
      next_renewal_date: paymentIssue ? null : iso(u.nextRenewalDate),
      subscriptionId: u.subscriptionId,
    },
    provider: { name: providerName(s), configured: Boolean(s.payments) },
  };
}

/** A user by e-mail (case-insensitive), for the operator CLI; null when unknown. */
export async function userByEmail(s: Pick<AppServices, 'database'>, email: string): Promise<UserRow | null> {
  const rows = await s.database.db.select().from(users).where(eq(users.emailNormalized, email.trim().toLowerCase()));
  return rows[0] ?? null;
}

