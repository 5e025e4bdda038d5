import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { apiKeys } from './api-keys.schema';
import { jobs } from './jobs.schema';
import { users } from './users.schema';

/** The events a job sends to its `webhook_url` (decision 040 §3). */
export const WEBHOOK_EVENT_TYPES = ['job.completed', 'job.failed'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
/** `pending` (to be sent at `next_attempt_at`), `delivered` (a 2xx came back), `failed` (every attempt failed). */
export const WEBHOOK_DELIVERY_STATES = ['pending', 'delivered', 'failed'] as const;

/**
 * The webhook outbox (decision 040 §3): one row per message a finished job owes its `webhook_url`,
 * written in the transaction that ends the job (so no end is ever without its message, and none is sent
 * for an end that rolled back). A sender leases due rows (`next_attempt_at` pushed past the send), POSTs
 * the signed message, records the attempt and schedules the next one or ends the row.
 * `message_id` is the Standard Webhooks `webhook-id`: the same on every retry, so a receiver dedupes.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: serial('id').primaryKey(),
    jobRowId: integer('job_row_id').notNull().references(() => jobs.id, { onDelete: 'cascade' }),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    apiKeyId: integer('api_key_id').notNull().references(() => apiKeys.id),
    eventType: text('event_type', { enum: WEBHOOK_EVENT_TYPES }).notNull(),
    messageId: text('message_id').notNull(),
    url: text('url').notNull(),
    state: text('state', { enum: WEBHOOK_DELIVERY_STATES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_message_id_key').on(t.messageId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.state} = 'pending'`),
    index('webhook_deliveries_job_idx').on(t.jobRowId),
    check('webhook_deliveries_state_valid', sql`${t.state} in ('pending','delivered','failed')`),
  ],
);
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Every attempt to send a {@link webhookDeliveries} message: when, the HTTP status or why none, how long (ms). */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: serial('id').primaryKey(),
    deliveryId: integer('delivery_id').notNull().references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull(),
    statusCode: integer('status_code'),
    /** Why the attempt failed (refused address, timeout, connection error, non-2xx); null when delivered. */
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId)],
);
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
