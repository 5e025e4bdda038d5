import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/**
 * Mailed single-use links (decision 020): e-mail verification and password reset. Only the SHA-256 of
 * the token is stored; `email_normalized` is the address the link went to (a verification counts only
 * for that address). `used_at` is set once, by a conditional update.
 */
export const accountTokens = pgTable(
  'account_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    tokenHash: text('token_hash').notNull(),
    emailNormalized: text('email_normalized').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_uq').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.purpose),
    check('account_tokens_purpose_valid', sql`${t.purpose} in ('verify_email','reset_password')`),
  ],
);

/**
 * Addresses that have received the welcome credits, ever (decision 020): the SHA-256 of the normalised
 * address, kept after the account is purged so a re-created account does not get them twice.
 */
export const welcomeGrants = pgTable('welcome_grants', {
  emailHash: text('email_hash').primaryKey(),
  userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
  grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
});
