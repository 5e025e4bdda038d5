import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/**
 * The append-only credit ledger. One row per bucket touched by an operation; a spend that takes from
 * both buckets writes two rows under the same idempotency key. `(idempotency_key, bucket)` is unique,
 * so a replayed operation can never apply twice. The per-user balances in `users` are updated in the
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
    reason: text('reason').notNull(),
    reference: text('reference'),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('credit_ledger_idem_bucket_uq').on(t.idempotencyKey, t.bucket),
    index('credit_ledger_user_idx').on(t.userId, t.createdAt),
    check('credit_ledger_bucket_valid', sql`${t.bucket} in ('one_time','bonus','subscription')`),
    check('credit_ledger_delta_nonzero', sql`${t.delta} <> 0`),
  ],
);
