import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/**
 * Server-side sessions. `id` is the SHA-256 (hex) of the cookie token, so a database leak does not
 * hand out live sessions. Idle expiry moves with `lastSeenAt`; `expiresAt` is absolute.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /**
     * Last time the user proved who they are in this session (decision 020): the sign-in itself, or a
     * fresh social sign-in (`markSessionReauthenticated`). Account deletion by a social-only account needs it recent.
     */
    reauthenticatedAt: timestamp('reauthenticated_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** When this session last completed a social sign-in or social re-authentication (decision 021). */
    socialReauthAt: timestamp('social_reauth_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * Rate-limit counters for login throttling and sign-up limits (docs/decisions/008). One row per key
 * (`login:acct_ip:<email>|<ip>`, `login:ip:<ip>`, `login:acct:<email>`, `login:device:<nonce>`,
 * `signup:ip:<ip>`, `signup:domain:<domain>`), changed only under its row lock (upsert or
 * `INSERT … ON CONFLICT … RETURNING`), so concurrent requests see distinct counts.
 * - `hits`: attempts counted since the counter last reset;
 * - `resetAt`: when the counter is forgotten (a row past it counts as empty and may be purged);
 * - `nextAllowedAt`: no attempt is admitted before it (the growing delay of login throttling).
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull().default(0),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull().defaultNow(),
    nextAllowedAt: timestamp('next_allowed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('rate_limits_reset_idx').on(t.resetAt)],
);
