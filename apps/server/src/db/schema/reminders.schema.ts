import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { subscriptions } from './billing.schema';
import { users } from './users.schema';

/**
 * Renewal reminders (terms §7, refund policy; decision 027): one row per (subscription, renewal date,
 * threshold), claimed by the insert that wins the unique index before the mail is sent. `sent_at` null =
 * claimed and not (yet) sent: a failed send deletes the row, and a claim left unsent for an hour (a
 * worker that died mid-send) may be claimed again.
 */
export const renewalReminders = pgTable(
  'renewal_reminders',
  {
    id: serial('id').primaryKey(),
    subscriptionId: integer('subscription_id').notNull().references(() => subscriptions.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The renewal this reminder is about: the subscription's `current_period_end` when it was claimed. */
    periodEnd: timestamp('period_end', { withTimezone: true }).notNull(),
    /** Days before the renewal: one of RENEWAL_REMINDER_DAYS (7, 3, 1). */
    thresholdDays: integer('threshold_days').notNull(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('renewal_reminders_uq').on(t.subscriptionId, t.periodEnd, t.thresholdDays),
    index('renewal_reminders_user_idx').on(t.userId),
    check('renewal_reminders_threshold_valid', sql`${t.thresholdDays} in (7, 3, 1)`),
  ],
);
