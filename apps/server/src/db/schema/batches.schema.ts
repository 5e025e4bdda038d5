import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { jobs } from './jobs.schema';
import { users } from './users.schema';

/**
 * Batches on the page (issue 24, decision 040 §4): one set of options for up to 50 photos; each photo
 * becomes a job of the kernel (`jobs.batch_id` = this id), charged one by one. `idempotency_key` (per
 * user) makes a resent batch answer the first one.
 */
export const batches = pgTable(
  'batches',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    /** The tool's job name (`upscale`). */
    tool: text('tool').notNull(),
    /** The tool input every photo shares (without the image). */
    options: jsonb('options').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('batches_user_idx').on(t.userId, t.createdAt), uniqueIndex('batches_user_idempotency_key').on(t.userId, t.idempotencyKey).where(sql`${t.idempotencyKey} IS NOT NULL`)],
);
export type BatchRow = typeof batches.$inferSelect;

/**
 * One photo of a batch, in the customer's order: its upload, original file name, current job (the
 * latest attempt; a retry replaces it) and, when no job was started, why (`refused_code`).
 */
export const batchPhotos = pgTable(
  'batch_photos',
  {
    id: serial('id').primaryKey(),
    batchId: uuid('batch_id').notNull().references(() => batches.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    /** The imageUrl the photo's jobs read (an upload of the batch's owner). */
    image: text('image').notNull(),
    jobRowId: integer('job_row_id').references(() => jobs.id, { onDelete: 'set null' }),
    refusedCode: text('refused_code'),
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [uniqueIndex('batch_photos_position_key').on(t.batchId, t.position)],
);
export type BatchPhotoRow = typeof batchPhotos.$inferSelect;
