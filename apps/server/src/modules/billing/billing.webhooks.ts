import { and, desc, eq, sql } from 'drizzle-orm';
import { isPaymentIssueStatus, packCredits, planCredits, planRank, type PaidPlan, type PriceTable, type SubscriptionStatus } from '@dewy/contracts';
import type { Tx } from '../../db/client';
import { billingCheckouts, billingEvents, billingPayments, subscriptions, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { expireSubscriptionPeriods, grant, reclaim } from '../credits';
import { reverseReward, rewardReferral } from '../affiliate';
import { announceUserChanged } from '../../lib/user-changes';
import type { AppServices } from '../../context';
import {
  chargedFraction,
  PaymentProviderError,
  WebhookSignatureError,
  type PaymentsProvider,
  type ProviderInvoice,
  type ProviderOrder,
  type ProviderSubscription,
  type PaymentDetails,
  type WebhookEvent,
} from './payments-provider';
import { sendBillingMails } from './billing-mails';

/**
 * Applying payment-provider webhooks to our books (GUIDE §3a, decision 012).
 *
 * 1. The signature is verified on the raw body (`provider.parseWebhook`).
 * 2. The object the event names is re-read from the provider: we act on what the provider holds now,
 *    never on the event's copy, so replays and out-of-order deliveries cannot grant anything extra.
 * 3. In one transaction: the event key is inserted under a unique constraint (a duplicate stops here),
 *    the user row is locked, and the effect is written (ledger entries keyed by the paid object, so a
 *    second event about the same order or invoice cannot grant twice either).
 * 4. The route answers 2xx only after that commit; any failure answers non-2xx and the provider retries.
 * 5. After the commit (and for a delivery already applied), the billing mails the object's state calls
 *    for go out, each once per event (billing-mails.ts, decision 041): never inside the transaction, so a
 *    rolled-back delivery mails nothing.
 */

export type WebhookOutcome =
  | 'duplicate'
  | 'ignored'
  | 'unmatched'
  | 'granted'
  | 'reclaimed'
  | 'synced'
  | 'stale'
  | 'nothing'
  | 'prorated_to_zero'
  /** The subscription was created while the user had another live one: refused, cancelled and refunded at the provider (decision 029). */
  | 'duplicate_subscription';

/** Errors that a retry may fix (object not ready, provider down): the route answers 503. */
export class RetryLaterError extends Error {}

type Snapshot =
  | { kind: 'order'; order: ProviderOrder }
  | { kind: 'invoice'; invoice: ProviderInvoice; subscription: ProviderSubscription }
  | { kind: 'subscription'; subscription: ProviderSubscription }
  | null;

async function readSnapshot(provider: PaymentsProvider, ev: WebhookEvent): Promise<Snapshot> {
  const ref = ev.object;
  if (!ref) return null;
  if (ref.kind === 'order') return { kind: 'order', order: await provider.getOrder(ref.id) };
  if (ref.kind === 'subscription') return { kind: 'subscription', subscription: await provider.getSubscription(ref.id) };
  const invoice = await provider.getInvoice(ref.id);
  return { kind: 'invoice', invoice, subscription: await provider.getSubscription(invoice.subscriptionId) };
}

/**
 * Verifies, re-reads and applies one webhook delivery.
 * @returns the outcome (`duplicate` for an event key already applied).
 * @throws WebhookSignatureError (→ 401), PaymentProviderError / RetryLaterError (→ 5xx, the provider retries).
 */
export async function handleWebhook(
  services: Pick<AppServices, 'database' | 'log' | 'mail' | 'config'>,
  provider: PaymentsProvider,
  raw: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ outcome: WebhookOutcome; eventKey: string }> {
  const ev = await provider.parseWebhook(raw, headers);
  const db = services.database.db;
  const seen = await db.select({ id: billingEvents.id, outcome: billingEvents.outcome }).from(billingEvents).where(and(eq(billingEvents.provider, provider.name), eq(billingEvents.eventKey, ev.key)));
  if (seen[0]) {
    // A redelivery of an event that refused a duplicate subscription: finish the provider side again
    // (idempotent), in case the first delivery's cancel or refund call failed.
    if (seen[0].outcome === 'duplicate_subscription') await settleDuplicate(services, provider, await readSnapshot(provider, ev));
    // A mail an earlier delivery could not send goes now (each mail is claimed once, so none twice).
    await sendBillingMails(services, provider, ev.object);
    return { outcome: 'duplicate', eventKey: ev.key };
  }
  const snap = await readSnapshot(provider, ev);
  const outcome = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(billingEvents)
      .values({ provider: provider.name, eventKey: ev.key, type: ev.type, objectKind: ev.object?.kind ?? null, objectId: ev.object?.id ?? null, outcome: 'pending' })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    if (!inserted[0]) return 'duplicate' as const;
    const result = await applySnapshot(tx, provider.name, ev, snap, services.config.payments.prices);
    await tx.update(billingEvents).set({ outcome: result }).where(eq(billingEvents.id, inserted[0].id));
    return result;
  });
  services.log.info({ provider: provider.name, eventKey: ev.key, type: ev.type, object: ev.object, outcome }, 'payment webhook applied');
  if (outcome === 'duplicate_subscription') await settleDuplicate(services, provider, snap);
  // After the commit (the payment and subscription rows exist), never before: a rolled-back delivery mails nothing.
  await sendBillingMails(services, provider, ev.object);
  return { outcome, eventKey: ev.key };
}

