import { and, count, eq, gt, lt } from 'drizzle-orm';
import type { LoginRequest, RegisterRequest } from '@dewy/contracts';
import type { DbOrTx } from '../../db/client';
import { loginAttempts, users, type UserRow } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import { grant } from '../credits/credits.service';
import { findUserByEmail, normalizeEmail } from '../users/users.service';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';

export interface RegisterOptions {
  /** One-time credits granted to a new account so it can try the tools. */
  welcomeCredits: number;
}

/**
 * Creates an account (spec 000 §7 POST /api/auth/register) and its welcome grant in one transaction.
 * The e-mail is unique case-insensitively; the first account created gets id 1 (the administrator).
 * @throws AppError EMAIL_TAKEN when the e-mail exists in any letter case (nothing is written).
 */
export async function registerUser(db: DbOrTx, input: RegisterRequest, opts: RegisterOptions): Promise<UserRow> {
  const emailNormalized = normalizeEmail(input.email);
  if (await findUserByEmail(db, emailNormalized)) throw new AppError('EMAIL_TAKEN');
  const passwordHash = await hashPassword(input.password);
  try {
    return await inTransaction(db, async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ email: input.email.trim(), emailNormalized, nickname: input.name.trim(), passwordHash })
        .returning();
      if (!user) throw new AppError('INTERNAL');
      if (opts.welcomeCredits > 0) {
        const g = await grant(tx, {
          userId: user.id,
          amount: opts.welcomeCredits,
          bucket: 'one_time',
          reason: 'welcome',
          idempotencyKey: `welcome:${user.id}`,
        });
        return { ...user, oneTimeCredits: g.balance.oneTime };
      }
      return user;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('EMAIL_TAKEN');
    throw err;
  }
}

/** Deletes login attempts older than the rate-limit window; they no longer count (run periodically). */
export async function purgeLoginAttempts(db: DbOrTx, windowMs: number): Promise<void> {
  await db.delete(loginAttempts).where(lt(loginAttempts.createdAt, new Date(Date.now() - windowMs)));
}

export interface LoginLimits {
  perAccount: number;
  perIp: number;
  windowMs: number;
}

/**
 * Verifies e-mail and password (spec 000 §7 POST /api/auth/login). Failed attempts are recorded; more
 * than `perAccount` failures for one e-mail, or `perIp` from one address, inside the window refuse
 * further attempts until it passes. A missing account costs the same argon2 time as a wrong password.
 * @throws AppError RATE_LIMITED, INVALID_CREDENTIALS
 */
export async function authenticate(db: DbOrTx, input: LoginRequest, ctx: { ip: string; limits: LoginLimits }): Promise<UserRow> {
  const emailNormalized = normalizeEmail(input.email);
  const since = new Date(Date.now() - ctx.limits.windowMs);
  const [byAccount] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.emailNormalized, emailNormalized), eq(loginAttempts.succeeded, 0), gt(loginAttempts.createdAt, since)));
  const [byIp] = await db
    .select({ n: count() })
    .from(loginAttempts)
    .where(and(eq(loginAttempts.ip, ctx.ip), eq(loginAttempts.succeeded, 0), gt(loginAttempts.createdAt, since)));
  if ((byAccount?.n ?? 0) >= ctx.limits.perAccount || (byIp?.n ?? 0) >= ctx.limits.perIp) throw new AppError('RATE_LIMITED');

  const user = await findUserByEmail(db, emailNormalized);
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  await db.insert(loginAttempts).values({ emailNormalized, ip: ctx.ip, succeeded: ok && user ? 1 : 0 });
  if (!user || !ok) throw new AppError('INVALID_CREDENTIALS');
  return user;
}
