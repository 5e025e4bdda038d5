import { ACCOUNT_RULES, type Locale } from '@dewy/contracts';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { passwordResetMail } from '../../providers/mail/templates';
import { hashPassword, deleteOtherSessionsOfUser } from '../auth';
import { findUserByEmail, normalizeEmail } from '../users';
import { consumeAccountToken, issueAccountToken, spendAccountTokens } from './account-tokens';
import { siteLink } from '../../lib/site-link';
import type { AccountServices } from './account-services';

/**
 * The work behind POST /api/auth/forgot-password (decision 020): when an account (not purged) has this
 * address, mails it a single-use reset link valid ACCOUNT_RULES.resetTokenTtlMs in `locale`; otherwise
 * does nothing. The route answers before this finishes, the same for both cases (no enumeration).
 * @returns whether a mail was sent (tests and logs only; never the caller's answer)
 */
export async function requestPasswordReset(s: AccountServices, email: string, locale: Locale, now: Date = new Date()): Promise<boolean> {
  const user = await findUserByEmail(s.database.db, normalizeEmail(email));
  if (!user || user.deletedAt) return false;
  const token = await issueAccountToken(s.database.db, s.secret, { userId: user.id, purpose: 'reset_password', emailNormalized: user.emailNormalized, ttlMs: ACCOUNT_RULES.resetTokenTtlMs, now });
  const url = siteLink(s.config, locale, `/reset-password?token=${encodeURIComponent(token)}`);
  await s.mail.send(passwordResetMail(locale, user.email, { url, minutes: Math.round(ACCOUNT_RULES.resetTokenTtlMs / 60_000) }));
  s.log.info({ userId: user.id }, 'password reset mail sent');
  return true;
}

/**
 * POST /api/auth/reset-password: uses a reset link once, sets the new password (sign-up's rule, checked
 * by the contract), spends the user's other reset links and ends every other session of the account
 * (`keepSessionId`: the caller's own session when it is this user's), all in one transaction.
 * @throws AppError TOKEN_INVALID, TOKEN_USED, TOKEN_EXPIRED
 */
export async function resetPassword(s: AccountServices, a: { token: string; password: string; keepSessionId: string | null; now?: Date }): Promise<{ userId: number }> {
  const now = a.now ?? new Date();
  const passwordHash = await hashPassword(a.password); // argon2 before the transaction: no lock held while it runs
  return inTransaction(s.database.db, async (tx) => {
    const row = await consumeAccountToken(tx, s.secret, a.token, 'reset_password', now);
    const updated = await tx.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, row.userId)).returning({ id: users.id, emailNormalized: users.emailNormalized, deletedAt: users.deletedAt });
    const u = updated[0];
    if (!u || u.deletedAt || u.emailNormalized !== row.emailNormalized) throw new AppError('TOKEN_INVALID');
    await spendAccountTokens(tx, u.id, 'reset_password', now);
    await deleteOtherSessionsOfUser(tx, u.id, a.keepSessionId);
    s.log.info({ userId: u.id }, 'password reset; other sessions ended');
    return { userId: u.id };
  });
}
