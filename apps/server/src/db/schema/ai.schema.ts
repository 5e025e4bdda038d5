import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { MeteredOperationName } from '@dewy/contracts';
import { users } from './users.schema';

/**
 * AI text threads (spec 002 §3, issue 15): `chat` threads are the prompt chat's sidebar; `rewrite` threads
 * hold the consistency rewrite's conversation (002 §7 passes its threadId) and never show in the chat.
 */
export const aiThreads = pgTable(
  'ai_threads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['chat', 'rewrite'] }).notNull().default('chat'),
    title: text('title').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ai_threads_list_idx').on(t.userId, t.kind, t.updatedAt, t.id), check('ai_threads_kind_check', sql`"kind" IN ('chat', 'rewrite')`)],
);
export type AiThreadRow = typeof aiThreads.$inferSelect;

/** Messages of a thread (002 §3: role, text, image_url). `imageKey` is the stored upload's key. */
export const aiMessages = pgTable(
  'ai_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    threadId: uuid('thread_id').notNull().references(() => aiThreads.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['user', 'assistant'] }).notNull(),
    text: text('text').notNull().default(''),
    imageKey: text('image_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('ai_messages_thread_idx').on(t.threadId, t.id), check('ai_messages_role_check', sql`"role" IN ('user', 'assistant')`)],
);
export type AiMessageRow = typeof aiMessages.$inferSelect;

/**
 * One inline metered call (decision 036; the AI text tools of decision 022): the kernel's second mode
 * (`modules/tool-jobs/metered-call.ts`). Charged with status `pending` in the transaction that records the
 * request, then `completed` with its result or `refunded` (with `errorCode`) — each once, conditional on
 * `pending`. `spendKey` is its ledger spend's key (`metered:<id>`; `ai:<id>` for calls before migration
 * 0021). `idempotencyKey` is the caller's Idempotency-Key, hashed and scoped to the user and operation;
 * `requestHash` the request's fingerprint; `result` the answer a replay of the key returns.
 * `confirmedAt`: POST /api/credit/use confirmed this rewrite's charge.
 */
export const meteredCalls = pgTable(
  'metered_calls',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    operation: text('operation').$type<MeteredOperationName>().notNull(),
    cost: integer('cost').notNull(),
    status: text('status', { enum: ['pending', 'completed', 'refunded'] }).notNull().default('pending'),
    threadId: uuid('thread_id'),
    errorCode: text('error_code'),
    spendKey: text('spend_key').notNull(),
    idempotencyKey: text('idempotency_key'),
    requestHash: text('request_hash'),
    result: jsonb('result'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('metered_calls_user_operation_idx').on(t.userId, t.operation, t.createdAt),
    index('metered_calls_pending_idx').on(t.createdAt).where(sql`"status" = 'pending'`),
    // The unconfirmed-rewrite refund sweep (migration 0019, decision 032).
    index('metered_calls_unconfirmed_rewrite_idx').on(t.finishedAt).where(sql`"operation" = 'rewrite' AND "status" = 'completed' AND "confirmed_at" IS NULL`),
    uniqueIndex('metered_calls_idempotency_uq').on(t.userId, t.operation, t.idempotencyKey).where(sql`"idempotency_key" IS NOT NULL`),
    check('metered_calls_operation_check', sql`"operation" IN ('chat', 'rewrite', 'auto_prompt', 'extract_prompt')`),
    check('metered_calls_status_check', sql`"status" IN ('pending', 'completed', 'refunded')`),
    check('metered_calls_cost_check', sql`"cost" >= 0`),
  ],
);
export type MeteredCallRow = typeof meteredCalls.$inferSelect;
