import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/**
 * Billing (decision 012). Our own record of what the payment provider holds: checkouts we started,
 * subscriptions, and every paid order / invoice with the credits it granted and took back. The provider
 * stays the source of truth; these rows are what the ledger entries point at.
 */

/** A hosted checkout we started. The return page asks for its status instead of trusting the URL. */
export const billingCheckouts = pgTable(
  'billing_checkouts',
  {
    /** Our id (UUID), carried to the provider as custom data / metadata / client reference. */
    id: text('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    kind: text('kind', { enum: ['plan', 'pack'] }).notNull(),
    /** Plan id or pack id. */
    item: text('item').notNull(),
    providerCheckoutId: text('provider_checkout_id'),
    status: text('status', { enum: ['pending', 'completed', 'failed', 'cancelled'] }).notNull().default('pending'),
    creditsGranted: integer('credits_granted').notNull().default(0),
    /** The currency the checkout was opened in (issue 25); a subscription keeps it for life. */
    currency: text('currency', { enum: ['usd', 'krw'] }).notNull().default('usd'),
    /** The hosted checkout's URL (a repeated request for the same plan gets this open checkout back). */
    checkoutUrl: text('checkout_url'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('billing_checkouts_user_idx').on(t.userId, t.createdAt),
    index('billing_checkouts_pending_idx').on(t.userId, t.createdAt).where(sql`${t.status} = 'pending' AND ${t.kind} = 'plan'`),
  ],
);

/** Every webhook event applied, under a unique key, written in the same transaction as its effect. */
export const billingEvents = pgTable(
  'billing_events',
  {
    id: serial('id').primaryKey(),
    provider: text('provider').notNull(),
    eventKey: text('event_key').notNull(),
    type: text('type').notNull(),
    objectKind: text('object_kind'),
    objectId: text('object_id'),
    /** What applying it did (`granted`, `reclaimed`, `synced`, `stale`, `ignored`…), for support. */
    outcome: text('outcome').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('billing_events_key_uq').on(t.provider, t.eventKey)],
);

/** A subscription as last read from the provider, plus which period's credits were granted. */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull(),
    plan: text('plan', { enum: ['basic', 'deluxe', 'premium'] }).notNull(),
    nextPlan: text('next_plan', { enum: ['basic', 'deluxe', 'premium'] }),
    status: text('status').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /** The currency it bills in, fixed at its checkout: upgrades, downgrades and renewals stay in it. */
    currency: text('currency', { enum: ['usd', 'krw'] }).notNull().default('usd'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    providerCreatedAt: timestamp('provider_created_at', { withTimezone: true }).notNull(),
    /** Start of the period whose subscription credits were granted, and for which plan. */
    creditedPeriodStart: timestamp('credited_period_start', { withTimezone: true }),
    creditedPlan: text('credited_plan', { enum: ['basic', 'deluxe', 'premium'] }),
    /**
     * Set when the provider created this subscription while the user already had a live one (a second
     * tab, a race, a checkout opened before the one-subscription rule): it is never granted, and is
     * cancelled and refunded at the provider (decision 029).
     */
    refusedAt: timestamp('refused_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscriptions_provider_id_uq').on(t.provider, t.providerSubscriptionId),
    index('subscriptions_user_idx').on(t.userId),
  ],
);

/** A paid pack order or subscription invoice, with the credits it granted and took back. */
export const billingPayments = pgTable(
  'billing_payments',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    kind: text('kind', { enum: ['order', 'invoice'] }).notNull(),
    providerId: text('provider_id').notNull(),
    /** Pack id (orders) or plan id (invoices). */
    item: text('item').notNull(),
    reason: text('reason').notNull(),
    providerSubscriptionId: text('provider_subscription_id'),
    status: text('status').notNull(),
    /** What was charged, in `currency`'s minor unit (cents; won for KRW), as the provider says. */
    amountMinor: integer('amount_minor').notNull(),
    /** What was refunded of it, same unit. */
    refundedMinor: integer('refunded_minor').notNull().default(0),
    currency: text('currency', { enum: ['usd', 'krw'] }).notNull().default('usd'),
    /** How it was paid, as the provider names the method (`card`, `kakao_pay`, `naver_pay`, `kr_card` …); null when it does not say. */
    method: text('method'),
    /** The provider's own receipt or invoice page (Stripe hosted invoice / receipt, Paddle invoice PDF, LS receipt); null: ours is shown. */
    receiptUrl: text('receipt_url'),
    /** When the last refund was recorded (the refund line of the billing history). */
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    creditsGranted: integer('credits_granted').notNull().default(0),
    creditsReclaimed: integer('credits_reclaimed').notNull().default(0),
    /** The bucket its credits went to. */
    bucket: text('bucket', { enum: ['one_time', 'subscription'] }).notNull(),
    checkoutId: text('checkout_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('billing_payments_provider_id_uq').on(t.provider, t.kind, t.providerId),
    index('billing_payments_user_idx').on(t.userId, t.createdAt),
    check('billing_payments_reclaim_le_grant', sql`${t.creditsReclaimed} <= ${t.creditsGranted}`),
  ],
);

/**
 * Billing mails sent (issue 25): one row per event under a unique key, claimed before the mail goes
 * out, so any number of webhook deliveries about one event send one mail (decision 041).
 */
export const billingMails = pgTable(
  'billing_mails',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** `purchase`, `renewal`, `renewal_failed`, `refund`, `cancellation_scheduled`, `subscription_ended`. */
    kind: text('kind').notNull(),
    /** What the event is about, unique per kind: a payment row and refund total, a subscription and period. */
    eventKey: text('event_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('billing_mails_event_uq').on(t.kind, t.eventKey), index('billing_mails_user_idx').on(t.userId)],
);

/** The sandbox provider's own store (it plays the provider: its objects live apart from ours). */
export const sandboxObjects = pgTable(
  'sandbox_objects',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['checkout', 'subscription', 'invoice', 'order'] }).notNull(),
    data: jsonb('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sandbox_objects_kind_idx').on(t.kind, t.createdAt)],
);
