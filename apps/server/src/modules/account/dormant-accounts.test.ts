import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { buildUser } from '../../../test/helpers/factories';
import { readOutbox } from '../../../test/helpers/outbox';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { subscriptions, users } from '../../db/schema';
import { processDormantAccounts } from './dormant-accounts.service';

const DAY = 86_400_000;

/**
 * Dormant accounts (terms §14, decision 027) on PGlite and PostgreSQL, with a controlled clock: the
 * notice once at 335 days without a sign-in, dormant at 365 (never sooner than 30 days after the
 * notice), a sign-in or a session in use restores the account with its credits, a paying customer is
 * never dormant, and a failed notice is retried.
 */
describe.each(TEST_DATABASES)('dormant accounts on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.ctx.database.db;
  const row = async (id: number) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
  const mailsTo = (email: string) => readOutbox(path.join(t.dataDir, 'outbox')).filter((m) => m.to.includes(email) && /휴면|dormant/.test(m.subject));
  const run = (now: Date) => processDormantAccounts(t.ctx, { now });
  const check = (cookie: string) => t.app.inject({ url: '/api/auth/check', headers: { cookie } });

  it('a notice once at 335 days, dormant at 365 with credits kept, a sign-in restores it at once', async () => {
    const { user, email, password } = await signUpAndLogin(t.app);
    const t0 = (await row(user.id)).lastLoginAt.getTime();
    expect(Math.abs(t0 - Date.now())).toBeLessThan(60_000); // the sign-in was recorded
    const at = (days: number) => new Date(t0 + days * DAY + 1); // + 1 ms: PostgreSQL keeps microseconds

    expect((await run(at(334))).notified).not.toContain(user.id);
    expect((await run(at(335))).notified).toContain(user.id);
    expect((await run(at(335))).notified).not.toContain(user.id);
    const parallel = await Promise.all(Array.from({ length: 5 }, () => run(at(336))));
    expect(parallel.flatMap((r) => r.notified)).not.toContain(user.id);
    const mails = mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('[Dewy] 계정이 휴면 계정으로 전환될 예정입니다');
    const due = new Intl.DateTimeFormat('ko-KR', { dateStyle: 'long', timeZone: 'Asia/Seoul' }).format(at(365));
    expect(mails[0]!.body).toContain(`${due}까지 로그인하지 않으면 계정이 휴면 계정으로 전환됩니다.`);
    expect(mails[0]!.body).toContain(`${t.ctx.config.publicUrl}/login`);

    expect((await run(at(364))).dormant).not.toContain(user.id);
    expect((await row(user.id)).dormantAt).toBeNull();
    expect((await run(at(365))).dormant).toContain(user.id);
    const dormant = await row(user.id);
    expect(dormant.dormantAt?.getTime()).toBe(at(365).getTime());
    expect(dormant.oneTimeCredits).toBe(300);
    expect((await run(at(366))).dormant).not.toContain(user.id); // once

    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toMatchObject({ id: user.id, credits: 300 });
    const back = await row(user.id);
    expect(back).toMatchObject({ dormantAt: null, dormancyNoticeAt: null, dormancyNoticeSentAt: null, oneTimeCredits: 300 });
    expect(Math.abs(back.lastLoginAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('an English notice; a late notice postpones dormancy to 30 days after it', async () => {
    const email = `dormant-${randomBytes(4).toString('hex')}@example.com`;
    const t0 = Date.now();
    const u = await buildUser(db(), { email, locale: 'en', lastLoginAt: new Date(t0) });
    const at = (days: number) => new Date(t0 + days * DAY);
    expect((await run(at(360))).notified).toContain(u.id); // the server was down at 335 days
    expect((await run(at(365))).dormant).not.toContain(u.id);
    expect((await run(at(389))).dormant).not.toContain(u.id);
    expect((await run(at(390))).dormant).toContain(u.id);
    const [mail] = mailsTo(email);
    expect(mail!.subject).toBe('[Dewy] Your account will become dormant');
    const due = new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'Asia/Seoul' }).format(at(390));
    expect(mail!.body).toContain(`If you do not sign in by ${due} (KST), your account becomes dormant.`);
    expect(mail!.body).toContain(`${t.ctx.config.publicUrl}/en/login`);
  });

  it('a session in use counts as a sign-in: it restores a dormant account', async () => {
    const { user, cookie } = await signUpAndLogin(t.app);
    const old = new Date(Date.now() - 400 * DAY);
    const noticed = new Date(old.getTime() + 335 * DAY);
    await db().update(users).set({ lastLoginAt: old, dormancyNoticeAt: noticed, dormancyNoticeSentAt: noticed, dormantAt: new Date(old.getTime() + 365 * DAY) }).where(eq(users.id, user.id));
    expect((await check(cookie)).statusCode).toBe(200);
    const back = await row(user.id);
    expect(back).toMatchObject({ dormantAt: null, dormancyNoticeAt: null, dormancyNoticeSentAt: null });
    expect(Math.abs(back.lastLoginAt.getTime() - Date.now())).toBeLessThan(60_000);
  });

  it('a paying customer is never notified nor dormant; once the subscription has ended the rule applies', async () => {
    const { user, email } = await signUpAndLogin(t.app);
    const t0 = (await row(user.id)).lastLoginAt.getTime();
    const at = (days: number) => new Date(t0 + days * DAY);
    await db().update(users).set({ plan: 'basic' }).where(eq(users.id, user.id));
    const sub = (
      await db()
        .insert(subscriptions)
        .values({
          userId: user.id, provider: 'sandbox', providerSubscriptionId: `sub_${randomBytes(6).toString('hex')}`, plan: 'basic', status: 'active',
          currentPeriodStart: at(380), currentPeriodEnd: at(410), providerCreatedAt: at(0), creditedPlan: 'basic', cancelAtPeriodEnd: true,
        })
        .returning()
    )[0]!;
    for (const d of [335, 365, 400]) {
      const r = await run(at(d));
      expect(r.notified).not.toContain(user.id);
      expect(r.dormant).not.toContain(user.id);
    }
    expect(mailsTo(email)).toHaveLength(0);

    // The subscription ended (the webhook sets the plan back to free): notice now, dormant 30 days later.
    await db().update(subscriptions).set({ status: 'expired', endedAt: at(410) }).where(eq(subscriptions.id, sub.id));
    await db().update(users).set({ plan: 'free' }).where(eq(users.id, user.id));
    expect((await run(at(411))).notified).toContain(user.id);
    expect((await run(at(440))).dormant).not.toContain(user.id);
    expect((await run(at(441))).dormant).toContain(user.id);
  });

  it('a failed notice is retried by the next run; an account being deleted gets none', async () => {
    const t0 = Date.now();
    const u = await buildUser(db(), { lastLoginAt: new Date(t0) });
    const leaving = await buildUser(db(), { lastLoginAt: new Date(t0), deletionRequestedAt: new Date(t0), deletionDueAt: new Date(t0 + 14 * DAY) });
    const at = (days: number) => new Date(t0 + days * DAY);
    const send = vi.spyOn(t.ctx.mail, 'send').mockRejectedValue(new Error('smtp down'));
    try {
      expect((await run(at(335))).notified).not.toContain(u.id);
      expect((await row(u.id)).dormancyNoticeAt).toBeNull();
    } finally {
      send.mockRestore();
    }
    const r = await run(at(336));
    expect(r.notified).toContain(u.id);
    expect(r.notified).not.toContain(leaving.id);
    expect(mailsTo(u.email)).toHaveLength(1);
    expect((await row(u.id)).dormancyNoticeSentAt?.getTime()).toBe(at(336).getTime());
    expect((await run(at(400))).dormant).not.toContain(leaving.id);

    // A run that claimed a notice and died before sending: not taken while it may still be sending, then sent.
    const v = await buildUser(db(), { lastLoginAt: new Date(t0) });
    await db().update(users).set({ dormancyNoticeAt: at(335) }).where(eq(users.id, v.id));
    expect((await run(new Date(at(335).getTime() + 30 * 60_000))).notified).not.toContain(v.id);
    const late = await run(at(365));
    expect(late.notified).toContain(v.id);
    expect(late.dormant).not.toContain(v.id); // never dormant on an unsent notice: 30 days from the send
    expect(mailsTo(v.email)).toHaveLength(1);
    expect((await run(at(395))).dormant).toContain(v.id);
  });
});
