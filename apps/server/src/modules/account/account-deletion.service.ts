import { ACCOUNT_RULES, type Locale } from '@dewy/contracts';
import { and, eq, isNotNull, isNull, lte } from 'drizzle-orm';
import type { AppServices } from '../../context';
import { accountTokens, apiIdempotencyKeys, apiKeys, affiliateClicks, batches, affiliateCodes, aiMessages, meteredCalls, aiThreads, jobs, notices, uploads, userIdentities, users, type UserRow } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError, isAppError } from '../../lib/app-error';
import { hitFixedWindow } from '../../lib/rate-limit';
import { deletionRequestedMail } from '../../providers/mail/templates';
import { verifyPassword, deleteSessionsOfUser, sessionReauthenticatedAt } from '../auth';
import { deleteSignInEventsOfUser } from '../users';
import { cancelSubscription } from '../billing';
import { siteLink } from '../../lib/site-link';
import type { AccountServices } from './account-services';

/** Whether the account can sign in with a password (a social-only account has none). */
export function hasPassword(user: Pick<UserRow, 'passwordHash'>): boolean {
  return Boolean(user.passwordHash);
}

/**
 * POST /api/account/delete (002 §9, decision 020). Proof: the password, or for a social-only account a
 * session whose `reauthenticated_at` (its sign-in, or `markSessionReauthenticated` after a fresh social
 * sign-in) is within ACCOUNT_RULES.reauthFreshMs. Wrong passwords are limited per account. Then, in
 * this order: an active subscription is cancelled at the provider (through the billing service; a
 * provider failure refuses the request with nothing changed), and in one transaction the account is
 * disabled (deletion due in 14 days) and every session of it ended. A confirmation mail follows (best effort).
 * @throws AppError PASSWORD_REQUIRED, WRONG_PASSWORD, REAUTHENTICATION_REQUIRED, RATE_LIMITED, PAYMENT_PROVIDER_ERROR
 */
export async function requestAccountDeletion(
  s: AccountServices,
  user: UserRow,
  a: { password?: string; sessionId: string | null; locale: Locale; now?: Date },
): Promise<{ deletionDueAt: Date; subscriptionCancelled: boolean }> {
  const now = a.now ?? new Date();
  const db = s.database.db;
  const hash = hasPassword(user) ? user.passwordHash : null;
  if (hash) {
    if (!a.password) throw new AppError('PASSWORD_REQUIRED');
    const { hits, ttlMs } = await hitFixedWindow(db, `account-delete:${user.id}`, ACCOUNT_RULES.deletionAttempts.windowMs);
    if (hits > ACCOUNT_RULES.deletionAttempts.max) throw new AppError('RATE_LIMITED', { message: 'deletion attempts', details: { retryAfterSeconds: Math.ceil(ttlMs / 1000) } });
    if (!(await verifyPassword(hash, a.password))) throw new AppError('WRONG_PASSWORD');
  } else {
    const at = a.sessionId ? await sessionReauthenticatedAt(db, a.sessionId) : null;
    if (!at || now.getTime() - at.getTime() > ACCOUNT_RULES.reauthFreshMs) throw new AppError('REAUTHENTICATION_REQUIRED');
  }

  let subscriptionCancelled = false;
  if (s.payments) {
    try {
      const r = await cancelSubscription(s, user);
      subscriptionCancelled = !r.alreadyScheduled;
    } catch (err) {
      if (!isAppError(err, 'NO_SUBSCRIPTION') && !isAppError(err, 'SUBSCRIPTION_ENDED')) throw err;
    }
  }

  const deletionDueAt = new Date(now.getTime() + ACCOUNT_RULES.deletionGraceMs);
  await inTransaction(db, async (tx) => {
    await tx.update(users).set({ deletionRequestedAt: now, deletionDueAt, updatedAt: now }).where(and(eq(users.id, user.id), isNull(users.deletionRequestedAt)));
    await deleteSessionsOfUser(tx, user.id);
  });
  s.log.info({ userId: user.id, deletionDueAt, subscriptionCancelled }, 'account deletion requested');
  const dueDate = new Intl.DateTimeFormat(a.locale === 'ko' ? 'ko-KR' : 'en-US', { dateStyle: 'long', timeZone: 'Asia/Seoul' }).format(deletionDueAt);
  await s.mail
    .send(deletionRequestedMail(a.locale, user.email, { dueDate, loginUrl: siteLink(s.config, a.locale, '/login') }))
    .catch((err: unknown) => s.log.warn({ err, userId: user.id }, 'deletion confirmation mail failed'));
  return { deletionDueAt, subscriptionCancelled };
}

/** Storage keys of everything a user uploaded or had produced. */
async function storageKeysOf(s: Pick<AppServices, 'database'>, userId: number): Promise<string[]> {
  const db = s.database.db;
  const up = await db.select({ key: uploads.key, incoming: uploads.incomingKey }).from(uploads).where(eq(uploads.userId, userId));
  const im = await db.select({ o: jobs.originalKey, r: jobs.resultKey, rs: jobs.resultKeys }).from(jobs).where(eq(jobs.userId, userId));
  const keys = new Set<string>();
  for (const u of up) [u.key, u.incoming].forEach((k) => k && keys.add(k));
  for (const i of im) [i.o, i.r, ...(Array.isArray(i.rs) ? i.rs : [])].forEach((k) => k && keys.add(k));
  return [...keys];
}

