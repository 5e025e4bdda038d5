import { and, desc, eq, sql } from 'drizzle-orm';
import { packCredits, planCredits, planRank, type PaidPlan } from '@dewy/contracts';
import type { Tx } from '../../db/client';
import { billingCheckouts, billingEvents, billingPayments, subscriptions, users } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { expireBucket, grant, reclaim } from '../credits/credits.service';
import { reverseReward, rewardReferral } from '../affiliate/affiliate.service';
import { forgetUser } from '../auth/session-cache';
import type { AppServices } from '../../context';
import {
  chargedFraction,
  PaymentProviderError,
  WebhookSignatureError,
  type PaymentsProvider,
  type ProviderInvoice,
  type ProviderOrder,
  type ProviderSubscription,
  type WebhookEvent,
} from './payments-provider';

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
 */

export type WebhookOutcome =
  | 'duplicate'
  | 'ignored'
  | 'unmatched'
  | 'granted'
  | 'reclaimed'
  | 'synced'
  | 'stale'
  | 'prorated_to_zero'
  | 'nothing';

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
  services: Pick<AppServices, 'database' | 'log'>,
  provider: PaymentsProvider,
  raw: Buffer,
  headers: Record<string, string | string[] | undefined>,
): Promise<{ outcome: WebhookOutcome; eventKey: string }> {
  const ev = await provider.parseWebhook(raw, headers);
  const db = services.database.db;
  const seen = await db.select({ id: billingEvents.id }).from(billingEvents).where(and(eq(billingEvents.provider, provider.name), eq(billingEvents.eventKey, ev.key)));
  if (seen.length) return { outcome: 'duplicate', eventKey: ev.key };
  const snap = await readSnapshot(provider, ev);
  const outcome = await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(billingEvents)
      .values({ provider: provider.name, eventKey: ev.key, type: ev.type, objectKind: ev.object?.kind ?? null, objectId: ev.object?.id ?? null, outcome: 'pending' })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id });
    if (!inserted[0]) return 'duplicate' as const;
    const result = await applySnapshot(tx, provider.name, ev, snap);
    await tx.update(billingEvents).set({ outcome: result }).where(eq(billingEvents.id, inserted[0].id));
    return result;
  });
  services.log.info({ provider: provider.name, eventKey: ev.key, type: ev.type, object: ev.object, outcome }, 'payment webhook applied');
  return { outcome, eventKey: ev.key };
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

async function applySnapshot(tx: Tx, provider: string, ev: WebhookEvent, snap: Snapshot): Promise<WebhookOutcome> {
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
  if (snap.kind === 'subscription') return 'synced';
  return applyInvoice(tx, provider, ev, userId, snap.invoice, local);
}

/** Share of `credits` a refund of `refundedCents` out of `amountCents` takes back (a full refund: all of it). */
function reclaimTarget(credits: number, amountCents: number, refundedCents: number): number {
  if (credits <= 0 || refundedCents <= 0) return 0;
  if (amountCents <= 0 || refundedCents >= amountCents) return credits;
  return Math.floor((credits * refundedCents) / amountCents);
}

async function upsertPayment(tx: Tx, v: typeof billingPayments.$inferInsert) {
  const rows = await tx
    .insert(billingPayments)
    .values(v)
    .onConflictDoUpdate({
      target: [billingPayments.provider, billingPayments.kind, billingPayments.providerId],
      set: { status: v.status, refundedCents: v.refundedCents, amountCents: v.amountCents, updatedAt: new Date() },
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
    amountCents: o.amountCents, refundedCents: o.refundedCents, bucket: 'one_time', checkoutId: ev.checkoutId,
  });
  const ref = `${provider}:order:${o.id}`;
  let outcome: WebhookOutcome = 'nothing';
  let granted = row.creditsGranted;
  // Only a paid order grants; an order first seen already refunded never granted, so takes nothing back.
  if (o.status === 'paid' && granted === 0) {
    granted = packCredits(o.pack);
    await grant(tx, { userId, amount: granted, bucket: 'one_time', reason: `pack ${o.pack}`, reference: ref, idempotencyKey: `pay:${ref}` });
    await tx.update(billingPayments).set({ creditsGranted: granted }).where(eq(billingPayments.id, row.id));
    await completeCheckout(tx, row.checkoutId ?? ev.checkoutId, userId, granted, { kind: 'pack', item: o.pack });
    await rewardReferral(tx, { referredId: userId, paymentId: row.id, creditsGranted: granted, reference: ref });
    outcome = 'granted';
  }
  if (o.status === 'failed' && ev.checkoutId) {
    await tx.update(billingCheckouts).set({ status: 'failed' }).where(and(eq(billingCheckouts.id, ev.checkoutId), eq(billingCheckouts.status, 'pending')));
  }
  const target = reclaimTarget(granted, o.amountCents, o.refundedCents);
  if (target > row.creditsReclaimed) {
    await reclaim(tx, { userId, amount: target - row.creditsReclaimed, bucket: 'one_time', reason: `refund of pack ${o.pack}`, reference: ref, idempotencyKey: `reclaim:${ref}:${target}` });
    await tx.update(billingPayments).set({ creditsReclaimed: target }).where(eq(billingPayments.id, row.id));
    await reverseReward(tx, { paymentId: row.id, reclaimedShare: target / granted, reference: ref });
    outcome = 'reclaimed';
  }
  return outcome;
}

