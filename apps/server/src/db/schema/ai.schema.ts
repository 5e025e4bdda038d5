import { bigserial, check, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
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
 * One paid (or free) model call (decision 022): charged with status `pending` in the transaction that
 * records the request, then `completed` with its result or `refunded` (with `errorCode`) — each once. The
 * ledger's spend key is `ai:<id>`. `confirmedAt`: POST /api/credit/use confirmed this rewrite's charge.
 */
export const aiRequests = pgTable(
  'ai_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['chat', 'rewrite', 'auto_prompt', 'extract_prompt'] }).notNull(),
    cost: integer('cost').notNull(),
    status: text('status', { enum: ['pending', 'completed', 'refunded'] }).notNull().default('pending'),
    threadId: uuid('thread_id'),
    errorCode: text('error_code'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('ai_requests_user_kind_idx').on(t.userId, t.kind, t.createdAt),
    index('ai_requests_pending_idx').on(t.createdAt).where(sql`"status" = 'pending'`),
    // The unconfirmed-rewrite refund sweep (migration 0019, decision 032).
    index('ai_requests_unconfirmed_rewrite_idx').on(t.finishedAt).where(sql`"kind" = 'rewrite' AND "status" = 'completed' AND "confirmed_at" IS NULL`),
    // The CHECKs of migration 0010, declared so that the schema describes the database (decision 034).
    check('ai_requests_kind_check', sql`"kind" IN ('chat', 'rewrite', 'auto_prompt', 'extract_prompt')`),
    check('ai_requests_status_check', sql`"status" IN ('pending', 'completed', 'refunded')`),
    check('ai_requests_cost_check', sql`"cost" >= 0`),
  ],
);
export type AiRequestRow = typeof aiRequests.$inferSelect;
