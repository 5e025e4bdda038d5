import { PAYMENT_ISSUE_STATUSES, type SubscriptionStatusResponse, type User } from '@dewy/contracts';
import { describe, expect, it } from 'vitest';
import {
  canCancelSubscription,
  canResumeSubscription,
  canWithdrawDowngrade,
  hasPaymentIssue,
  subscriptionTone,
  hasLiveSubscription,
  isCancelScheduled,
  isSubscriptionEnded,
  subscriptionDate,
  subscriptionDisplayState,
  subscriptionSnapshot,
  type SubscriptionSnapshot,
} from './subscription-state';

const NOW = new Date('2026-11-23T12:00:00Z');
const FUTURE = '2026-12-23T12:00:00Z';
const PAST = '2026-11-01T12:00:00Z';

function testUser(over: Partial<User> = {}): User {
  return {
    id: 7,
    email: 'a@example.com',
    nickname: 'A',
    plan: 'free',
    credits: 300,
    balance: 300,
    one_time_credits: 0,
    subscription_credits: 0,
    bonus_credits: 300,
    credit_debt: 0,
    cancelled_at: null,
    subscription_end_date: null,
    next_renewal_date: null,
    subscriptionId: null,
    isAdmin: false,
    ...over,
  };
}

function snap(over: Partial<SubscriptionSnapshot> = {}): SubscriptionSnapshot {
  return {
    plan: 'basic',
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

describe('subscription snapshot', () => {
  it('is null without a user and falls back to the session user before the status loads', () => {
    expect(subscriptionSnapshot(null, undefined)).toBeNull();
    const s = subscriptionSnapshot(testUser({ plan: 'deluxe', subscriptionId: 'sub_9', next_renewal_date: FUTURE }), undefined);
    expect(s).toMatchObject({ plan: 'deluxe', subscriptionId: 'sub_9', hasSubscription: null, providerStatus: null });
  });

  it("prefers the server's subscription status", () => {
    const status: SubscriptionStatusResponse = {
      success: true,
      hasSubscription: true,
      plan: 'premium',
      credits: 100,
      nextPlan: 'basic',
      subscription: {
        data: {
          attributes: { status: 'active', created_at: PAST, renews_at: FUTURE, ends_at: null, urls: { update_payment_method: null }, currency: 'usd' },
          scheduled_change: { action: 'cancel', effective_at: FUTURE },
        },
      },
      user: { plan: 'premium', cancelled_at: null, subscription_end_date: null, next_renewal_date: FUTURE, subscriptionId: 'sub_2' },
      provider: { name: 'sandbox', configured: true },
    };
    const s = subscriptionSnapshot(testUser({ plan: 'basic' }), status);
    expect(s).toMatchObject({ plan: 'premium', subscriptionId: 'sub_2', hasSubscription: true, nextPlan: 'basic', providerCancelScheduled: true, renewsAt: FUTURE });
  });
});

describe('subscription display state (001 §4, first match wins)', () => {
  it('free shows none, whatever else is set', () => {
    expect(subscriptionDisplayState(snap({ plan: 'free', cancelled_at: PAST, subscription_end_date: FUTURE }), NOW)).toBe('none');
    expect(subscriptionDisplayState(null, NOW)).toBe('none');
  });
  it('cancelled_at with a future end date is a scheduled cancellation, else expired (before the renewal date)', () => {
    expect(subscriptionDisplayState(snap({ cancelled_at: PAST, subscription_end_date: FUTURE }), NOW)).toBe('cancel_scheduled');
    expect(subscriptionDisplayState(snap({ cancelled_at: PAST, subscription_end_date: PAST }), NOW)).toBe('expired');
    expect(subscriptionDisplayState(snap({ cancelled_at: PAST, subscription_end_date: null }), NOW)).toBe('expired');
  });
  it('a next renewal date means active, before the provider status', () => {
    expect(subscriptionDisplayState(snap({ providerStatus: 'past_due' }), NOW)).toBe('active');
  });
  it('otherwise the provider status maps', () => {
    for (const s of ['active', 'past_due', 'paused', 'trialing', 'incomplete', 'incomplete_expired', 'unpaid'] as const) {
      expect(subscriptionDisplayState(snap({ next_renewal_date: null, providerStatus: s }), NOW)).toBe(s);
    }
    expect(subscriptionDisplayState(snap({ next_renewal_date: null, providerStatus: 'cancelled', endsAt: FUTURE }), NOW)).toBe('cancel_scheduled');
    expect(subscriptionDisplayState(snap({ next_renewal_date: null, providerStatus: 'cancelled', endsAt: PAST }), NOW)).toBe('expired');
    expect(subscriptionDisplayState(snap({ next_renewal_date: null, providerStatus: 'expired' }), NOW)).toBe('expired');
    expect(subscriptionDisplayState(snap({ next_renewal_date: null, providerStatus: null }), NOW)).toBe('unknown');
  });
});

describe('payment issue and downgrade withdraw (decision 030)', () => {
  it('the banner states come from the contracts list: past due, unpaid, incomplete', () => {
    for (const st of ['past_due', 'unpaid', 'incomplete'] as const) expect(hasPaymentIssue(st)).toBe(true);
    for (const st of ['active', 'trialing', 'paused', 'incomplete_expired', 'expired', 'cancel_scheduled', 'none', 'unknown'] as const) expect(hasPaymentIssue(st)).toBe(false);
  });
  it('the badge tone follows the same contracts list: no status list of the page’s own', () => {
    for (const st of PAYMENT_ISSUE_STATUSES) expect(subscriptionTone(st)).toBe('warn');
    expect(subscriptionTone('cancel_scheduled')).toBe('warn');
    for (const st of ['expired', 'incomplete_expired', 'paused', 'unknown'] as const) expect(subscriptionTone(st)).toBe('muted');
    for (const st of ['active', 'trialing', 'none'] as const) expect(subscriptionTone(st)).toBe('ok');
  });
  it('a past-due subscription (no next renewal date from the server) reads past_due, not active', () => {
    expect(subscriptionDisplayState(snap({ next_renewal_date: null, renewsAt: null, providerStatus: 'past_due' }), NOW)).toBe('past_due');
  });
  it('the update-payment link comes from the subscription status', () => {
    const status = {
      success: true as const, hasSubscription: true, plan: 'basic' as const, credits: 0, nextPlan: null,
      subscription: { data: { attributes: { status: 'past_due' as const, created_at: PAST, renews_at: null, ends_at: null, urls: { update_payment_method: 'https://pay.example/fix' }, currency: 'usd' as const }, scheduled_change: null } },
      user: { plan: 'basic' as const, cancelled_at: null, subscription_end_date: null, next_renewal_date: null, subscriptionId: 'sub_3' },
      provider: { name: 'sandbox', configured: true },
    };
    expect(subscriptionSnapshot(testUser({ plan: 'basic' }), status)).toMatchObject({ providerStatus: 'past_due', updatePaymentUrl: 'https://pay.example/fix' });
  });
  it('withdraw is offered while a downgrade is scheduled, not while a cancellation is', () => {
    expect(canWithdrawDowngrade(snap({ nextPlan: 'basic' }), 'active')).toBe(true);
    expect(canWithdrawDowngrade(snap(), 'active')).toBe(false);
    expect(canWithdrawDowngrade(snap({ nextPlan: 'basic' }), 'cancel_scheduled')).toBe(false);
    expect(canWithdrawDowngrade(null, 'none')).toBe(false);
  });
});

describe('cancel and resume controls', () => {
  it('Cancel only for a non-free plan with a subscriptionId and no cancellation', () => {
    expect(canCancelSubscription(snap())).toBe(true);
    expect(canCancelSubscription(snap({ plan: 'free' }))).toBe(false);
    expect(canCancelSubscription(snap({ subscriptionId: null }))).toBe(false);
    expect(canCancelSubscription(snap({ cancelled_at: PAST, subscription_end_date: FUTURE }))).toBe(false);
    expect(canCancelSubscription(null)).toBe(false);
  });
  it('Resume only while a cancellation is scheduled', () => {
    expect(canResumeSubscription('cancel_scheduled')).toBe(true);
    expect(canResumeSubscription('expired')).toBe(false);
    expect(canResumeSubscription('active')).toBe(false);
  });
});

describe('scheduled, ended and live', () => {
  it('tells a scheduled cancellation from an ended subscription', () => {
    const scheduled = snap({ cancelled_at: PAST, subscription_end_date: FUTURE });
    const ended = snap({ cancelled_at: PAST, subscription_end_date: PAST });
    expect([isCancelScheduled(scheduled, NOW), isSubscriptionEnded(scheduled, NOW), hasLiveSubscription(scheduled, NOW)]).toEqual([true, false, true]);
    expect([isCancelScheduled(ended, NOW), isSubscriptionEnded(ended, NOW), hasLiveSubscription(ended, NOW)]).toEqual([false, true, false]);
  });
  it('free or no subscription on the server is not live', () => {
    expect(hasLiveSubscription(snap({ plan: 'free' }), NOW)).toBe(false);
    expect(hasLiveSubscription(snap({ hasSubscription: false }), NOW)).toBe(false);
    expect(hasLiveSubscription(snap({ hasSubscription: null }), NOW)).toBe(true);
    expect(hasLiveSubscription(snap({ providerStatus: 'expired' }), NOW)).toBe(false);
  });
});

describe('the date line', () => {
  it('shows the end date when cancelled or expired, else the next renewal', () => {
    expect(subscriptionDate(snap({ cancelled_at: PAST, subscription_end_date: FUTURE }), 'cancel_scheduled')).toEqual({ kind: 'ends', iso: FUTURE });
    expect(subscriptionDate(snap({ cancelled_at: PAST, subscription_end_date: PAST }), 'expired')).toEqual({ kind: 'ended', iso: PAST });
    expect(subscriptionDate(snap(), 'active')).toEqual({ kind: 'renews', iso: FUTURE });
    expect(subscriptionDate(snap({ next_renewal_date: null, renewsAt: null }), 'active')).toBeNull();
    expect(subscriptionDate(snap(), 'none')).toBeNull();
  });
});