/**
 * The provider side of a refused duplicate subscription (decision 029), after our books committed:
 * the subscription is ended at once (`cancelNow`) and every paid invoice of it we know of — the
 * event's own and those recorded before — is refunded in full (`refundInvoice`). Both are no-ops on
 * what is already ended or refunded, so a redelivery repeats them safely. A failure throws: the route
 * answers 5xx and the provider's retry comes back here (see handleWebhook).
 */
async function settleDuplicate(services: Pick<AppServices, 'database' | 'log'>, provider: PaymentsProvider, snap: Snapshot): Promise<void> {
  if (!snap || snap.kind === 'order') return;
  const sub = snap.subscription;
  if (sub.status !== 'expired') await provider.cancelNow(sub.id);
  const ids = new Set<string>();
  if (snap.kind === 'invoice') ids.add(snap.invoice.id);
  const recorded = await services.database.db
    .select({ providerId: billingPayments.providerId })
    .from(billingPayments)
    .where(and(eq(billingPayments.provider, provider.name), eq(billingPayments.kind, 'invoice'), eq(billingPayments.providerSubscriptionId, sub.id)));
  for (const r of recorded) ids.add(r.providerId);
  for (const id of ids) {
    const inv = snap.kind === 'invoice' && snap.invoice.id === id ? snap.invoice : await provider.getInvoice(id);
    if (inv.status === 'paid' && inv.amountMinor > inv.refundedMinor) await provider.refundInvoice(id);
  }
  services.log.warn({ provider: provider.name, subscription: sub.id, refunded: [...ids] }, 'duplicate subscription cancelled and refunded at the provider');
}

/** Our user for an event: the object's own user id, the signed payload's, or our records of the object. */
async function resolveUser(tx: Tx, provider: string, ev: WebhookEvent, objectUserId: number | null, providerSubscriptionId: string | null): Promise<number | null> {
  const candidates = [objectUserId, ev.userId];
  if (ev.checkoutId) {
    const co = await tx.select({ userId: billingCheckouts.userId }).from(billingCheckouts).where(eq(billingCheckouts.id, ev.checkoutId));
    candidates.push(co[0]?.userId ?? null);
  }
  if (providerSubscriptionId) {
    const s = await tx.select({ userId: subscriptions.userId }).from(subscriptions).where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, providerSubscriptionId)));
    candidates.push(s[0]?.userId ?? null);
  }
  for (const id of candidates) {
    if (!id) continue;
    const u = await tx.select({ id: users.id }).from(users).where(eq(users.id, id)).for('update');
    if (u[0]) return u[0].id;
  }
  return null;
}

