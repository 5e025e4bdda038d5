import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/** What produced a sign-in history row. */
export const SIGN_IN_KINDS = ['signup', 'login', 'social', 'undo'] as const;
export type SignInKind = (typeof SIGN_IN_KINDS)[number];

/**
 * Sign-in history (issue 21 point 4, decision 031): one row per sign-up and per sign-in (password,
 * social, undo of a deletion), kept SIGN_IN_HISTORY_DAYS and not touched by logout, so the affiliate
 * programme can tell a referred sign-up from the sharer's own network or browser after the sharer
 * signed out. No address in clear: `ip_hash` is a keyed hash (HMAC under a key derived from
 * APP_SECRET) of the client's address (IPv6: its /64), `device_hash` the same keyed hash of the
 * device cookie's nonce the browser holds (null without one). Deleted by the account purge and by
 * housekeeping past the retention; `ON DELETE CASCADE` for a deleted user row.
 */
export const signInEvents = pgTable(
  'sign_in_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: SIGN_IN_KINDS }).notNull(),
    ipHash: text('ip_hash').notNull(),
    deviceHash: text('device_hash'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sign_in_events_user_idx').on(t.userId, t.createdAt),
    index('sign_in_events_created_idx').on(t.createdAt),
    check('sign_in_events_kind_valid', sql`${t.kind} in ('signup','login','social','undo')`),
  ],
);
