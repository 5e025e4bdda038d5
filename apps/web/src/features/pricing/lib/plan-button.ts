import { planRank, type PaidPlan } from '@dewy/contracts';
import { hasLiveSubscription, isCancelScheduled, type SubscriptionSnapshot } from '../../../shared/subscription/lib/subscription-state';

/**
 * The state of one plan's button on the pricing page (spec 000 §4 "Plan button states"):
 * - `get-started`: no user (goes to /login);
 * - `active`: the caller's current plan (disabled);
 * - `cancelled`: a cancellation is scheduled and the end date is still ahead (disabled, tooltip: revoke first);
 * - `scheduled`: the plan a scheduled downgrade moves to (disabled: it starts with the next cycle);
 * - `checkout`: free, no plan, or an ended subscription → a new subscription checkout;
 * - `change`: another plan while subscribed → the plan-change confirmation (upgrade or downgrade).
 */
export type PlanButtonState =
  | { kind: 'get-started' }
  | { kind: 'active' }
  | { kind: 'cancelled' }
  | { kind: 'scheduled' }
  | { kind: 'checkout' }
  | { kind: 'change'; direction: 'upgrade' | 'downgrade' };

/**
 * The button state of `target` for the caller described by `snap` (null: signed out) at `now`.
 * A scheduled cancellation wins over "current plan": every plan button then says the subscription is
 * cancelled, since no change is possible until the cancellation is revoked (000 §5; the card still
 * marks the current plan).
 */
export function planButtonState(target: PaidPlan, snap: SubscriptionSnapshot | null, now: Date): PlanButtonState {
  if (!snap) return { kind: 'get-started' };
  if (!hasLiveSubscription(snap, now)) return { kind: 'checkout' };
  if (isCancelScheduled(snap, now)) return { kind: 'cancelled' };
  const current = snap.plan;
  if (current === 'free') return { kind: 'checkout' };
  if (current === target) return { kind: 'active' };
  if (snap.nextPlan === target) return { kind: 'scheduled' };
  return { kind: 'change', direction: planRank(target) > planRank(current) ? 'upgrade' : 'downgrade' };
}

/** The plan the caller is on and which still runs (for the "current plan" mark), else null. */
export function currentPaidPlan(snap: SubscriptionSnapshot | null, now: Date): PaidPlan | null {
  if (!snap || snap.plan === 'free' || !hasLiveSubscription(snap, now)) return null;
  return snap.plan;
}

/** True when a button in this state starts a purchase or a change (and so needs payments switched on). */
export function isBuyingState(state: PlanButtonState): boolean {
  return state.kind === 'checkout' || state.kind === 'change';
}
