import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
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

/**
 * Idempotency keys of `/v1` POSTs that are not kernel jobs (uploads, cancel; decision 040 §2): the first
 * request under a key (per account and route) runs and its answer is kept 24 h; a retry with the same
 * request gets that answer again, with another request 422, while the first still runs 409.
 * `status_code` null = in progress (abandoned after 5 min).
 */
export const apiIdempotencyKeys = pgTable(
  'api_idempotency_keys',
  {
    userId: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    route: text('route').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.route, t.key] }), index('api_idempotency_keys_created_idx').on(t.createdAt)],
);
