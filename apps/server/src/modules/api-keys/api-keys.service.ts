import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, count, desc, eq, gt, isNull, lt, or } from 'drizzle-orm';
import { API_KEY_LIMITS, API_KEY_SECRET_PREFIX, type ApiKeySummary, type ApiKeyView } from '@dewy/contracts';
import type { DbOrTx } from '../../db/client';
import { apiKeys, users, type ApiKeyRow, type UserRow } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { isVerified } from '../../policies';

/** Characters of the secret (after `dewy_sk_`) kept in clear as the key's prefix. */
const PREFIX_CHARS = 8;
/** `last_used_at` is written at most this often per key (ms): a busy key does not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;
/** A well-formed secret: the prefix and 43 base64url characters (32 bytes). */
const SECRET_PATTERN = new RegExp(`^${API_KEY_SECRET_PREFIX}[A-Za-z0-9_-]{43}$`);

/** SHA-256 (hex) of a secret: what the table stores and looks up. */
function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A key's state at `now`: revoked wins over expired. */
function stateOf(row: ApiKeyRow, now: Date): ApiKeySummary['state'] {
  if (row.revokedAt) return 'revoked';
  if (row.expiresAt && row.expiresAt <= now) return 'expired';
  return 'active';
}

/** The page's view of a key row (never the hash). */
export function summarizeApiKey(row: ApiKeyRow, now: Date = new Date()): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    state: stateOf(row, now),
  };
}

/**
 * Creates an API key for `userId` (decision 040 §1). The secret — `dewy_sk_` and 32 random bytes in
 * base64url — is returned this once; the table keeps its SHA-256 and its first 8 characters.
 * The count of live keys (not revoked, not expired) is checked under the user's row lock, so parallel
 * creations cannot pass the limit together.
 * @param input.name 1–60 characters (validated by the route's schema); input.expiresInDays 1–365, or none
 * @param now the clock (tests pass their own)
 * @returns the new key's summary and its secret
 * @throws AppError API_KEY_LIMIT_REACHED (409) when the account already holds API_KEY_LIMITS.maxLiveKeys live keys;
 *   NOT_FOUND when the user does not exist
 */
export async function createApiKey(db: DbOrTx, userId: number, input: { name: string; expiresInDays?: number }, now: Date = new Date()): Promise<{ key: ApiKeySummary; secret: string }> {
  return inTransaction(db, async (tx) => {
    const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
    if (!owner) throw new AppError('NOT_FOUND');
    const [live] = await tx
      .select({ n: count() })
      .from(apiKeys)
      .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt), or(isNull(apiKeys.expiresAt), gt(apiKeys.expiresAt, now))));
    if ((live?.n ?? 0) >= API_KEY_LIMITS.maxLiveKeys) throw new AppError('API_KEY_LIMIT_REACHED');
    const secret = `${API_KEY_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
    const [row] = await tx
      .insert(apiKeys)
      .values({
        userId,
        name: input.name,
        prefix: secret.slice(0, API_KEY_SECRET_PREFIX.length + PREFIX_CHARS),
        secretHash: hashSecret(secret),
        createdAt: now,
        expiresAt: input.expiresInDays ? new Date(now.getTime() + input.expiresInDays * 86_400_000) : null,
      })
      .returning();
    return { key: summarizeApiKey(row!, now), secret };
  });
}

/** The account's keys, newest first, as My Page lists them. */
export async function listApiKeys(db: DbOrTx, userId: number, now: Date = new Date()): Promise<ApiKeySummary[]> {
  const rows = await db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((r) => summarizeApiKey(r, now));
}

/**
 * Revokes one of the account's keys at once (every process: the key is checked against the table on each
 * call). Idempotent: revoking a revoked key answers it unchanged.
 * @throws AppError NOT_FOUND when the key is not the account's (another account's key looks like none)
 */
export async function revokeApiKey(db: DbOrTx, userId: number, keyId: number, now: Date = new Date()): Promise<ApiKeySummary> {
  const [revoked] = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .returning();
  if (revoked) return summarizeApiKey(revoked, now);
  const [existing] = await db.select().from(apiKeys).where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)));
  if (!existing) throw new AppError('NOT_FOUND');
  return summarizeApiKey(existing, now);
}

/**
 * The caller behind a presented secret, or null when it is no usable key: malformed, unknown, revoked,
 * expired, or its account is unverified, deleted, being deleted or dormant (decision 040 §1). Reads the
 * table on every call (no cache), so a revocation holds at once in every process. Notes the use
 * (`last_used_at`, at most once a minute).
 * @param secret the bearer token as sent
 */
export async function authenticateApiKey(db: DbOrTx, secret: string, now: Date = new Date()): Promise<{ apiKeyId: number; user: UserRow } | null> {
  if (!SECRET_PATTERN.test(secret)) return null;
  const [found] = await db.select({ key: apiKeys, user: users }).from(apiKeys).innerJoin(users, eq(users.id, apiKeys.userId)).where(eq(apiKeys.secretHash, hashSecret(secret)));
  if (!found) return null;
  const { key, user } = found;
  if (stateOf(key, now) !== 'active') return null;
  if (!isVerified(user) || user.deletedAt || user.deletionRequestedAt || user.dormantAt) return null;
  if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(and(eq(apiKeys.id, key.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS)))));
  }
  return { apiKeyId: key.id, user };
}

/**
 * The Standard Webhooks signing secret of one key (decision 040 §3): `whsec_` + base64 of
 * HMAC-SHA256(app secret, `dewy:webhook-secret:v1:<key id>:<key prefix>`), 32 bytes. Derived, not
 * stored: a database leak alone does not give it, and every process that has APP_SECRET can sign.
 * Rotating APP_SECRET rotates every webhook secret (as it invalidates signed URLs).
 * @param appSecret the app's HMAC secret (`ctx.secret`)
 */
export function webhookSigningSecret(appSecret: string, key: { id: number; prefix: string }): string {
  return `whsec_${createHmac('sha256', appSecret).update(`dewy:webhook-secret:v1:${key.id}:${key.prefix}`).digest('base64')}`;
}

/** A key with its webhook signing secret, as the account's answers show it. */
export function withWebhookSecret(appSecret: string, key: ApiKeySummary): ApiKeyView {
  return { ...key, webhookSecret: webhookSigningSecret(appSecret, key) };
}
