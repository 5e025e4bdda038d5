import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { buildUser } from '../../../test/helpers/factories';
import { readOutbox } from '../../../test/helpers/outbox';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app';
import { renewalReminders, subscriptions, users, type UserRow } from '../../db/schema';
import { dueThreshold, sendRenewalReminders } from './renewal-reminders.service';

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The renewal every test is about: 1 December 2026, 12:00 KST. */
const RENEWAL = new Date('2026-12-01T03:00:00Z');
const before = (ms: number) => new Date(RENEWAL.getTime() - ms);

describe('dueThreshold', () => {
  it('picks the smallest threshold the time left is within; none beyond 7 days or after the renewal', () => {
    expect(dueThreshold(8 * DAY)).toBeNull();
    expect(dueThreshold(7 * DAY)).toBe(7);
    expect(dueThreshold(5 * DAY)).toBe(7);
    expect(dueThreshold(3 * DAY)).toBe(3);
    expect(dueThreshold(2 * DAY)).toBe(3);
    expect(dueThreshold(DAY)).toBe(1);
    expect(dueThreshold(HOUR)).toBe(1);
    expect(dueThreshold(0)).toBeNull();
  });
});

/**
 * Renewal reminders (terms §7, refund policy; decision 027) on PGlite and PostgreSQL, with a controlled
 * clock: once per (subscription, renewal, threshold) even when runs repeat or overlap, the most relevant
 * one after a missed threshold, none for a cancelling subscription, date and amount in the reader's
 * language, and a failed send retried by the next run.
 */