async function applySnapshot(tx: Tx, provider: string, ev: WebhookEvent, snap: Snapshot, prices: PriceTable): Promise<WebhookOutcome> {
  if (!snap) return 'ignored';
  if (snap.kind === 'order') {
    const userId = await resolveUser(tx, provider, ev, snap.order.userId, null);
    if (!userId) return 'unmatched';
    return applyOrder(tx, provider, ev, userId, snap.order);
  }
  const sub = snap.subscription;
  const userId = await resolveUser(tx, provider, ev, sub.userId, sub.id);
  if (!userId) return 'unmatched';
  const local = await syncSubscription(tx, provider, userId, sub);
  if (local.refusedAt) {
    if (snap.kind === 'invoice') await recordRefusedInvoice(tx, provider, ev, userId, snap.invoice);
    if (ev.checkoutId) await tx.update(billingCheckouts).set({ status: 'cancelled' }).where(and(eq(billingCheckouts.id, ev.checkoutId), eq(billingCheckouts.userId, userId), eq(billingCheckouts.status, 'pending')));
    return 'duplicate_subscription';
  }
  if (snap.kind === 'subscription') return 'synced';
  return applyInvoice(tx, provider, ev, userId, snap.invoice, local, prices);
}

/** Share of `credits` a refund of `refundedMinor` out of `amountMinor` takes back (a full refund: all of it). */
function reclaimTarget(credits: number, amountMinor: number, refundedMinor: number): number {
  if (credits <= 0 || refundedMinor <= 0) return 0;
  if (amountMinor <= 0 || refundedMinor >= amountMinor) return credits;
  return Math.floor((credits * refundedMinor) / amountMinor);
}

/** The receipt fields of a provider's paid object, as `billing_payments` stores them. */
function detailsOf(x: PaymentDetails): Pick<typeof billingPayments.$inferInsert, 'currency' | 'method' | 'receiptUrl'> {
  return { currency: x.currency, method: x.method, receiptUrl: x.receiptUrl };
}

async function upsertPayment(tx: Tx, v: typeof billingPayments.$inferInsert) {
  const rows = await tx
    .insert(billingPayments)
    .values({ ...v, refundedAt: (v.refundedMinor ?? 0) > 0 ? new Date() : null })
    .onConflictDoUpdate({
      target: [billingPayments.provider, billingPayments.kind, billingPayments.providerId],
      set: {
        status: v.status,
        refundedMinor: v.refundedMinor,
        amountMinor: v.amountMinor,
        currency: v.currency,
        // The provider may say how it was paid, or where its receipt is, only once the payment settles.
        method: sql`coalesce(excluded.method, ${billingPayments.method})`,
        receiptUrl: sql`coalesce(excluded.receipt_url, ${billingPayments.receiptUrl})`,
        // The refund line of the billing history is dated when the refunded amount last grew.
        refundedAt: sql`case when excluded.refunded_minor > ${billingPayments.refundedMinor} then now() else ${billingPayments.refundedAt} end`,
        updatedAt: new Date(),
      },
    })
    .returning();
  return rows[0]!;
}

async function completeCheckout(tx: Tx, checkoutId: string | null, userId: number, credits: number, match?: { kind: 'plan' | 'pack'; item: string }) {
  let id = checkoutId;
  if (!id && match) {
    const co = await tx
      .select({ id: billingCheckouts.id })
      .from(billingCheckouts)
      .where(and(eq(billingCheckouts.userId, userId), eq(billingCheckouts.kind, match.kind), eq(billingCheckouts.item, match.item), eq(billingCheckouts.status, 'pending')))
      .orderBy(desc(billingCheckouts.createdAt))
      .limit(1);
    id = co[0]?.id ?? null;
  }
  if (!id) return;
  await tx
    .update(billingCheckouts)
    .set({ status: 'completed', creditsGranted: credits, completedAt: new Date() })
    .where(and(eq(billingCheckouts.id, id), eq(billingCheckouts.userId, userId)));
}

