import { and, asc, eq, gt, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import { DEFAULT_PRICES, RENEWAL_REMINDER_DAYS, toMajorUnits, type Currency, type Locale, type PaidPlan, type PriceTable, type SubscriptionStatus } from '@dewy/contracts';
import type { AppServices } from '../../context';
import { renewalReminders, subscriptions, users } from '../../db/schema';
import { mailDate, renewalReminderMail } from '../../providers/mail/templates';
import { siteLink } from '../../lib/site-link';
import { planName } from './billing-mails';

/**
 * Renewal reminders (terms §7 and refund policy: "The Company e-mails you 7, 3 and 1 day before each
 * renewal with the date and the amount"; spec 002 "Terms of service": renewal reminders 7, 3 and 1 day
 * before; decision 027). Run hourly by the `renewal-reminders` system job.
 */

export type ReminderServices = Pick<AppServices, 'config' | 'database' | 'mail' | 'log'>;

const DAY_MS = 86_400_000;
/** A claim left without `sent_at` this long belongs to a worker that died mid-send: it may be claimed again. */
const STALE_CLAIM_MS = 3600_000;
/** Subscription statuses that renew at `current_period_end` (a trial's end is its first charge). */
const RENEWING_STATUSES: SubscriptionStatus[] = ['active', 'trialing'];

/**
 * The reminder that is due for a renewal `msLeft` ms away: the smallest threshold (in days) that
 * `msLeft` is within, so a run that missed the 7-day mark by two days still sends the 7-day one, and
 * once the 3-day mark has passed the 7-day one is never sent. Null when the renewal is more than 7
 * days away or already past.
 */
export function dueThreshold(msLeft: number): number | null {
  if (msLeft <= 0) return null;
  const ascending = [...RENEWAL_REMINDER_DAYS].sort((a, b) => a - b);
  return ascending.find((d) => msLeft <= d * DAY_MS) ?? null;
}

/**
 * A plan's monthly price in the subscription's currency (the price table in force, minor units) in the
 * reader's language ('US$9' / '$9', '₩12,600'): a won subscriber is reminded of what it will be charged.
 */
export function formatPlanPrice(plan: PaidPlan, locale: Locale, currency: Currency = 'usd', prices: PriceTable = DEFAULT_PRICES): string {
  const major = toMajorUnits(prices[plan][currency], currency);
  return new Intl.NumberFormat(locale === 'ko' ? 'ko-KR' : 'en-US', { style: 'currency', currency: currency.toUpperCase(), minimumFractionDigits: Number.isInteger(major) ? 0 : 2 }).format(major);
}

/**
 * The `renewal-reminders` job: mails every owner whose subscription renews within 7, 3 or 1 day(s) the
 * reminder for that threshold, once per (subscription, renewal date, threshold).
 *
 * Which subscriptions: `subscriptions` rows (our copy of the provider's subscription, the source of
 * `renews_at` and of `users.next_renewal_date`) with status `active` or `trialing`, not cancelling at
 * period end, whose `current_period_end` is within 7 days; the owner not deleted nor pending deletion.
 * Unverified addresses get it too: the terms promise it to every subscriber, and it is the address the
 * customer signed up (and paid) with. The amount is the price of the plan the renewal charges (a
 * scheduled downgrade's plan, else the current one) from the price table in force, in the
 * subscription's currency.
 *
 * Exactly once: each reminder is claimed by one `INSERT … ON CONFLICT DO UPDATE … WHERE` on the unique
 * (subscription, period end, threshold) before the mail goes out, so of concurrent runs (two workers,
 * retries) only one sends. A send that fails deletes the claim, so the next hourly run retries it. A
 * claim whose worker died between claim and send is taken again after an hour (`sent_at` still null):
 * a send is never retried while it may still be under way, and a crash loses at most that hour, so
 * the rule is at-least-once for failures and effectively once for concurrency (a duplicate needs a send
 * that takes over an hour). A missed threshold sends only the most relevant one (`dueThreshold`), and
 * nothing is sent for a threshold larger than one already claimed for the same renewal.
 *
 * @param opts.now the clock (tests); opts.batch subscriptions per page (default 200; a run visits every page)
 * @returns how many mails were sent and how many failed (released for the next run)
 */
export async function sendRenewalReminders(s: ReminderServices, opts: { now?: Date; batch?: number } = {}): Promise<{ sent: number; failed: number }> {
  const now = opts.now ?? new Date();
  const db = s.database.db;
  const horizon = new Date(now.getTime() + Math.max(...RENEWAL_REMINDER_DAYS) * DAY_MS);
  const batch = opts.batch ?? 200;
  let sent = 0;
  let failed = 0;
  // Keyset pages over (current_period_end, id): every due subscription is visited in one run however
  // many there are (a page of reminders already sent must not hide the ones after it).
  let after: { end: Date; id: number } | null = null;
  for (;;) {
    const due: DueRow[] = await db
      .select({ sub: subscriptions, email: users.email, locale: users.locale })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(
        and(
          inArray(subscriptions.status, RENEWING_STATUSES),
          eq(subscriptions.cancelAtPeriodEnd, false),
          gt(subscriptions.currentPeriodEnd, now),
          lte(subscriptions.currentPeriodEnd, horizon),
          isNull(users.deletedAt),
          isNull(users.deletionRequestedAt),
          after ? or(gt(subscriptions.currentPeriodEnd, after.end), and(eq(subscriptions.currentPeriodEnd, after.end), gt(subscriptions.id, after.id))) : undefined,
        ),
      )
      .orderBy(asc(subscriptions.currentPeriodEnd), asc(subscriptions.id))
      .limit(batch);
    if (!due.length) break;
    const r = await remindPage(s, due, now);
    sent += r.sent;
    failed += r.failed;
    if (due.length < batch) break;
    const last: DueRow['sub'] = due[due.length - 1]!.sub;
    after = { end: last.currentPeriodEnd, id: last.id };
  }
  if (sent || failed) s.log.info({ sent, failed }, 'renewal reminders');
  return { sent, failed };
}

type DueRow = { sub: typeof subscriptions.$inferSelect; email: string; locale: Locale };

/** Claims and sends the reminders due for one page of subscriptions (see sendRenewalReminders). */
async function remindPage(s: ReminderServices, due: DueRow[], now: Date): Promise<{ sent: number; failed: number }> {
  const db = s.database.db;
  let sent = 0;
  let failed = 0;
  // Thresholds already claimed per renewal: a larger one is never sent after a smaller one.
  const claimed = await db
    .select({ subscriptionId: renewalReminders.subscriptionId, periodEnd: renewalReminders.periodEnd, thresholdDays: renewalReminders.thresholdDays })
    .from(renewalReminders)
    .where(inArray(renewalReminders.subscriptionId, due.map((d) => d.sub.id)));
  const smallestClaimed = new Map<string, number>();
  for (const c of claimed) {
    const key = `${c.subscriptionId}:${c.periodEnd.getTime()}`;
    smallestClaimed.set(key, Math.min(smallestClaimed.get(key) ?? Infinity, c.thresholdDays));
  }

  for (const { sub, email, locale } of due) {
    const threshold = dueThreshold(sub.currentPeriodEnd.getTime() - now.getTime());
    if (threshold === null) continue;
    if (threshold > (smallestClaimed.get(`${sub.id}:${sub.currentPeriodEnd.getTime()}`) ?? Infinity)) continue;
    const claim = await db
      .insert(renewalReminders)
      .values({ subscriptionId: sub.id, userId: sub.userId, periodEnd: sub.currentPeriodEnd, thresholdDays: threshold, claimedAt: now })
      .onConflictDoUpdate({
        target: [renewalReminders.subscriptionId, renewalReminders.periodEnd, renewalReminders.thresholdDays],
        set: { claimedAt: now },
        setWhere: sql`${renewalReminders.sentAt} is null and ${renewalReminders.claimedAt} < ${new Date(now.getTime() - STALE_CLAIM_MS).toISOString()}::timestamptz`,
      })
      .returning({ id: renewalReminders.id });
    const id = claim[0]?.id;
    if (!id) continue; // another run has it
    const plan = sub.nextPlan ?? sub.plan;
    const mail = renewalReminderMail(locale, email, {
      planName: planName(plan, locale),
      date: mailDate(sub.currentPeriodEnd, locale),
      amount: formatPlanPrice(plan, locale, sub.currency, s.config.payments.prices),
      days: Math.ceil((sub.currentPeriodEnd.getTime() - now.getTime()) / DAY_MS),
      manageUrl: siteLink(s.config, locale, '/mypage'),
    });
    try {
      await s.mail.send(mail);
    } catch (err) {
      failed++;
      await db.delete(renewalReminders).where(and(eq(renewalReminders.id, id), isNull(renewalReminders.sentAt)));
      s.log.warn({ err, userId: sub.userId, subscriptionId: sub.id, thresholdDays: threshold }, 'renewal reminder failed; retried next run');
      continue;
    }
    await db.update(renewalReminders).set({ sentAt: now }).where(eq(renewalReminders.id, id));
    sent++;
  }
  return { sent, failed };
}
