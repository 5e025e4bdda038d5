import { AUTH_LIMITS, type Identity } from '@dewy/contracts';
import { and, count, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sessions, userIdentities, users, type SocialProviderName, type UserRow } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { isUniqueViolation } from '../../lib/pg-errors';
import type { SocialProfile } from '../../providers/oauth';
import { findUserByEmail, findUserById, normalizeEmail } from '../users';
import { grantWelcomeCreditsOnce } from './welcome-credits';

export interface SocialSignInOptions {
  /** One-time credits for an account this sign-in creates (WELCOME_CREDITS). */
  welcomeCredits: number;
  /**
   * Called just before an account is created (not for a known identity): the route counts the sign-up
   * against the same per-IP limit as `POST /api/auth/register` and throws RATE_LIMITED past it.
   */
  beforeCreate?: () => Promise<void>;
}

export interface SocialSignInResult {
  user: UserRow;
  /** True when this sign-in created the account. */
  created: boolean;
}

/** A nickname for a new account from the provider's name, else the e-mail's local part, under sign-up's rules. */
function nicknameFor(profile: SocialProfile): string {
  // eslint-disable-next-line no-control-regex
  const clean = (s: string | null | undefined) => (s ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().slice(0, AUTH_LIMITS.nameMax).trim();
  return clean(profile.name) || clean(profile.email?.split('@')[0]) || profile.provider;
}

async function findIdentity(db: DbOrTx, provider: SocialProviderName, subject: string) {
  return (await db.select().from(userIdentities).where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject))))[0];
}

/** Records what the provider said at this sign-in (the e-mail may have changed there). */
async function touchIdentity(db: DbOrTx, id: number, profile: SocialProfile): Promise<void> {
  await db.update(userIdentities).set({ email: profile.email, emailVerified: profile.emailVerified, lastSignInAt: sql`now()` }).where(eq(userIdentities.id, id));
}

/**
 * Signs a social identity in (issue 14, spec 000 §1/§7; decision 021):
 * - a known identity (provider, subject) signs its account in;
 * - a new identity whose e-mail the provider verified and that matches no account creates one (no
 *   password) with its welcome credits (`grantWelcomeCreditsOnce`), identity and account in one transaction;
 * - a new identity whose verified e-mail belongs to an account is NEVER linked silently (pre-account
 *   takeover): SOCIAL_ACCOUNT_EXISTS — the owner signs in and links from My Page;
 * - a new identity without a verified e-mail never creates, matches or links anything: SOCIAL_EMAIL_UNVERIFIED.
 * Concurrent sign-ins of the same new identity create one account and one identity: the loser of the
 * unique index — or one that finds the winner's account by its e-mail before its own insert — finds the
 * winner's identity and signs in to it.
 * @throws AppError SOCIAL_EMAIL_UNVERIFIED, SOCIAL_ACCOUNT_EXISTS, and whatever `opts.beforeCreate` throws
 */
export async function signInWithSocial(db: DbOrTx, profile: SocialProfile, opts: SocialSignInOptions): Promise<SocialSignInResult> {
  const known = await findIdentity(db, profile.provider, profile.subject);
  if (known) {
    await touchIdentity(db, known.id, profile);
    const user = await findUserById(db, known.userId);
    if (!user) throw new AppError('SOCIAL_AUTH_FAILED', { message: 'identity without account' });
    return { user, created: false };
  }
  if (!profile.email || !profile.emailVerified) throw new AppError('SOCIAL_EMAIL_UNVERIFIED');
  const email = profile.email;
  if (await findUserByEmail(db, email)) {
    // A parallel sign-in of this same identity may have created the account between our identity
    // lookup and this one: that account is this identity's, so sign in to it. Any other account with
    // the address is never linked silently.
    const winner = await signInAsWinner(db, profile);
    if (winner) return winner;
    throw new AppError('SOCIAL_ACCOUNT_EXISTS');
  }
  await opts.beforeCreate?.();
  try {
    const user = await inTransaction(db, async (tx) => {
      const [u] = await tx.insert(users).values({ email, emailNormalized: normalizeEmail(email), nickname: nicknameFor(profile), passwordHash: null, emailVerifiedAt: sql`now()` }).returning();
      if (!u) throw new AppError('INTERNAL');
      await tx.insert(userIdentities).values({ userId: u.id, provider: profile.provider, subject: profile.subject, email, emailVerified: true, lastSignInAt: sql`now()` });
      await grantWelcomeCreditsOnce(tx, { userId: u.id, email, amount: opts.welcomeCredits });
      return u;
    });
    return { user: (await findUserById(db, user.id)) ?? user, created: true };
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // A parallel sign-in of this identity won the race: sign in to its account. Otherwise the e-mail
    // was taken meanwhile by another account: never linked silently.
    const winner = await signInAsWinner(db, profile);
    if (winner) return winner;
    throw new AppError('SOCIAL_ACCOUNT_EXISTS');
  }
}

