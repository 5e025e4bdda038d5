import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/**
 * The affiliate programme (spec 001 §1/§7/§9, decision 013): one code per sharer, the clicks on
 * share links, who was referred by whom, and the reward each referred payment earned.
 */

/** One stable, unguessable, URL-safe code per user. */
export const affiliateCodes = pgTable(
  'affiliate_codes',
  {
    userId: integer('user_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
    code: text('code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('affiliate_codes_code_uq').on(t.code)],
);

/** A visit through a share link (no personal data: the client address is kept only as a keyed hash). */
export const affiliateClicks = pgTable(
  'affiliate_clicks',
  {
    id: serial('id').primaryKey(),
    sharerId: integer('sharer_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    campaign: text('campaign'),
    ipHash: text('ip_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('affiliate_clicks_sharer_idx').on(t.sharerId, t.createdAt)],
);

/** A referred account: attributed at sign-up from the attribution cookie, at most once. */
export const affiliateReferrals = pgTable(
  'affiliate_referrals',
  {
    referredId: integer('referred_id').primaryKey().references(() => users.id, { onDelete: 'cascade' }),
    sharerId: integer('sharer_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    clickId: integer('click_id'),
    campaign: text('campaign'),
    /** False when the referral looked like self-referral (same e-mail owner or network): never rewarded. */
    eligible: boolean('eligible').notNull(),
    ineligibleReason: text('ineligible_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('affiliate_referrals_sharer_idx').on(t.sharerId, t.createdAt), check('affiliate_referrals_not_self', sql`${t.referredId} <> ${t.sharerId}`)],
);

/** The bonus a referred payment earned its sharer: once per payment; reversed with its refund. */
export const affiliateRewards = pgTable(
  'affiliate_rewards',
  {
    id: serial('id').primaryKey(),
    /** billing_payments.id of the referred customer's payment. */
    paymentId: integer('payment_id').notNull(),
    sharerId: integer('sharer_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    referredId: integer('referred_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    credits: integer('credits').notNull(),
    reversedCredits: integer('reversed_credits').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('affiliate_rewards_payment_uq').on(t.paymentId), index('affiliate_rewards_sharer_idx').on(t.sharerId, t.createdAt)],
);
