import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/** Uploaded originals. A presigned upload is `pending` until confirm-upload inspects the bytes. */
export const uploads = pgTable(
  'uploads',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    kind: text('kind').notNull(),
    status: text('status', { enum: ['pending', 'confirmed'] }).notNull(),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    sha256: text('sha256'),
    width: integer('width'),
    height: integer('height'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('uploads_key_uq').on(t.key), index('uploads_user_idx').on(t.userId)],
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
    /** Id of the durable queue job (pg-boss) that processes this row. */
    queueJobId: text('queue_job_id'),
    originalKey: text('original_key').notNull(),
    resultKey: text('result_key'),
    input: jsonb('input').notNull(),
    prompt: text('prompt'),
    seed: integer('seed'),
    cost: integer('cost').notNull(),
    /** Idempotency key of the ledger spend, refunded under `refund:<key>`. */
    spendKey: text('spend_key').notNull(),
    width: integer('width'),
    height: integer('height'),
    originalWidth: integer('original_width').notNull(),
    originalHeight: integer('original_height').notNull(),
    engine: text('engine'),
    meta: jsonb('meta'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('images_job_id_uq').on(t.jobId), index('images_user_source_idx').on(t.userId, t.source, t.createdAt), index('images_status_idx').on(t.status)],
);

export type ImageRow = typeof images.$inferSelect;
export type UploadRow = typeof uploads.$inferSelect;
