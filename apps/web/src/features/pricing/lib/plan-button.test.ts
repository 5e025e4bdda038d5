import { describe, expect, it } from 'vitest';
import type { SubscriptionSnapshot } from '../../../shared/subscription/lib/subscription-state';
import { currentPaidPlan, isBuyingState, planButtonState } from './plan-button';

const NOW = new Date('2026-11-23T12:00:00Z');
const FUTURE = '2026-12-23T12:00:00Z';
const PAST = '2026-11-01T12:00:00Z';

function snap(over: Partial<SubscriptionSnapshot> = {}): SubscriptionSnapshot {
  return {
    plan: 'deluxe',
    cancelled_at: null,
    subscription_end_date: null,
    next_renewal_date: FUTURE,
    subscriptionId: 'sub_1',
    hasSubscription: true,
    nextPlan: null,
    providerStatus: 'active',
    providerCancelScheduled: false,
    renewsAt: FUTURE,
    endsAt: null,
    updatePaymentUrl: null,
    ...over,
  };
}

const free = snap({ plan: 'free', subscriptionId: null, next_renewal_date: null, hasSubscription: false, providerStatus: null });

describe('plan button states (000 §4)', () => {
  it('no user: Get Started on every plan', () => {
    for (const p of ['basic', 'deluxe', 'premium'] as const) expect(planButtonState(p, null, NOW)).toEqual({ kind: 'get-started' });
  });

  it('free or no plan: a new checkout', () => {
    expect(planButtonState('basic', free, NOW)).toEqual({ kind: 'checkout' });
    expect(planButtonState('premium', free, NOW)).toEqual({ kind: 'checkout' });
  });

  it('the current plan: Active (disabled)', () => {
    expect(planButtonState('deluxe', snap(), NOW)).toEqual({ kind: 'active' });
  });

  it('another plan while subscribed: upgrade above, downgrade below (basic < deluxe < premium)', () => {
    expect(planButtonState('premium', snap(), NOW)).toEqual({ kind: 'change', direction: 'upgrade' });
    expect(planButtonState('basic', snap(), NOW)).toEqual({ kind: 'change', direction: 'downgrade' });
    expect(planButtonState('deluxe', snap({ plan: 'basic' }), NOW)).toEqual({ kind: 'change', direction: 'upgrade' });
    expect(planButtonState('deluxe', snap({ plan: 'premium' }), NOW)).toEqual({ kind: 'change', direction: 'downgrade' });
  });

  it('a cancellation scheduled with the end date ahead: every plan says cancelled (disabled)', () => {
    const cancelled = snap({ cancelled_at: PAST, subscription_end_date: FUTURE });
    for (const p of ['basic', 'deluxe', 'premium'] as const) expect(planButtonState(p, cancelled, NOW)).toEqual({ kind: 'cancelled' });
  });

  it('a cancelled subscription whose end date has passed: a new checkout', () => {
    const ended = snap({ cancelled_at: PAST, subscription_end_date: PAST });
    for (const p of ['basic', 'deluxe', 'premium'] as const) expect(planButtonState(p, ended, NOW)).toEqual({ kind: 'checkout' });
  });

  it('a paid plan the server says has no subscription: a new checkout', () => {
    expect(planButtonState('basic', snap({ hasSubscription: false }), NOW)).toEqual({ kind: 'checkout' });
  });

  it('the target of a scheduled downgrade is marked scheduled', () => {
    expect(planButtonState('basic', snap({ nextPlan: 'basic' }), NOW)).toEqual({ kind: 'scheduled' });
    expect(planButtonState('premium', snap({ nextPlan: 'basic' }), NOW)).toEqual({ kind: 'change', direction: 'upgrade' });
  });

  it('only checkout and change need payments', () => {
    expect(isBuyingState({ kind: 'checkout' })).toBe(true);
    expect(isBuyingState({ kind: 'change', direction: 'upgrade' })).toBe(true);
    expect(isBuyingState({ kind: 'active' })).toBe(false);
    expect(isBuyingState({ kind: 'get-started' })).toBe(false);
  });
});

describe('current plan mark', () => {
  it('is the running paid plan, scheduled cancellation included', () => {
    expect(currentPaidPlan(snap(), NOW)).toBe('deluxe');
    expect(currentPaidPlan(snap({ cancelled_at: PAST, subscription_end_date: FUTURE }), NOW)).toBe('deluxe');
    expect(currentPaidPlan(snap({ cancelled_at: PAST, subscription_end_date: PAST }), NOW)).toBeNull();
    expect(currentPaidPlan(free, NOW)).toBeNull();
    expect(currentPaidPlan(null, NOW)).toBeNull();
  });
});
