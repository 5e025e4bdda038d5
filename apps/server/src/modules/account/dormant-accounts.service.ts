import { DORMANCY_RULES } from '@dewy/contracts';
import { and, eq, isNotNull, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { AppServices } from '../../context';
import { subscriptions, users } from '../../db/schema';
import { dormancyNoticeMail, mailDate } from '../../providers/mail/templates';
import { siteLink } from '../../lib/site-link';

/**
 * Dormant accounts (terms §14: "An account nobody has logged into for 1 year becomes dormant … You are
 * told by e-mail before this happens, and logging in again brings the account back"; spec 002 "Terms
 * of service": dormant accounts 1 year; decision 027). Run daily by the `dormant-accounts` system job.
 * The sign-in side (`users.last_login_at`, restoring at sign-in) is `recordSignIn` in session.service.
 */

export type DormancyServices = Pick<AppServices, 'config' | 'database' | 'mail' | 'log'>;

/** A notice claimed this long ago and not marked sent belongs to a run that died mid-send: it is taken again. */
const STALE_CLAIM_MS = 3600_000;

/**
 * Accounts the rule applies to: not deleted, no deletion pending, and not a paying customer: on the
 * free plan and with no subscription that has not ended (a subscription cancelled at period end still
 * counts until it ends; a first payment that never went through does not).
 */
const subjectToDormancy = and(
  isNull(users.deletedAt),
  isNull(users.deletionRequestedAt),
  eq(users.plan, 'free'),
  sql`not exists (select 1 from ${subscriptions} where ${subscriptions.userId} = ${users.id} and ${subscriptions.status} not in ('expired', 'incomplete_expired') and not (${subscriptions.status} = 'incomplete' and ${subscriptions.creditedPlan} is null))`,
);

/**
 * The `dormant-accounts` job, two steps:
 * 1. Notice: an account without a sign-in for a year less 30 days (DORMANCY_RULES.inactiveMs − noticeMs,
 *    i.e. 335 days) and not yet notified is mailed once, in its language (`users.locale`), with the day
 *    it becomes dormant. The notice is claimed (`dormancy_notice_at`, conditional update) before the
 *    send, so concurrent runs mail once, and marked sent (`dormancy_notice_sent_at`) after it; a failed
 *    send clears the claim and the next run retries; a claim left unsent for an hour (a run that died
 *    mid-send) is taken again, so a notice is sent at least once and, barring a send that takes an
 *    hour, exactly once.
 * 2. Dormant: an account without a sign-in for a year whose notice was sent at least 30 days ago gets
 *    `dormant_at` (one statement). A late notice (server down) therefore postpones dormancy rather
 *    than shortening the warning. Nothing else changes: the data, the credits (one-time ones included)
 *    and the row stay where they are; the next sign-in clears both marks (`recordSignIn`).
 * Unverified addresses are notified too: the notice is the only warning the owner can get.
 * @param opts.now the clock (tests); opts.batch notices per run (default 200)
 * @returns the ids notified and the ids made dormant by this run
 */
export async function processDormantAccounts(s: DormancyServices, opts: { now?: Date; batch?: number } = {}): Promise<{ notified: number[]; dormant: number[] }> {
  const now = opts.now ?? new Date();
  const db = s.database.db;
  const noticeCutoff = new Date(now.getTime() - (DORMANCY_RULES.inactiveMs - DORMANCY_RULES.noticeMs));
  const staleClaim = new Date(now.getTime() - STALE_CLAIM_MS);
  const noticeDue = and(
    subjectToDormancy,
    isNull(users.dormantAt),
    isNull(users.dormancyNoticeSentAt),
    or(isNull(users.dormancyNoticeAt), lt(users.dormancyNoticeAt, staleClaim)),
    lte(users.lastLoginAt, noticeCutoff),
  );
  const candidates = await db.select({ id: users.id }).from(users).where(noticeDue).limit(opts.batch ?? 200);

  const notified: number[] = [];
  for (const { id } of candidates) {
    const claimed = (
      await db
        .update(users)
        .set({ dormancyNoticeAt: now })
        .where(and(eq(users.id, id), noticeDue))
        .returning({ email: users.email, locale: users.locale, lastLoginAt: users.lastLoginAt })
    )[0];
    if (!claimed) continue; // another run, or a sign-in meanwhile
    const becomesDormant = new Date(Math.max(claimed.lastLoginAt.getTime() + DORMANCY_RULES.inactiveMs, now.getTime() + DORMANCY_RULES.noticeMs));
    try {
      await s.mail.send(dormancyNoticeMail(claimed.locale, claimed.email, { date: mailDate(becomesDormant, claimed.locale), loginUrl: siteLink(s.config, claimed.locale, '/login') }));
    } catch (err) {
      await db.update(users).set({ dormancyNoticeAt: null }).where(and(eq(users.id, id), eq(users.dormancyNoticeAt, now)));
      s.log.warn({ err, userId: id }, 'dormancy notice failed; retried next run');
      continue;
    }
    // The dormancy clock starts at the send (the notice's date is at least 30 days after it).
    await db.update(users).set({ dormancyNoticeSentAt: now }).where(and(eq(users.id, id), eq(users.dormancyNoticeAt, now)));
    notified.push(id);
  }

  const dormant = (
    await db
      .update(users)
      .set({ dormantAt: now })
      .where(
        and(
          subjectToDormancy,
          isNull(users.dormantAt),
          lte(users.lastLoginAt, new Date(now.getTime() - DORMANCY_RULES.inactiveMs)),
          isNotNull(users.dormancyNoticeSentAt),
          lte(users.dormancyNoticeSentAt, new Date(now.getTime() - DORMANCY_RULES.noticeMs)),
        ),
      )
      .returning({ id: users.id })
  ).map((r) => r.id);
  if (notified.length || dormant.length) s.log.info({ notified: notified.length, dormant: dormant.length }, 'dormant accounts');
  return { notified, dormant };
}
