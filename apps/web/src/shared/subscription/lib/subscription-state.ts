import { isPaymentIssueStatus, type PaidPlan, type Plan, type SubscriptionStatus, type SubscriptionStatusResponse, type User } from '@dewy/contracts';

/**
 * What the page knows of the caller's subscription: the subscription-status answer when it has one
 * (the server's latest word), else the session user's fields (spec 000 §3, 001 §3). Pure, so the
 * pricing buttons and the subscription block agree and can be unit-tested.
 */
export interface SubscriptionSnapshot {
  plan: Plan;
  cancelled_at: string | null;
  subscription_end_date: string | null;
  next_renewal_date: string | null;
  subscriptionId: string | null;
  /** From subscription-status; null while only the session user is known. */
  hasSubscription: boolean | null;
  /** Plan that applies from the next cycle (a scheduled downgrade). */
  nextPlan: PaidPlan | null;
  /** The provider's status (001 §4 list 4), when known. */
  providerStatus: SubscriptionStatus | null;
  /** The provider has a cancellation scheduled (`scheduled_change.action === 'cancel'`, 000 §3). */
  providerCancelScheduled: boolean;
  renewsAt: string | null;
  endsAt: string | null;
  /** Where a failed payment is fixed (the provider's update-payment page), while one failed. */
  updatePaymentUrl: string | null;
}

/** The snapshot from the session user and, when loaded, the subscription status; null without a user. */
export function subscriptionSnapshot(user: User | null, status: SubscriptionStatusResponse | null | undefined): SubscriptionSnapshot | null {
  if (!user) return null;
  const fields = status?.user ?? user;
  const attributes = status?.subscription?.data.attributes ?? null;
  return {
    plan: status?.plan ?? fields.plan,
    cancelled_at: fields.cancelled_at,
    subscription_end_date: fields.subscription_end_date,
    next_renewal_date: fields.next_renewal_date,
    subscriptionId: fields.subscriptionId,
    hasSubscription: status ? status.hasSubscription : null,
    nextPlan: status?.nextPlan ?? null,
    providerStatus: attributes?.status ?? null,
    providerCancelScheduled: status?.subscription?.data.scheduled_change?.action === 'cancel',
    renewsAt: attributes?.renews_at ?? null,
    endsAt: attributes?.ends_at ?? null,
    updatePaymentUrl: attributes?.urls?.update_payment_method ?? null,
  };
}

function isFuture(iso: string | null, now: Date): boolean {
  if (!iso) return false;
  const t = Date.parse(iso);
  return Number.isFinite(t) && t > now.getTime();
}

/** A cancellation is scheduled and the subscription still runs (cancelled_at set, end date in the future). */
export function isCancelScheduled(snap: SubscriptionSnapshot, now: Date): boolean {
  return snap.cancelled_at !== null && isFuture(snap.subscription_end_date, now);
}

/** The subscription was cancelled and its end date has passed (or it is known to have expired). */
export function isSubscriptionEnded(snap: SubscriptionSnapshot, now: Date): boolean {
  if (snap.cancelled_at !== null) return !isFuture(snap.subscription_end_date, now);
  return snap.providerStatus === 'expired';
}

/** The caller holds a paid subscription that still runs (a scheduled cancellation included). */
export function hasLiveSubscription(snap: SubscriptionSnapshot, now: Date): boolean {
  if (snap.plan === 'free' || isSubscriptionEnded(snap, now)) return false;
  return snap.hasSubscription ?? true;
}

/**
 * The states 001 §4 shows: the provider statuses of the contracts' SUBSCRIPTION_STATUSES (declared once
 * there; `cancelled` shows as `cancel_scheduled`), plus `none` (free) and `unknown` when nothing tells
 * (a paid plan without any status).
 */
export type SubscriptionDisplayState = 'none' | 'cancel_scheduled' | 'unknown' | Exclude<SubscriptionStatus, 'cancelled'>;

/** A payment failed and the customer has to act (past due, unpaid, incomplete): the banner shows. */
export function hasPaymentIssue(state: SubscriptionDisplayState): boolean {
  return state !== 'none' && state !== 'cancel_scheduled' && state !== 'unknown' && isPaymentIssueStatus(state);
}

/** How a display state's badge looks: as expected, asking for attention, or with nothing running. */
export type SubscriptionTone = 'ok' | 'warn' | 'muted';

/** Display states with no subscription running (greyed): ended, never started, halted, or not known. */
const HALTED_STATES: readonly SubscriptionDisplayState[] = ['expired', 'incomplete_expired', 'paused', 'unknown'];

/**
 * The badge tone of a display state: a scheduled cancellation or a failed payment (the contracts'
 * PAYMENT_ISSUE_STATUSES, through hasPaymentIssue) asks for attention; the page's style has no list of
 * statuses of its own.
 */
export function subscriptionTone(state: SubscriptionDisplayState): SubscriptionTone {
  if (state === 'cancel_scheduled' || hasPaymentIssue(state)) return 'warn';
  return HALTED_STATES.includes(state) ? 'muted' : 'ok';
}

/** A downgrade is scheduled for the next cycle and can still be withdrawn (not while a cancel is scheduled). */
export function canWithdrawDowngrade(snap: SubscriptionSnapshot | null, state: SubscriptionDisplayState): boolean {
  return snap !== null && snap.nextPlan !== null && state !== 'none' && state !== 'cancel_scheduled' && state !== 'expired';
}

/**
 * The subscription display state of 001 §4, first match wins: free → none; cancelled_at set → scheduled
 * while the end date is in the future, else expired; a next renewal date → active; otherwise the
 * provider's status.
 */
export function subscriptionDisplayState(snap: SubscriptionSnapshot | null, now: Date): SubscriptionDisplayState {
  if (!snap || snap.plan === 'free') return 'none';
  if (snap.cancelled_at !== null) return isFuture(snap.subscription_end_date, now) ? 'cancel_scheduled' : 'expired';
  if (snap.next_renewal_date) return 'active';
  switch (snap.providerStatus) {
    case null:
      return 'unknown';
    case 'cancelled':
      return isFuture(snap.endsAt, now) ? 'cancel_scheduled' : 'expired';
    case 'expired':
      return 'expired';
    default:
      return snap.providerStatus;
  }
}

/** The Cancel control shows only for a non-free plan with a subscriptionId and no cancellation (001 §4). */
export function canCancelSubscription(snap: SubscriptionSnapshot | null): boolean {
  return snap !== null && snap.plan !== 'free' && snap.subscriptionId !== null && snap.cancelled_at === null;
}

/** Resume is offered while a cancellation is scheduled (001 §4/§7). */
export function canResumeSubscription(state: SubscriptionDisplayState): boolean {
  return state === 'cancel_scheduled';
}

/** The date a state's line shows: the end date when cancelled or expired, else the next renewal. */
export function subscriptionDate(snap: SubscriptionSnapshot, state: SubscriptionDisplayState): { kind: 'ends' | 'ended' | 'renews'; iso: string } | null {
  if (state === 'cancel_scheduled') {
    const iso = snap.subscription_end_date ?? snap.endsAt;
    return iso ? { kind: 'ends', iso } : null;
  }
  if (state === 'expired') {
    const iso = snap.subscription_end_date ?? snap.endsAt;
    return iso ? { kind: 'ended', iso } : null;
  }
  if (state === 'none') return null;
  const iso = snap.next_renewal_date ?? snap.renewsAt;
  return iso ? { kind: 'renews', iso } : null;
}
