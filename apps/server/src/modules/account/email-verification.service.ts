import { ACCOUNT_RULES } from '@dewy/contracts';
import { eq, isNull, and } from 'drizzle-orm';
import { users, type UserRow } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { verificationMail } from '../../providers/mail/templates';
import { type SignupHooks, grantWelcomeCreditsOnce } from '../auth';
import { consumeAccountToken, issueAccountToken } from './account-tokens';
import { siteLink } from '../../lib/site-link';
import type { AccountServices } from './account-services';
import { announceUserChanged } from '../../lib/user-changes';

/**
 * Mails a verification link for the user's current address (decision 020), valid
 * ACCOUNT_RULES.verifyTokenTtlMs, in the account's language. Earlier links stay valid until they expire.
 * @throws the mail transport's error (the caller decides whether that fails its request)
 */
export async function sendVerificationEmail(s: AccountServices, user: UserRow, now: Date = new Date()): Promise<void> {
  const token = await issueAccountToken(s.database.db, s.secret, { userId: user.id, purpose: 'verify_email', emailNormalized: user.emailNormalized, ttlMs: ACCOUNT_RULES.verifyTokenTtlMs, now });
  const url = siteLink(s.config, user.locale, `/verify-email?token=${encodeURIComponent(token)}`);
  await s.mail.send(verificationMail(user.locale, user.email, { name: user.nickname, url, hours: Math.round(ACCOUNT_RULES.verifyTokenTtlMs / 3600_000), welcomeCredits: s.config.welcomeCredits }));
  s.log.info({ userId: user.id }, 'verification mail sent');
}

/**
 * The account module's part of an e-mail sign-up (auth's `SignupHooks`, which the route index hands to
 * `authRoutes`; decision 039): the verification link for the new account.
 */
export function signupHooks(s: AccountServices): SignupHooks {
  return { accountCreated: (user) => sendVerificationEmail(s, user) };
}

/**
 * POST /api/auth/verify-email: uses a verification link once; marks the address verified and grants
 * the welcome credits once per address ever (`grantWelcomeCreditsOnce`), in one transaction.
 * @returns the user id and the credits granted (0 when the address had them before or was verified already)
 * @throws AppError TOKEN_INVALID (also: the account's address changed or the account is gone), TOKEN_USED, TOKEN_EXPIRED
 */
export async function verifyEmail(s: AccountServices, token: string, now: Date = new Date()): Promise<{ userId: number; welcomeCredits: number }> {
  const result = await inTransaction(s.database.db, async (tx) => {
    const row = await consumeAccountToken(tx, s.secret, token, 'verify_email', now);
    const user = (await tx.select().from(users).where(eq(users.id, row.userId)).for('update'))[0];
    if (!user || user.deletedAt || user.emailNormalized !== row.emailNormalized) throw new AppError('TOKEN_INVALID');
    await tx.update(users).set({ emailVerifiedAt: now, updatedAt: now }).where(and(eq(users.id, user.id), isNull(users.emailVerifiedAt)));
    const granted = await grantWelcomeCreditsOnce(tx, { userId: user.id, email: user.emailNormalized, amount: s.config.welcomeCredits });
    s.log.info({ userId: user.id, granted }, 'e-mail verified');
    return { userId: user.id, welcomeCredits: granted ? s.config.welcomeCredits : 0 };
  });
  // The session answer carries email_verified (decision 026: user-row writers forget the cached user).
  announceUserChanged(result.userId);
  return result;
}