/**
 * Tables that keep rows of a purged account under its anonymous tombstone, each with the reason
 * (decision 020, 032). Every other table that references `users` is emptied of the account by
 * {@link purgeDeletedAccounts}; `account-purge.test.ts` walks the drizzle schema's foreign keys and fails
 * for a table that is neither emptied nor listed here, so a new table cannot be forgotten.
 */
export const PURGE_RETAINED_TABLES: Readonly<Record<string, string>> = {
  credit_ledger: 'the credit ledger: billing records the law requires us to keep (decision 020)',
  subscription_credit_periods: 'the credit ledger\'s subscription periods, which its rows point at (decisions 020, 029)',
  billing_checkouts: 'billing records (decision 020)',
  subscriptions: 'billing records (decision 020)',
  billing_payments: 'billing records (decision 020)',
  renewal_reminders: 'the record of mails sent about a kept subscription (decision 027)',
  billing_mails: 'the record of billing mails sent about kept billing records (decision 041): event keys only, no address',
  welcome_grants: 'the once-per-address-ever welcome rule: an address hash, no address (decision 020)',
  affiliate_referrals: 'who referred whom: money records behind the sharer\'s rewards and their reversal (decision 013)',
  affiliate_rewards: 'rewards paid to the sharer: money records (decision 013)',
};

/**
 * The scheduled purge (pg-boss `account-purge`, hourly; 002 §9): accounts whose 14-day grace has
 * passed are deleted for good. Per account: every stored file (uploads, originals, results; local or
 * S3) is deleted first — a storage failure skips the account until the next run —, then in one
 * transaction its history and upload rows, tokens, sessions, sign-in history, social identities, affiliate
 * code/clicks, AI chat threads, messages and requests are deleted, notices it wrote lose their author, and
 * the user row becomes an anonymous tombstone (no e-mail, name or password) kept for the credit ledger
 * and billing rows, which the law on billing records requires us to keep (decision 020; the full list with
 * reasons: {@link PURGE_RETAINED_TABLES}). The address's
 * welcome-grant hash stays, so a new account of the same address gets no welcome credits.
 * @param opts.now the clock (tests); opts.batch accounts per run
 * @returns the ids purged
 */
export async function purgeDeletedAccounts(s: Pick<AppServices, 'database' | 'storage' | 'log'>, opts: { now?: Date; batch?: number } = {}): Promise<number[]> {
  const now = opts.now ?? new Date();
  const db = s.database.db;
  const due = await db
    .select({ id: users.id })
    .from(users)
    .where(and(isNotNull(users.deletionRequestedAt), lte(users.deletionDueAt, now), isNull(users.deletedAt)))
    .limit(opts.batch ?? 50);
  const purged: number[] = [];
  for (const { id } of due) {
    try {
      for (const key of await storageKeysOf(s, id)) await s.storage.delete(key);
    } catch (err) {
      s.log.warn({ err, userId: id }, 'account purge: file delete failed; retried next run');
      continue;
    }
    const done = await inTransaction(db, async (tx) => {
      const tomb = `deleted-${id}@deleted.invalid`;
      const rows = await tx
        .update(users)
        .set({ email: tomb, emailNormalized: tomb, nickname: '', passwordHash: '', emailVerifiedAt: null, deletedAt: now, updatedAt: now })
        .where(and(eq(users.id, id), isNotNull(users.deletionRequestedAt), lte(users.deletionDueAt, now), isNull(users.deletedAt)))
        .returning({ id: users.id });
      if (!rows.length) return false; // undone meanwhile
      // The batches name the customer's files; their photos go with them (before the jobs they point at).
      await tx.delete(batches).where(eq(batches.userId, id));
      await tx.delete(jobs).where(eq(jobs.userId, id));
      await tx.delete(uploads).where(eq(uploads.userId, id));
      // After the jobs that name them (jobs.api_key_id).
      await tx.delete(apiKeys).where(eq(apiKeys.userId, id));
      await tx.delete(apiIdempotencyKeys).where(eq(apiIdempotencyKeys.userId, id));
      await tx.delete(accountTokens).where(eq(accountTokens.userId, id));
      await tx.delete(userIdentities).where(eq(userIdentities.userId, id));
      await tx.delete(affiliateClicks).where(eq(affiliateClicks.sharerId, id));
      await tx.delete(affiliateCodes).where(eq(affiliateCodes.userId, id));
      // The AI chat and rewrite conversations (what the customer wrote) and the metered calls behind them; the
      // charges stay in the ledger. Messages first: they reference the threads.
      await tx.delete(aiMessages).where(eq(aiMessages.userId, id));
      await tx.delete(aiThreads).where(eq(aiThreads.userId, id));
      await tx.delete(meteredCalls).where(eq(meteredCalls.userId, id));
      // Notices are public content: they stay, without their author's id and name.
      await tx.update(notices).set({ createdBy: null, authorName: null }).where(eq(notices.createdBy, id));
      await deleteSignInEventsOfUser(tx, id); // the sign-in history (decision 031)
      await deleteSessionsOfUser(tx, id);
      return true;
    });
    if (done) purged.push(id);
  }
  if (purged.length) s.log.info({ count: purged.length }, 'account purge: accounts deleted for good');
  return purged;
}
