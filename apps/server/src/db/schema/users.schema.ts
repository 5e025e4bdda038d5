import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Accounts (spec 000 §3, 001 §3). Credits live in two buckets; the page sees their sum. */
export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    /** Lower-cased e-mail: uniqueness is case-insensitive. */
    emailNormalized: text('email_normalized').notNull(),
    nickname: text('nickname').notNull(),
    /** argon2id hash; null for an account created by social sign-in (decision 021), which has no password. */
    passwordHash: text('password_hash'),
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
    /** When the address was verified through a mailed link (decision 020); null = not yet. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** The language of the account's e-mails (the sign-up page's language). */
    locale: text('locale', { enum: ['ko', 'en'] }).notNull().default('ko'),
    /** Deletion requested (002 §9): the account is disabled from this moment until undo or purge. */
    deletionRequestedAt: timestamp('deletion_requested_at', { withTimezone: true }),
    /** When the purge job deletes the account for good (request + 14 days). */
    deletionDueAt: timestamp('deletion_due_at', { withTimezone: true }),
    /** Purged: the row is an anonymous tombstone kept for the ledger and billing rows. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * Last sign-in (decision 027): the account's creation, then every sign-in (password, social, undo of a
     * deletion) and use of a session, written at most once a day (DORMANCY_RULES.loginWriteMs) unless the
     * account is dormant or notified. Migration 0014 filled it from each account's newest session.
     */
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * When the dormancy notice for the current stretch without sign-in was claimed by a job run (a claim
     * without `dormancy_notice_sent_at` for an hour is taken again); cleared by a sign-in.
     */
    dormancyNoticeAt: timestamp('dormancy_notice_at', { withTimezone: true }),
    /** When that notice was sent: dormancy counts its 30 days from here. Cleared by a sign-in. */
    dormancyNoticeSentAt: timestamp('dormancy_notice_sent_at', { withTimezone: true }),
    /** Dormant since (terms §14, decision 027): no sign-in for a year; cleared by the next sign-in. */
    dormantAt: timestamp('dormant_at', { withTimezone: true }),
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
    check('users_locale_valid', sql`${t.locale} in ('ko','en')`),
    index('users_deletion_due_idx').on(t.deletionDueAt).where(sql`${t.deletionDueAt} is not null and ${t.deletedAt} is null`),
    index('users_last_login_idx').on(t.lastLoginAt).where(sql`${t.dormantAt} is null and ${t.deletedAt} is null`),
  ],
);

export type UserRow = typeof users.$inferSelect;