/** The account a parallel sign-in of the same identity created, if there is one now. */
async function signInAsWinner(db: DbOrTx, profile: SocialProfile) {
  const winner = await findIdentity(db, profile.provider, profile.subject);
  const user = winner && (await findUserById(db, winner.userId));
  return user ? { user, created: false } : null;
}

/**
 * Links a social identity to the signed-in account (the owner proved control by being signed in), or
 * confirms it when it is already theirs. The provider's e-mail does not have to match the account's.
 * The account's row is locked, so concurrent links cannot give it two identities of one provider.
 * @throws AppError IDENTITY_IN_USE (linked to another account, or the account has another identity of
 *   this provider), NOT_FOUND (no such account)
 */
export async function linkSocialIdentity(db: DbOrTx, userId: number, profile: SocialProfile): Promise<void> {
  try {
    await inTransaction(db, async (tx) => {
      const [locked] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
      if (!locked) throw new AppError('NOT_FOUND');
      const known = await findIdentity(tx, profile.provider, profile.subject);
      if (known) {
        if (known.userId !== userId) throw new AppError('IDENTITY_IN_USE');
        await touchIdentity(tx, known.id, profile);
        return;
      }
      const [sameProvider] = await tx.select({ id: userIdentities.id }).from(userIdentities).where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, profile.provider)));
      if (sameProvider) throw new AppError('IDENTITY_IN_USE');
      await tx.insert(userIdentities).values({ userId, provider: profile.provider, subject: profile.subject, email: profile.email, emailVerified: profile.emailVerified, lastSignInAt: sql`now()` });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('IDENTITY_IN_USE');
    throw err;
  }
}

/**
 * Re-authentication of the signed-in account with one of its own identities (before account deletion):
 * the identity must be linked to `userId`.
 * @throws AppError SOCIAL_REAUTH_MISMATCH
 */
export async function confirmSocialReauth(db: DbOrTx, userId: number, profile: SocialProfile): Promise<void> {
  const known = await findIdentity(db, profile.provider, profile.subject);
  if (!known || known.userId !== userId) throw new AppError('SOCIAL_REAUTH_MISMATCH');
  await touchIdentity(db, known.id, profile);
}

/** The account's identities, oldest first, and whether it has a password (My Page, Account section). */
export async function listIdentities(db: DbOrTx, userId: number): Promise<{ hasPassword: boolean; identities: Identity[] }> {
  const user = await findUserById(db, userId);
  if (!user) throw new AppError('NOT_FOUND');
  const rows = await db.select().from(userIdentities).where(eq(userIdentities.userId, userId)).orderBy(userIdentities.createdAt, userIdentities.id);
  return { hasPassword: user.passwordHash !== null, identities: rows.map((r) => ({ provider: r.provider, email: r.email, createdAt: r.createdAt.toISOString() })) };
}

/**
 * Unlinks the account's identity of `provider`, as long as a way to sign in remains (a password or
 * another identity). The account's row is locked first, so two concurrent unlinks of the last two
 * identities of a password-less account cannot both succeed.
 * @throws AppError NOT_FOUND (no identity of that provider), LAST_SIGN_IN_METHOD
 */
export async function unlinkSocialIdentity(db: DbOrTx, userId: number, provider: SocialProviderName): Promise<void> {
  await inTransaction(db, async (tx) => {
    const [user] = await tx.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId)).for('update');
    if (!user) throw new AppError('NOT_FOUND');
    const [row] = await tx.select({ n: count() }).from(userIdentities).where(eq(userIdentities.userId, userId));
    const n = row?.n ?? 0;
    const [target] = await tx.select({ id: userIdentities.id }).from(userIdentities).where(and(eq(userIdentities.userId, userId), eq(userIdentities.provider, provider)));
    if (!target) throw new AppError('NOT_FOUND');
    if (user.passwordHash === null && n <= 1) throw new AppError('LAST_SIGN_IN_METHOD');
    await tx.delete(userIdentities).where(eq(userIdentities.id, target.id));
  });
}

/** Marks a session as having just completed a social sign-in or re-authentication (database clock). */
export async function markSocialReauth(db: DbOrTx, sessionId: string): Promise<void> {
  // Also the session's general re-authentication stamp, which account deletion checks (decision 020).
  await db.update(sessions).set({ socialReauthAt: sql`clock_timestamp()`, reauthenticatedAt: sql`clock_timestamp()` }).where(eq(sessions.id, sessionId));
}

/**
 * Whether the session completed a social sign-in or social re-authentication within the last
 * `maxAgeSeconds` (database clock): the "fresh social sign-in" that account deletion accepts from a
 * password-less account instead of a password (decision 021).
 * @param sessionId the session's id — `sessionIdFor(cookie token)`, or `SessionLookup.sessionId`
 * @param maxAgeSeconds how recent (s), e.g. 300
 */
export async function recentSocialReauth(db: DbOrTx, sessionId: string, maxAgeSeconds: number): Promise<boolean> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, sessionId), sql`${sessions.socialReauthAt} > clock_timestamp() - make_interval(secs => ${maxAgeSeconds})`));
  return rows.length > 0;
}
