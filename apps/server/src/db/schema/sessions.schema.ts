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
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/** Failed and successful login attempts, for per-account and per-IP rate limits. */
export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    emailNormalized: text('email_normalized').notNull(),
    ip: text('ip').notNull(),
    succeeded: integer('succeeded').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('login_attempts_email_idx').on(t.emailNormalized, t.createdAt), index('login_attempts_ip_idx').on(t.ip, t.createdAt)],
);
