import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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

export type UploadRow = typeof uploads.$inferSelect;