describe.each(TEST_DATABASES)('renewal reminders on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(async () => {
    await t.ctx.database.db.delete(subscriptions); // each test alone with its subscriptions (reminders cascade)
  });
  const db = () => t.ctx.database.db;
  const mailsTo = (u: UserRow) => readOutbox(path.join(t.dataDir, 'outbox')).filter((m) => m.to.includes(u.email));
  const run = (now: Date) => sendRenewalReminders(t.ctx, { now });

  async function subscriber(o: { locale?: 'ko' | 'en'; plan?: 'basic' | 'deluxe' | 'premium'; nextPlan?: 'basic' | 'deluxe' | 'premium'; cancelAtPeriodEnd?: boolean; status?: string; currency?: 'usd' | 'krw' } = {}) {
    const plan = o.plan ?? 'basic';
    const user = await buildUser(db(), { locale: o.locale ?? 'en', plan, email: `sub-${randomBytes(4).toString('hex')}@example.com` });
    const sub = (
      await db()
        .insert(subscriptions)
        .values({
          userId: user.id, provider: 'sandbox', providerSubscriptionId: `sub_${randomBytes(6).toString('hex')}`, plan, nextPlan: o.nextPlan ?? null,
          status: o.status ?? 'active', currentPeriodStart: new Date(RENEWAL.getTime() - 30 * DAY), currentPeriodEnd: RENEWAL,
          cancelAtPeriodEnd: o.cancelAtPeriodEnd ?? false, providerCreatedAt: new Date(RENEWAL.getTime() - 30 * DAY), creditedPlan: plan,
          currency: o.currency ?? 'usd',
        })
        .returning()
    )[0]!;
    return { user, sub };
  }

  it('a renewal in 7 days gets one 7-day mail with the date and amount (English), however often the job runs', async () => {
    const { user, sub } = await subscriber({ locale: 'en', plan: 'basic' });
    const at = before(7 * DAY - HOUR);
    expect(await run(before(7 * DAY + HOUR))).toEqual({ sent: 0, failed: 0 }); // 7 days and an hour: not yet
    expect(await run(at)).toEqual({ sent: 1, failed: 0 });
    expect(await run(at)).toEqual({ sent: 0, failed: 0 });
    await Promise.all(Array.from({ length: 5 }, () => run(new Date(at.getTime() + HOUR))));
    const mails = mailsTo(user);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('[Dewy] Your subscription renews in 7 days');
    expect(mails[0]!.body).toContain('Your Basic plan renews automatically on December 1, 2026 (KST), and $9 will be charged.');
    expect(mails[0]!.body).toContain(`${t.ctx.config.publicUrl}/en/mypage`);
    const rows = await db().select().from(renewalReminders).where(eq(renewalReminders.subscriptionId, sub.id));
    expect(rows).toMatchObject([{ thresholdDays: 7, periodEnd: RENEWAL, userId: user.id }]);
    expect(rows[0]!.sentAt).not.toBeNull();
  });

  it('visits every due subscription in one run, page after page (reminders already sent do not hide the rest)', async () => {
    const subs = [];
    for (let i = 0; i < 7; i++) subs.push(await subscriber());
    // the first three got their 7-day reminder in an earlier run
    for (const { sub, user } of subs.slice(0, 3)) {
      await db().insert(renewalReminders).values({ subscriptionId: sub.id, userId: user.id, periodEnd: RENEWAL, thresholdDays: 7, claimedAt: before(7 * DAY), sentAt: before(7 * DAY) });
    }
    const r = await sendRenewalReminders(t.ctx, { now: before(6 * DAY), batch: 2 });
    expect(r).toEqual({ sent: 4, failed: 0 });
    for (const { user } of subs.slice(0, 3)) expect(mailsTo(user)).toHaveLength(0);
    for (const { user } of subs.slice(3)) expect(mailsTo(user)).toHaveLength(1);
  });

  it('five parallel first runs send one mail', async () => {
    const { user } = await subscriber();
    const results = await Promise.all(Array.from({ length: 5 }, () => run(before(6 * DAY))));
    expect(results.reduce((n, r) => n + r.sent, 0)).toBe(1);
    expect(mailsTo(user)).toHaveLength(1);
  });

  it('then 3 days and 1 day before, one each, in Korean with the plan the renewal charges', async () => {
    const { user } = await subscriber({ locale: 'ko', plan: 'premium', nextPlan: 'deluxe' });
    await run(before(7 * DAY - HOUR));
    for (const at of [before(3 * DAY - HOUR), before(3 * DAY - 2 * HOUR)]) await run(at);
    await Promise.all(Array.from({ length: 5 }, () => run(before(3 * DAY - 3 * HOUR))));
    await Promise.all(Array.from({ length: 5 }, () => run(before(DAY - HOUR))));
    await run(before(HOUR));
    await run(new Date(RENEWAL.getTime() + HOUR)); // after the renewal: nothing
    const mails = mailsTo(user);
    expect(mails.map((m) => m.subject)).toEqual(['[Dewy] 7일 후 구독이 갱신됩니다', '[Dewy] 3일 후 구독이 갱신됩니다', '[Dewy] 1일 후 구독이 갱신됩니다']);
    for (const m of mails) expect(m.body).toContain('디럭스 플랜 구독이 2026년 12월 1일에 자동으로 갱신되며, US$19가 결제됩니다.');
    expect(mails[0]!.body).toContain(`${t.ctx.config.publicUrl}/mypage`);
  });

  it('a subscription bought in won is reminded of its won price (issue 25), in Korean and English', async () => {
    const ko = await subscriber({ locale: 'ko', plan: 'basic', currency: 'krw' });
    const en = await subscriber({ locale: 'en', plan: 'deluxe', currency: 'krw' });
    await run(before(7 * DAY - HOUR));
    expect(mailsTo(ko.user)[0]!.body).toContain('베이직 플랜 구독이 2026년 12월 1일에 자동으로 갱신되며, ₩12,600가 결제됩니다.');
    expect(mailsTo(en.user)[0]!.body).toContain('₩26,600');
    expect(mailsTo(en.user)[0]!.body).not.toContain('$');
  });

  it('a missed threshold sends only the most relevant reminder, never a larger one after a smaller', async () => {
    const late7 = await subscriber(); // server down on day 7, back on day 5
    await run(before(5 * DAY));
    expect(mailsTo(late7.user).map((m) => m.subject)).toEqual(['[Dewy] Your subscription renews in 5 days']);

    await db().delete(subscriptions);
    const late3 = await subscriber(); // down from day 8 to day 2: the 3-day one only
    await run(before(2 * DAY));
    await run(before(6 * DAY)); // a worker with a clock behind: no 7-day mail after the 3-day one
    await run(before(2 * DAY - HOUR));
    expect(mailsTo(late3.user).map((m) => m.subject)).toEqual(['[Dewy] Your subscription renews in 2 days']);
    const rows = await db().select().from(renewalReminders).where(eq(renewalReminders.subscriptionId, late3.sub.id));
    expect(rows.map((r) => r.thresholdDays)).toEqual([3]);
  });

  it('no reminder for a cancelling or ended subscription, nor for an account being deleted', async () => {
    const cancelling = await subscriber({ cancelAtPeriodEnd: true });
    const ended = await subscriber({ status: 'expired' });
    const leaving = await subscriber();
    await db().update(users).set({ deletionRequestedAt: before(10 * DAY), deletionDueAt: new Date(RENEWAL.getTime() + 4 * DAY) }).where(eq(users.id, leaving.user.id));
    for (const at of [before(7 * DAY - HOUR), before(3 * DAY - HOUR), before(DAY - HOUR)]) expect(await run(at)).toEqual({ sent: 0, failed: 0 });
    for (const u of [cancelling, ended, leaving]) expect(mailsTo(u.user)).toHaveLength(0);
  });

  it('a failed send is released and retried by the next run; a claim left unsent by a dead worker is taken after an hour', async () => {
    const { user, sub } = await subscriber();
    const send = vi.spyOn(t.ctx.mail, 'send').mockRejectedValueOnce(new Error('smtp down'));
    try {
      expect(await run(before(7 * DAY - HOUR))).toEqual({ sent: 0, failed: 1 });
      expect(await db().select().from(renewalReminders).where(eq(renewalReminders.subscriptionId, sub.id))).toHaveLength(0);
      expect(await run(before(7 * DAY - 2 * HOUR))).toEqual({ sent: 1, failed: 0 });
    } finally {
      send.mockRestore();
    }
    expect(mailsTo(user)).toHaveLength(1);

    // A worker claimed the 3-day reminder and died before sending: not taken while it may still be sending…
    const claimedAt = before(3 * DAY - HOUR);
    await db().insert(renewalReminders).values({ subscriptionId: sub.id, userId: user.id, periodEnd: RENEWAL, thresholdDays: 3, claimedAt });
    expect(await run(new Date(claimedAt.getTime() + 30 * 60_000))).toEqual({ sent: 0, failed: 0 });
    // …and sent by the first run an hour later.
    expect(await run(new Date(claimedAt.getTime() + HOUR + 60_000))).toEqual({ sent: 1, failed: 0 });
    expect(mailsTo(user)).toHaveLength(2);
  });

  it('runs hourly from the durable queue (a pg-boss schedule)', async () => {
    const r = await t.ctx.database.executor.executeSql(`select name, cron from pgboss.schedule where name in ('renewal-reminders', 'dormant-accounts') order by name`, []);
    expect(r.rows).toEqual([
      { name: 'dormant-accounts', cron: '53 1 * * *' },
      { name: 'renewal-reminders', cron: '7 * * * *' },
    ]);
  });
});
