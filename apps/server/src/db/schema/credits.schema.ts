import { sql } from 'drizzle-orm';
import { bigint, check, foreignKey, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { LedgerReasonCode } from '@dewy/contracts';
import { users } from './users.schema';

/**
 * One period of one subscription's credits (decision 029): what its invoices granted into the
 * subscription bucket and what is left of it. Spends, refunds and reclaims from the subscription
 * bucket name the period(s) they touched (`credit_ledger.period_id`); a new period or the end of a
 * subscription expires only that subscription's open periods. Invariant: the `remaining` of a user's
 * open periods sums to `users.subscription_credits`; an ended period holds nothing.
 */
export const subscriptionCreditPeriods = pgTable(
  'subscription_credit_periods',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** `<provider>:<provider subscription id>` (`legacy:<user id>` for balances older than migration 0016). */
    subscriptionRef: text('subscription_ref').notNull(),
    /** Start of the billing period, as the provider's invoice gives it. */
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    /** Credits granted into this period (its invoice, an upgrade's difference). */
    granted: integer('granted').notNull().default(0),
    remaining: integer('remaining').notNull().default(0),
    /** When the period ended (a renewal or the subscription's end): its remainder was expired then. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('subscription_credit_periods_ref_start_uq').on(t.subscriptionRef, t.periodStart),
    index('subscription_credit_periods_open_idx').on(t.userId, t.periodStart).where(sql`${t.endedAt} IS NULL`),
    check('subscription_credit_periods_remaining_nonneg', sql`${t.remaining} >= 0`),
    check('subscription_credit_periods_ended_empty', sql`${t.endedAt} IS NULL OR ${t.remaining} = 0`),
  ],
);

/**
 * The append-only credit ledger. One row per bucket touched by an operation; a spend that takes from
 * both buckets writes two rows under the same idempotency key. `(idempotency_key, bucket)` is unique,
 * so a replayed operation can never apply twice; subscription rows also carry the credit period they
 * touched (`period_id`), and one operation may write one row per period under its key. The per-user balances in `users` are updated in the
 * same transaction; the sum of a user's ledger rows per bucket always equals that bucket's balance.
 */
export const creditLedger = pgTable(
  'credit_ledger',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    delta: integer('delta').notNull(),
    bucket: text('bucket', { enum: ['one_time', 'bonus', 'subscription'] }).notNull(),
    /** grant (welcome, purchase, period), spend, refund (a failed job), expire (subscription credits at period end / subscription end), reclaim (a refunded payment, or settling a debt). */
    kind: text('kind', { enum: ['grant', 'spend', 'refund', 'expire', 'reclaim'] }).notNull(),
    /** Why, as a code (packages/contracts ledger.ts; decision 036): welcome, pack_purchase, tool_job, job_refund, ai_call… */
    reasonCode: text('reason_code').$type<LedgerReasonCode>().notNull(),
    /** The code's typed parameters (without `code`): pack, plan, source, operation… */
    reasonParams: jsonb('reason_params').$type<Record<string, unknown>>().notNull().default({}),
    reference: text('reference'),
    idempotencyKey: text('idempotency_key').notNull(),
    /** The subscription credit period a subscription-bucket row touched (null: other buckets, rows older than migration 0016). */
    periodId: integer('period_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Named as migration 0016 created it (decision 034: the schema describes the database).
    foreignKey({ name: 'credit_ledger_period_id_fk', columns: [t.periodId], foreignColumns: [subscriptionCreditPeriods.id] }).onDelete('cascade'),
    uniqueIndex('credit_ledger_idem_bucket_period_uq').on(t.idempotencyKey, t.bucket, sql`coalesce(${t.periodId}, 0)`),
    index('credit_ledger_period_idx').on(t.periodId).where(sql`${t.periodId} IS NOT NULL`),
    index('credit_ledger_user_idx').on(t.userId, t.createdAt),
    check('credit_ledger_bucket_valid', sql`${t.bucket} in ('one_time','bonus','subscription')`),
    check('credit_ledger_delta_nonzero', sql`${t.delta} <> 0`),
  ],
);
