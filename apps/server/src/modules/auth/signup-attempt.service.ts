import { createHash } from 'node:crypto';
import type { UserRow } from '../../db/schema';
import { hitFixedWindow } from '../../lib/rate-limit';
import { signupAttemptMail } from '../../providers/mail/templates';
import { siteLink } from '../../lib/site-link';
import type { AppServices } from '../../context';

/** At most one "someone tried to sign up with your address" mail per address in this window (ms): one a day. */
export const SIGNUP_ATTEMPT_MAIL_WINDOW_MS = 24 * 3_600_000;

/**
 * Tells the owner of an address that someone tried to sign up with it (issue 21 point 10, decision
 * 031): the sign-up page answers exactly as for a new address, and this mail, in the owner's language,
 * says so and how to sign in or reset the password. Throttled in `rate_limits`
 * (`signup:attempt-mail:<SHA-256 of the address>`, SIGNUP_ATTEMPT_MAIL_WINDOW_MS) so repeated sign-ups
 * cannot be used to spam the owner. Purged accounts get nothing.
 * @returns whether a mail was sent
 * @throws the mail transport's error (the caller logs it: it must not change the sign-up's answer)
 */
export async function notifySignupAttempt(s: Pick<AppServices, 'config' | 'database' | 'mail' | 'log'>, owner: UserRow): Promise<boolean> {
  if (owner.deletedAt) return false;
  const key = `signup:attempt-mail:${createHash('sha256').update(owner.emailNormalized).digest('hex')}`;
  const { hits } = await hitFixedWindow(s.database.db, key, SIGNUP_ATTEMPT_MAIL_WINDOW_MS);
  if (hits > 1) return false;
  await s.mail.send(signupAttemptMail(owner.locale, owner.email, { loginUrl: siteLink(s.config, owner.locale, '/login'), resetUrl: siteLink(s.config, owner.locale, '/forgot-password') }));
  s.log.info({ userId: owner.id }, 'sign-up attempt mail sent');
  return true;
}