async function applyOrder(tx: Tx, provider: string, ev: WebhookEvent, userId: number, o: ProviderOrder): Promise<WebhookOutcome> {
  const row = await upsertPayment(tx, {
    userId, provider, kind: 'order', providerId: o.id, item: o.pack, reason: 'pack', status: o.status,
    amountMinor: o.amountMinor, refundedMinor: o.refundedMinor, ...detailsOf(o), bucket: 'one_time', checkoutId: ev.checkoutId,
  });
  const ref = `${provider}:order:${o.id}`;
  let outcome: WebhookOutcome = 'nothing';
  let granted = row.creditsGranted;
  // Only a paid order grants; an order first seen already refunded never granted, so takes nothing back.
  if (o.status === 'paid' && granted === 0) {
    granted = packCredits(o.pack);
    await grant(tx, { userId, amount: granted, bucket: 'one_time', reason: { code: 'pack_purchase', pack: o.pack }, reference: ref, idempotencyKey: `pay:${ref}` });
    await tx.update(billingPayments).set({ creditsGranted: granted }).where(eq(billingPayments.id, row.id));
    await completeCheckout(tx, row.checkoutId ?? ev.checkoutId, userId, granted, { kind: 'pack', item: o.pack });
    await rewardReferral(tx, { referredId: userId, paymentId: row.id, creditsGranted: granted, reference: ref });
    outcome = 'granted';
  }
  if (o.status === 'failed' && ev.checkoutId) {
    await tx.update(billingCheckouts).set({ status: 'failed' }).where(and(eq(billingCheckouts.id, ev.checkoutId), eq(billingCheckouts.status, 'pending')));
  }
  const target = reclaimTarget(granted, o.amountMinor, o.refundedMinor);
  if (target > row.creditsReclaimed) {
    await reclaim(tx, { userId, amount: target - row.creditsReclaimed, bucket: 'one_time', reason: { code: 'pack_refunded', pack: o.pack }, reference: ref, idempotencyKey: `reclaim:${ref}:${target}` });
    await tx.update(billingPayments).set({ creditsReclaimed: target }).where(eq(billingPayments.id, row.id));
    await reverseReward(tx, { paymentId: row.id, reclaimedShare: target / granted, reference: ref });
    outcome = 'reclaimed';
  }
  return outcome;
}

type LocalSubscription = typeof subscriptions.$inferSelect;

/** The credit-period key of a subscription (decision 029): `<provider>:<provider subscription id>`. */
export const subscriptionRef = (provider: string, providerSubscriptionId: string) => `${provider}:${providerSubscriptionId}`;

/**
 * Whether a subscription counts as the user's live one: not refused as a duplicate, not ended, and
 * not a first payment that never went through (`incomplete` without any credited period). A live
 * subscription stands in the way of a new checkout and makes a newly created one a duplicate.
 */
export function isLiveSubscription(row: LocalSubscription): boolean {
  if (row.refusedAt) return false;
  if (row.status === 'expired' || row.status === 'incomplete_expired') return false;
  return !(row.status === 'incomplete' && !row.creditedPlan);
}

/**
 * The subscription that is the user's current one among `rows`: a live one first (the newest of
 * them), else the newest not refused; null when there is none. An older subscription ending never
 * hides a live one, whichever was created first (decision 029).
 */
export function pickCurrentSubscription(rows: LocalSubscription[]): LocalSubscription | null {
  const mine = rows.filter((r) => !r.refusedAt);
  const newestFirst = (a: LocalSubscription, b: LocalSubscription) => b.providerCreatedAt.getTime() - a.providerCreatedAt.getTime() || b.id - a.id;
  return mine.filter(isLiveSubscription).sort(newestFirst)[0] ?? mine.sort(newestFirst)[0] ?? null;
}

/**
 * Marks `row` refused when the user already has another live subscription (decision 029): a row never
 * credited, live itself, while another live one was credited already or recorded first. Runs under the
 * user's row lock (webhooks and plan changes take it), so two subscriptions arriving together are
 * decided one after the other: the first recorded stays, the other is refused.
 */
