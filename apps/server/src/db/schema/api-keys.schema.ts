import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { users } from './users.schema';

/**
 * API keys (decision 040): a customer's programs call `/v1` with `Authorization: Bearer dewy_sk_…`.
 * - `secretHash`: SHA-256 (hex) of the whole secret, unique — the secret itself is never stored (it has
 *   256 random bits: a fast hash is enough, and a database leak hands out no usable key);
 * - `prefix`: `dewy_sk_` and the secret's first 8 characters, shown in lists to recognise a key;
 * - `lastUsedAt`: written at most once a minute per key;
 * - `expiresAt` (optional) and `revokedAt`: a key is usable only before both (and while its account is
 *   verified and not being deleted). Keys are revoked, never deleted: the jobs they started keep naming them.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_secret_hash_key').on(t.secretHash), index('api_keys_user_idx').on(t.userId)],
);
export type ApiKeyRow = typeof apiKeys.$inferSelect;
