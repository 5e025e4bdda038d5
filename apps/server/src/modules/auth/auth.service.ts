import type { Locale, LoginRequest, RegisterRequest } from '@dewy/contracts';
import type { LoginLimits } from '../../config';
import type { DbOrTx } from '../../db/client';
import { users, type UserRow } from '../../db/schema';
import { AppError, isAppError } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import { findUserByEmail, normalizeEmail } from '../users';
import type { DeviceIdentity } from './device-cookie';
import { loginBuckets, reserveLoginAttempt, settleSuccessfulLogin } from './login-throttle.service';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';

export interface RegisterOptions {
  /** The language of the account's e-mails (the sign-up page's language). */
  locale: Locale;
  /**
   * Called just before the account row is inserted (never for a taken address): the route reserves the
   * e-mail domain's sign-up burst here and throws RATE_LIMITED past it. Its result's `release` is called
   * when the insert loses a race to the same address after all.
   */
  beforeCreate?: () => Promise<{ release(): Promise<void> } | void>;
}

/** What a sign-up did: created an account, or found the address taken (by `owner`). */
export type RegisterOutcome = { created: true; user: UserRow } | { created: false; owner: UserRow };

/**
 * Creates an account (spec 000 §7 POST /api/auth/register), unverified: the welcome credits wait for
 * the e-mail verification (decision 020, `grantWelcomeCreditsOnce`). The e-mail is unique
 * case-insensitively; the first account created gets id 1 (the administrator).
 * The password is hashed (argon2) whether or not the address is taken, so both cost the same time;
 * a taken address is an outcome, not an error: the route answers it exactly like a new one and mails
 * the owner instead (issue 21 point 10, decision 031).
 * @throws whatever `opts.beforeCreate` throws (nothing is written then)
 */
export async function registerAccount(db: DbOrTx, input: RegisterRequest, opts: RegisterOptions): Promise<RegisterOutcome> {
  const emailNormalized = normalizeEmail(input.email);
  const passwordHash = await hashPassword(input.password);
  const existing = await findUserByEmail(db, emailNormalized);
  if (existing) return { created: false, owner: existing };
  const reservation = await opts.beforeCreate?.();
  try {
    const [user] = await db
      .insert(users)
      .values({ email: input.email.trim(), emailNormalized, nickname: input.name.trim(), passwordHash, locale: opts.locale })
      .returning();
    if (!user) throw new AppError('INTERNAL');
    return { created: true, user };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    await reservation?.release();
    const owner = await findUserByEmail(db, emailNormalized);
    if (!owner) throw err;
    return { created: false, owner };
  }
}

/**
 * `registerAccount` for scripts and tests that want the new account or an error.
 * @throws AppError EMAIL_TAKEN when the e-mail has an account in any letter case (nothing is written)
 */
export async function registerUser(db: DbOrTx, input: RegisterRequest, opts: RegisterOptions): Promise<UserRow> {
  const outcome = await registerAccount(db, input, opts);
  if (!outcome.created) throw new AppError('EMAIL_TAKEN');
  return outcome.user;
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