async function refuseIfDuplicate(tx: Tx, userId: number, row: LocalSubscription): Promise<LocalSubscription> {
  if (row.refusedAt || row.creditedPlan || !isLiveSubscription(row)) return row;
  const others = await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId));
  const blocking = others.find((o) => o.id !== row.id && isLiveSubscription(o) && (o.creditedPlan !== null || o.id < row.id));
  if (!blocking) return row;
  return (await tx.update(subscriptions).set({ refusedAt: new Date(), updatedAt: new Date() }).where(eq(subscriptions.id, row.id)).returning())[0]!;
}

/**
 * Writes the provider's view of a subscription into `subscriptions` and the user's plan fields, and
 * expires subscription credits when it has ended. Guards against stale snapshots: an ended
 * subscription stays ended, and a period never moves backwards.
 */
export async function syncSubscription(tx: Tx, provider: string, userId: number, s: ProviderSubscription): Promise<LocalSubscription> {
  const existing = (
    await tx.select().from(subscriptions).where(and(eq(subscriptions.provider, provider), eq(subscriptions.providerSubscriptionId, s.id))).for('update')
  )[0];
  const stale = existing && (existing.status === 'expired' || s.currentPeriodStart.getTime() < existing.currentPeriodStart.getTime());
  const now = new Date();
  let row: LocalSubscription;
  if (!existing) {
    row = (
      await tx
        .insert(subscriptions)
        .values({
          userId, provider, providerSubscriptionId: s.id, plan: s.plan, nextPlan: s.nextPlan, status: s.status,
          currentPeriodStart: s.currentPeriodStart, currentPeriodEnd: s.currentPeriodEnd, cancelAtPeriodEnd: s.cancelAtPeriodEnd,
          cancelledAt: s.cancelAtPeriodEnd ? now : null, endedAt: s.endedAt, providerCreatedAt: s.createdAt, currency: s.currency,
        })
        .returning()
    )[0]!;
  } else if (stale) {
    row = existing;
  } else {
    row = (
      await tx
        .update(subscriptions)
        .set({
          plan: s.plan, nextPlan: s.nextPlan, status: s.status, currentPeriodStart: s.currentPeriodStart, currentPeriodEnd: s.currentPeriodEnd,
          cancelAtPeriodEnd: s.cancelAtPeriodEnd, cancelledAt: s.cancelAtPeriodEnd ? (existing.cancelledAt ?? now) : null, endedAt: s.endedAt, updatedAt: now,
        })
        .where(eq(subscriptions.id, existing.id))
        .returning()
    )[0]!;
  }
  row = await refuseIfDuplicate(tx, userId, row);
  await syncUserPlan(tx, provider, userId, row);
  return row;
}

/** The plan a subscription gives now: the plan whose credits this period carries (decision 012). */
export function effectivePlan(row: LocalSubscription): PaidPlan | null {
  if (row.status === 'expired') return null;
  return row.creditedPlan;
}

/** Plan applying from the next cycle: the provider's schedule, or (LS) a lower plan already set on it. */
export function upcomingPlan(row: LocalSubscription): PaidPlan | null {
  if (row.status === 'expired') return null;
  if (row.nextPlan && row.nextPlan !== row.creditedPlan) return row.nextPlan;
  if (row.creditedPlan && planRank(row.plan) < planRank(row.creditedPlan)) return row.plan;
  return null;
}

/**
 * Expires an ended subscription's credit periods (only its own: decision 029) and copies the user's
 * current subscription (pickCurrentSubscription: a live one before any ended one) onto the user row
 * (spec 000 §3 / 001 §3 fields).
 */
