import { sql } from 'drizzle-orm';
import { check, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Accounts (spec 000 §3, 001 §3). Credits live in two buckets; the page sees their sum. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    /** Lower-cased e-mail: uniqueness is case-insensitive. */
    emailNormalized: text('email_normalized').notNull(),
    nickname: text('nickname').notNull(),
    passwordHash: text('password_hash').notNull(),
    plan: text('plan', { enum: ['free', 'basic', 'deluxe', 'premium'] }).notNull().default('free'),
    oneTimeCredits: integer('one_time_credits').notNull().default(0),
    subscriptionCredits: integer('subscription_credits').notNull().default(0),
    bonusCredits: integer('bonus_credits').notNull().default(0),
    /**
     * Credits a refund could not take back because they were already spent (decision 012): later
     * grants settle it first. Not a bucket: the balance is never negative.
     */
    creditDebt: integer('credit_debt').notNull().default(0),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    subscriptionEndDate: timestamp('subscription_end_date', { withTimezone: true }),
    nextRenewalDate: timestamp('next_renewal_date', { withTimezone: true }),
    subscriptionId: text('subscription_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_normalized_uq').on(t.emailNormalized),
    check('users_one_time_credits_nonneg', sql`${t.oneTimeCredits} >= 0`),
    check('users_subscription_credits_nonneg', sql`${t.subscriptionCredits} >= 0`),
    check('users_bonus_credits_nonneg', sql`${t.bonusCredits} >= 0`),
    check('users_credit_debt_nonneg', sql`${t.creditDebt} >= 0`),
    check('users_plan_valid', sql`${t.plan} in ('free','basic','deluxe','premium')`),
  ],
);

export type UserRow = typeof users.$inferSelect;
