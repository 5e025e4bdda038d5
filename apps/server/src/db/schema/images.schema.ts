import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/**
 * Uploaded originals (docs/decisions/009). A presigned upload is `pending` until confirm-upload
 * inspects and re-encodes the bytes (`confirmed`), or `rejected` when confirm refused them; pending
 * and rejected rows are purged once their upload URL has expired. `key` is the object we store and
 * serve (written by the server only); `incomingKey` is where the browser PUTs a presigned upload, kept
 * until housekeeping has deleted that object after the URL's expiry (null for direct uploads).
 */
export const uploads = pgTable(
  'uploads',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    incomingKey: text('incoming_key'),
    kind: text('kind').notNull(),
    /** `expired`: deleted by the retention job 30 days after processing (002 §9). */
    status: text('status', { enum: ['pending', 'confirmed', 'rejected', 'expired'] }).notNull(),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256'),
    width: integer('width'),
    height: integer('height'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('uploads_key_uq').on(t.key),
    uniqueIndex('uploads_incoming_key_uq').on(t.incomingKey),
    index('uploads_user_idx').on(t.userId),
    index('uploads_created_idx').on(t.createdAt),
  ],
);

/** History of processed images (001 §3), one row per job. */
export const images = pgTable(
  'images',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    status: text('status', { enum: ['processing', 'completed', 'failed'] }).notNull(),
    jobId: text('job_id').notNull(),
    /** Queue (job) name of the tool that processes this row; recovery asks this queue about it. */
    jobName: text('job_name').notNull(),
    /** Id of the durable queue job (pg-boss) that processes this row. */
    queueJobId: text('queue_job_id'),
    /** SHA-256 of the request body sent with an Idempotency-Key: a reused key with another body is refused. */
    requestHash: text('request_hash'),
    /** Set by the worker running the job every few seconds; a stale one means the worker died. */
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** The stored upload the job reads; null for tools without an input image (generation, chat). */
    originalKey: text('original_key'),
    resultKey: text('result_key'),
    /** Every result of a multi-image job (image generation), `resultKey` first; null for one-image tools (decision 024). */
    resultKeys: jsonb('result_keys').$type<string[]>(),
    input: jsonb('input').notNull(),
    prompt: text('prompt'),
    seed: integer('seed'),
    cost: integer('cost').notNull(),
    /** Idempotency key of the ledger spend, refunded under `refund:<key>`. */
    spendKey: text('spend_key').notNull(),
    width: integer('width'),
    height: integer('height'),
    originalWidth: integer('original_width'),
    originalHeight: integer('original_height'),
    engine: text('engine'),
    meta: jsonb('meta'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    /** When the retention job deleted its files (002 §9: 30 days after processing); the row stays as history. */
    expiredAt: timestamp('expired_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('images_job_id_uq').on(t.jobId), index('images_user_source_idx').on(t.userId, t.source, t.createdAt), index('images_status_idx').on(t.status)],
);

export type ImageRow = typeof images.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