async function syncUserPlan(tx: Tx, provider: string, userId: number, row: LocalSubscription) {
  if (row.status === 'expired') {
    const ref = subscriptionRef(provider, row.providerSubscriptionId);
    await expireSubscriptionPeriods(tx, { userId, subscription: ref, reason: { code: 'subscription_ended' }, reference: `${provider}:subscription:${row.providerSubscriptionId}`, idempotencyKey: `expire:${provider}:subscription:${row.providerSubscriptionId}:end` });
  }
  const current = pickCurrentSubscription(await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId)));
  if (!current) return;
  if (current.status === 'expired') {
    await tx
      .update(users)
      .set({ plan: 'free', nextRenewalDate: null, subscriptionEndDate: current.endedAt ?? new Date(), cancelledAt: current.cancelledAt ?? current.endedAt ?? new Date(), subscriptionId: current.providerSubscriptionId, updatedAt: new Date() })
      .where(eq(users.id, userId));
    announceUserChanged(userId);
    return;
  }
  await tx
    .update(users)
    .set({
      plan: effectivePlan(current) ?? 'free',
      subscriptionId: current.providerSubscriptionId,
      cancelledAt: current.cancelAtPeriodEnd ? current.cancelledAt : null,
      subscriptionEndDate: current.cancelAtPeriodEnd ? current.currentPeriodEnd : null,
      // While a renewal payment is failing there is no renewal date to promise (001 §4: past_due → overdue, decision 030).
      nextRenewalDate: current.cancelAtPeriodEnd || isPaymentIssueStatus(current.status as SubscriptionStatus) ? null : current.currentPeriodEnd,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
  announceUserChanged(userId); // the session answer shows the plan (decision 026)
}

/** A paid invoice of a refused duplicate subscription: recorded for support, never granted (decision 029). */
async function recordRefusedInvoice(tx: Tx, provider: string, ev: WebhookEvent, userId: number, inv: ProviderInvoice) {
  await upsertPayment(tx, {
    userId, provider, kind: 'invoice', providerId: inv.id, item: inv.plan, reason: `duplicate:${inv.reason}`, status: inv.status,
    providerSubscriptionId: inv.subscriptionId, amountMinor: inv.amountMinor, refundedMinor: inv.refundedMinor, ...detailsOf(inv), bucket: 'subscription', checkoutId: ev.checkoutId,
  });
}

/**
 * Credits an upgrade grants (decision 028): `planDifference` (credits) × `fraction` of the period the
 * provider charged for, rounded to the nearest credit; 0 when that rounds to nothing.
 */
export function proratedCredits(planDifference: number, fraction: number): number {
  if (planDifference <= 0) return 0;
  return Math.round(planDifference * Math.min(1, Math.max(0, fraction)));
}

async function applyInvoice(tx: Tx, provider: string, ev: WebhookEvent, userId: number, inv: ProviderInvoice, local: LocalSubscription, prices: PriceTable): Promise<WebhookOutcome> {
  const row = await upsertPayment(tx, {
    userId, provider, kind: 'invoice', providerId: inv.id, item: inv.plan, reason: inv.reason, status: inv.status,
    providerSubscriptionId: inv.subscriptionId, amountMinor: inv.amountMinor, refundedMinor: inv.refundedMinor, ...detailsOf(inv), bucket: 'subscription', checkoutId: ev.checkoutId,
  });
  const ref = `${provider}:invoice:${inv.id}`;
  let outcome: WebhookOutcome = 'nothing';
  let granted = row.creditsGranted;
  const paid = inv.status === 'paid';
  const alreadyDecided = granted > 0 || row.reason.startsWith('stale');
  if (paid && !alreadyDecided) {
    if (inv.reason === 'upgrade') {
      if (!local.creditedPlan) {
        // The period's own invoice has not been applied yet: let the provider retry this one later.
        throw new RetryLaterError(`upgrade invoice ${inv.id} before the period's first invoice`);
      }
      const diff = planCredits(inv.plan) - planCredits(local.creditedPlan);
      if (diff > 0 && local.status !== 'expired') {
        // Credits follow what was paid: the difference times the share of the period the provider
        // charged it for (decision 028), so an upgrade late in the period cannot buy a month's credits.
        const credits = proratedCredits(diff, chargedFraction(inv, local.creditedPlan, inv.plan, prices));
        if (credits > 0) {
          granted = credits;
          const period = { subscription: subscriptionRef(provider, local.providerSubscriptionId), start: local.creditedPeriodStart ?? inv.periodStart };
          await grant(tx, { userId, amount: credits, bucket: 'subscription', reason: { code: 'plan_upgrade', from: local.creditedPlan, to: inv.plan }, reference: ref, idempotencyKey: `pay:${ref}`, period });
          outcome = 'granted';
        } else {
          outcome = 'prorated_to_zero';
        }
        await tx.update(subscriptions).set({ creditedPlan: inv.plan }).where(eq(subscriptions.id, local.id));
      }
    } else if (local.creditedPeriodStart && inv.periodStart.getTime() < local.creditedPeriodStart.getTime()) {
      // An older period's invoice arriving after a newer one: its credits would already have expired.
      await tx.update(billingPayments).set({ reason: `stale:${inv.reason}` }).where(eq(billingPayments.id, row.id));
      outcome = 'stale';
    } else if (local.status !== 'expired') {
      // Only this subscription's earlier periods expire; another subscription's credits stay (decision 029).
      const subscription = subscriptionRef(provider, local.providerSubscriptionId);
      await expireSubscriptionPeriods(tx, { userId, subscription, before: inv.periodStart, reason: { code: 'period_expired' }, reference: ref, idempotencyKey: `expire:${ref}` });
      granted = planCredits(inv.plan);
      await grant(tx, { userId, amount: granted, bucket: 'subscription', reason: { code: 'plan_period', invoice: inv.reason, plan: inv.plan }, reference: ref, idempotencyKey: `pay:${ref}`, period: { subscription, start: inv.periodStart } });
      await tx
        .update(subscriptions)
        .set({ creditedPeriodStart: inv.periodStart, creditedPlan: inv.plan, nextPlan: local.nextPlan === inv.plan ? null : local.nextPlan })
        .where(eq(subscriptions.id, local.id));
      if (inv.reason === 'initial') await completeCheckout(tx, ev.checkoutId, userId, granted, { kind: 'plan', item: inv.plan });
      outcome = 'granted';
    }
    if (granted > 0) {
      await tx.update(billingPayments).set({ creditsGranted: granted }).where(eq(billingPayments.id, row.id));
      await rewardReferral(tx, { referredId: userId, paymentId: row.id, creditsGranted: granted, reference: ref });
    }
    const fresh = (await tx.select().from(subscriptions).where(eq(subscriptions.id, local.id)))[0]!;
    await syncUserPlan(tx, provider, userId, fresh);
  }
  const target = reclaimTarget(granted, inv.amountMinor, inv.refundedMinor);
  if (target > row.creditsReclaimed) {
    await reclaim(tx, { userId, amount: target - row.creditsReclaimed, bucket: 'subscription', reason: { code: 'invoice_refunded', invoice: inv.reason }, reference: ref, idempotencyKey: `reclaim:${ref}:${target}`, subscription: subscriptionRef(provider, inv.subscriptionId) });
    await tx.update(billingPayments).set({ creditsReclaimed: target }).where(eq(billingPayments.id, row.id));
    await reverseReward(tx, { paymentId: row.id, reclaimedShare: target / granted, reference: ref });
    outcome = 'reclaimed';
  }
  return outcome;
}

/** Maps webhook failures to the HTTP answer the provider sees. */
export function webhookErrorOf(err: unknown): AppError {
  if (err instanceof WebhookSignatureError) return new AppError('WEBHOOK_SIGNATURE_INVALID', { message: err.message });
  if (err instanceof RetryLaterError) return new AppError('PAYMENT_PROVIDER_ERROR', { message: err.message });
  if (err instanceof PaymentProviderError) return new AppError(err.status === 400 ? 'VALIDATION_FAILED' : 'PAYMENT_PROVIDER_ERROR', { message: err.message });
  if (err instanceof AppError) return err;
  return new AppError('INTERNAL', { cause: err });
}

/** Sum of the credits all payments of a user granted minus what refunds took back (audit helper). */
export async function paidCreditsOf(tx: Tx, userId: number): Promise<number> {
  const r = await tx.select({ n: sql<string>`coalesce(sum(${billingPayments.creditsGranted} - ${billingPayments.creditsReclaimed}), 0)` }).from(billingPayments).where(eq(billingPayments.userId, userId));
  return Number(r[0]?.n ?? 0);
}
