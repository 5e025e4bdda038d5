import { boolean, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/** Notices (spec 002 §3): written by the administrator, read by everyone. `content` is sanitized HTML. */
export const notices = pgTable(
  'notices',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    pinned: boolean('pinned').notNull().default(false),
    authorName: text('author_name'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notices_list_idx').on(t.pinned, t.createdAt)],
);

/**
 * Files of notices: attachments (listed under the notice) and inline images (referenced from the
 * content as `/api/notices/files/{id}`). Served publicly by id; stored under `notices/`.
 */
export const noticeFiles = pgTable(
  'notice_files',
  {
    id: serial('id').primaryKey(),
    noticeId: integer('notice_id').references(() => notices.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['attachment', 'inline'] }).notNull(),
    storageKey: text('storage_key').notNull(),
    fileName: text('file_name').notNull(),
    mime: text('mime').notNull(),
    bytes: integer('bytes').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('notice_files_notice_idx').on(t.noticeId)],
);

/** Server settings an administrator may change at run time (maintenance switch, banned keywords). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