type LocalSubscription = typeof subscriptions.$inferSelect;

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
          cancelledAt: s.cancelAtPeriodEnd ? now : null, endedAt: s.endedAt, providerCreatedAt: s.createdAt,
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

/** Copies the user's current subscription onto the user row (spec 000 §3 / 001 §3 fields). */
async function syncUserPlan(tx: Tx, provider: string, userId: number, row: LocalSubscription) {
  // The user's current subscription is the newest one; an older one ending must not reset a newer one.
  const newest = (
    await tx.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(desc(subscriptions.providerCreatedAt), desc(subscriptions.id)).limit(1)
  )[0];
  if (row.status === 'expired') {
    await expireBucket(tx, { userId, bucket: 'subscription', reason: 'subscription ended', reference: `${provider}:subscription:${row.providerSubscriptionId}`, idempotencyKey: `expire:${provider}:subscription:${row.providerSubscriptionId}:end` });
  }
  if (newest && newest.id !== row.id) return;
  if (row.status === 'expired') {
    await tx
      .update(users)
      .set({ plan: 'free', nextRenewalDate: null, subscriptionEndDate: row.endedAt ?? new Date(), cancelledAt: row.cancelledAt ?? row.endedAt ?? new Date(), subscriptionId: row.providerSubscriptionId, updatedAt: new Date() })
      .where(eq(users.id, userId));
    forgetUser(userId);
    return;
  }
  await tx
    .update(users)
    .set({
      plan: effectivePlan(row) ?? 'free',
      subscriptionId: row.providerSubscriptionId,
      cancelledAt: row.cancelAtPeriodEnd ? row.cancelledAt : null,
      subscriptionEndDate: row.cancelAtPeriodEnd ? row.currentPeriodEnd : null,
      nextRenewalDate: row.cancelAtPeriodEnd ? null : row.currentPeriodEnd,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
  forgetUser(userId); // the session answer shows the plan (decision 026)
}

/**
 * Credits an upgrade grants (decision 028): `planDifference` (credits) × `fraction` of the period the
 * provider charged for, rounded to the nearest credit; 0 when that rounds to nothing.
 */
export function proratedCredits(planDifference: number, fraction: number): number {
  if (planDifference <= 0) return 0;
  return Math.round(planDifference * Math.min(1, Math.max(0, fraction)));
}

async function applyInvoice(tx: Tx, provider: string, ev: WebhookEvent, userId: number, inv: ProviderInvoice, local: LocalSubscription): Promise<WebhookOutcome> {
  const row = await upsertPayment(tx, {
    userId, provider, kind: 'invoice', providerId: inv.id, item: inv.plan, reason: inv.reason, status: inv.status,
    providerSubscriptionId: inv.subscriptionId, amountCents: inv.amountCents, refundedCents: inv.refundedCents, bucket: 'subscription', checkoutId: ev.checkoutId,
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
        const credits = proratedCredits(diff, chargedFraction(inv, local.creditedPlan, inv.plan));
        if (credits > 0) {
          granted = credits;
          await grant(tx, { userId, amount: credits, bucket: 'subscription', reason: `upgrade ${local.creditedPlan}→${inv.plan}`, reference: ref, idempotencyKey: `pay:${ref}` });
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
      if (local.creditedPeriodStart) {
        await expireBucket(tx, { userId, bucket: 'subscription', reason: 'new subscription period', reference: ref, idempotencyKey: `expire:${ref}` });
      }
      granted = planCredits(inv.plan);
      await grant(tx, { userId, amount: granted, bucket: 'subscription', reason: `${inv.reason} ${inv.plan}`, reference: ref, idempotencyKey: `pay:${ref}` });
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
  const target = reclaimTarget(granted, inv.amountCents, inv.refundedCents);
  if (target > row.creditsReclaimed) {
    await reclaim(tx, { userId, amount: target - row.creditsReclaimed, bucket: 'subscription', reason: `refund of ${inv.reason} invoice`, reference: ref, idempotencyKey: `reclaim:${ref}:${target}` });
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
