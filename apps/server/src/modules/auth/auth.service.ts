import type { Locale, LoginRequest, RegisterRequest } from '@dewy/contracts';
import type { LoginLimits } from '../../config';
import type { DbOrTx } from '../../db/client';
import { users, type UserRow } from '../../db/schema';
import { AppError, isAppError } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import { findUserByEmail, normalizeEmail } from '../users/users.service';
import type { DeviceIdentity } from './device-cookie';
import { loginBuckets, reserveLoginAttempt, settleSuccessfulLogin } from './login-throttle.service';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';

export interface RegisterOptions {
  /** The language of the account's e-mails (the sign-up page's language). */
  locale: Locale;
}

/**
 * Creates an account (spec 000 §7 POST /api/auth/register), unverified: the welcome credits wait for
 * the e-mail verification (decision 020, `grantWelcomeCreditsOnce`). The e-mail is unique
 * case-insensitively; the first account created gets id 1 (the administrator).
 * @throws AppError EMAIL_TAKEN when the e-mail exists in any letter case (nothing is written).
 */
export async function registerUser(db: DbOrTx, input: RegisterRequest, opts: RegisterOptions): Promise<UserRow> {
  const emailNormalized = normalizeEmail(input.email);
  if (await findUserByEmail(db, emailNormalized)) throw new AppError('EMAIL_TAKEN');
  const passwordHash = await hashPassword(input.password);
  try {
    const [user] = await db
      .insert(users)
      .values({ email: input.email.trim(), emailNormalized, nickname: input.name.trim(), passwordHash, locale: opts.locale })
      .returning();
    if (!user) throw new AppError('INTERNAL');
    return user;
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('EMAIL_TAKEN');
    throw err;
  }
}

export interface AuthenticateContext {
  /** `req.ip` (which hop that is: TRUST_PROXY). */
  ip: string;
  /** The request's device cookie, already verified (`readDeviceCookie`), or null. */
  device: DeviceIdentity | null;
  limits: LoginLimits;
}

/** Seconds to put in `Retry-After` for a RATE_LIMITED AppError of the auth module, if it carries one. */
export function retryAfterSeconds(err: unknown): number | undefined {
  if (!isAppError(err, 'RATE_LIMITED')) return undefined;
  const s = (err.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return typeof s === 'number' && s > 0 ? s : undefined;
}

/**
 * Verifies e-mail and password (spec 000 §7 POST /api/auth/login) under login throttling
 * (docs/decisions/008, OWASP Authentication Cheat Sheet): the attempt is reserved in its counters
 * (`loginBuckets`) before argon2 runs, so at most the budgets' worth of passwords are ever verified,
 * whatever the concurrency; past a budget the wait grows (`delayAfter`). A correct password clears the
 * (account, client) or device counter. A missing account costs the same argon2 time and is throttled
 * like an existing one.
 * @throws AppError RATE_LIMITED (details.retryAfterSeconds: whole seconds to wait), INVALID_CREDENTIALS
 */
export async function authenticate(db: DbOrTx, input: LoginRequest, ctx: AuthenticateContext): Promise<UserRow> {
  const emailNormalized = normalizeEmail(input.email);
  const user = await findUserByEmail(db, emailNormalized);
  const trustedDevice = user && ctx.device?.userId === user.id ? ctx.device.nonce : null;
  const buckets = loginBuckets(emailNormalized, ctx.ip, trustedDevice, ctx.limits);
  const reservation = await reserveLoginAttempt(db, buckets, ctx.limits);
  if (!reservation.admitted) {
    throw new AppError('RATE_LIMITED', { message: 'login throttled', details: { retryAfterSeconds: Math.max(1, Math.ceil(reservation.retryAfterMs / 1000)) } });
  }
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), input.password);
  if (!user || !ok) throw new AppError('INVALID_CREDENTIALS');
  await settleSuccessfulLogin(db, buckets);
  return user;
}
