import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { accountTokens } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';

export type TokenPurpose = 'verify_email' | 'reset_password';
export type AccountTokenRow = typeof accountTokens.$inferSelect;

const sign = (secret: string, purpose: string, body: string) => createHmac('sha256', secret).update(`dewy:${purpose}:${body}`).digest('base64url').slice(0, 32);

/** SHA-256 (hex) of a mailed token: the only form the database holds. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** True when `token` is `<random>.<HMAC of purpose and random>` under `secret` (constant time). */
function signatureValid(secret: string, purpose: string, token: string): boolean {
  const [body, sig, ...rest] = token.split('.');
  if (!body || !sig || rest.length) return false;
  const want = Buffer.from(sign(secret, purpose, body));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got);
}

/**
 * Issues a single-use link token (decision 020): 32 random bytes plus an HMAC of the purpose under the
 * app secret (so a forged or cross-purpose token is refused before the database is asked), stored only
 * as its SHA-256 with the address it is mailed to and its expiry.
 * @param a.ttlMs lifetime (ms); a.now the clock (tests)
 * @returns the token to put in the link
 */
export async function issueAccountToken(db: DbOrTx, secret: string, a: { userId: number; purpose: TokenPurpose; emailNormalized: string; ttlMs: number; now?: Date }): Promise<string> {
  const body = randomBytes(32).toString('base64url');
  const token = `${body}.${sign(secret, a.purpose, body)}`;
  const now = a.now ?? new Date();
  await db.insert(accountTokens).values({ userId: a.userId, purpose: a.purpose, tokenHash: tokenHash(token), emailNormalized: a.emailNormalized, expiresAt: new Date(now.getTime() + a.ttlMs), createdAt: now });
  return token;
}

/**
 * Uses a token once: the signature, the row, the purpose and the expiry are checked, then `used_at` is
 * set by a conditional update, so of many parallel uses exactly one succeeds. Runs in the caller's
 * transaction when given one, so the token is spent only if the caller's effect commits.
 * @throws AppError TOKEN_INVALID (forged, unknown, other purpose), TOKEN_USED, TOKEN_EXPIRED
 */
export async function consumeAccountToken(db: DbOrTx, secret: string, token: string, purpose: TokenPurpose, now: Date = new Date()): Promise<AccountTokenRow> {
  if (!signatureValid(secret, purpose, token)) throw new AppError('TOKEN_INVALID');
  return inTransaction(db, async (tx) => {
    const row = (await tx.select().from(accountTokens).where(eq(accountTokens.tokenHash, tokenHash(token))))[0];
    if (!row || row.purpose !== purpose) throw new AppError('TOKEN_INVALID');
    if (row.usedAt) throw new AppError('TOKEN_USED');
    if (row.expiresAt.getTime() <= now.getTime()) throw new AppError('TOKEN_EXPIRED');
    const used = await tx.update(accountTokens).set({ usedAt: now }).where(and(eq(accountTokens.id, row.id), isNull(accountTokens.usedAt))).returning({ id: accountTokens.id });
    if (!used.length) throw new AppError('TOKEN_USED');
    return row;
  });
}

/** Marks every unused token of a user for a purpose as used (a reset spends the user's other reset links). */
export async function spendAccountTokens(db: DbOrTx, userId: number, purpose: TokenPurpose, now: Date = new Date()): Promise<void> {
  await db.update(accountTokens).set({ usedAt: now }).where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
}
