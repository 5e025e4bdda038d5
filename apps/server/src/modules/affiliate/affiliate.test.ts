import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, verifyFromOutbox, type TestApp } from '../../../test/helpers/test-app';
import { affiliateCodes, affiliateReferrals, users } from '../../db/schema';
import { getBalance, ledgerSums } from '../credits';
import type { SandboxProvider } from '../billing';
import { canonicalMailbox } from '../../lib/mailbox';

/**
 * The affiliate programme end to end (issue 10, decision 013) on both databases: code under
 * concurrency, click → sign-up → purchase → half the credits to the sharer as bonus, once, reversed by
 * a refund; self-referral earns nothing; the credit history's running balance is exact.
 */
describe.each(TEST_DATABASES)('affiliate programme on $name', (kind) => {
  let t: TestApp;
  let sandbox: SandboxProvider;
  let captured: { body: Buffer; headers: Record<string, string> }[] = [];
  beforeAll(async () => {
    t = await createTestApp(kind);
    sandbox = t.ctx.payments as SandboxProvider;
    sandbox.setDeliverer(async (body, headers) => {
      captured.push({ body, headers });
      return (await t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers, payload: body })).statusCode;
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  let n = 0;
  /** Signs up (from `ip`, with optional cookies) and logs in; returns the session cookie and the user id. */
  async function account(ip: string, opts: { email?: string; cookie?: string } = {}) {
    const email = opts.email ?? `aff${Date.now()}${n++}@example.com`;
    const password = 'correct horse battery';
    const reg = await t.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: ip, headers: opts.cookie ? { cookie: opts.cookie } : {}, payload: { name: 'A', email, password } });
    expect(reg.statusCode, reg.body).toBe(201);
    await verifyFromOutbox(t.app, email); // the welcome credits come with the verification (decision 020)
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { email, password } });
    const sid = login.cookies.find((c) => c.name === 'dewy_sid')!;
    return { cookie: `dewy_sid=${sid.value}`, id: (login.json() as { id: number }).id, email };
  }
  async function click(code: string, ip: string) {
    const r = await t.app.inject({ url: `/api/affiliate/click?aff=${code}&campaign=spring`, remoteAddress: ip });
    expect(r.statusCode).toBe(200);
    const c = r.cookies.find((x) => x.name === 'dewy_aff');
    return c ? `dewy_aff=${c.value}` : '';
  }
  async function buyPack(cookie: string, pack = 'package1') {
    captured = [];
    const { checkout_url } = (await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', headers: { cookie }, payload: { package: pack } })).json();
    await t.app.inject({ method: 'POST', url: checkout_url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'card=4242424242424242&action=pay' });
    await sandbox.idle();
    return captured.splice(0);
  }
  const bonusOf = async (id: number) => (await getBalance(t.ctx.database.db, id)).bonus;
  const code = async (cookie: string) => (await t.app.inject({ method: 'POST', url: '/api/affiliate/ensure-code', headers: { cookie }, payload: {} })).json().affiliate_code as string;

  it('20 concurrent ensure-code calls give one stable, URL-safe code', async () => {
    const a = await account('10.1.0.1');
    const all = await Promise.all(Array.from({ length: 20 }, () => t.app.inject({ method: 'POST', url: '/api/affiliate/ensure-code', headers: { cookie: a.cookie }, payload: {} })));
    const codes = new Set(all.map((r) => r.json().affiliate_code));
    expect(codes.size).toBe(1);
    expect([...codes][0]).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(await t.ctx.database.db.select().from(affiliateCodes).where(eq(affiliateCodes.userId, a.id))).toHaveLength(1);
  });

  it('click → sign-up → pack: the sharer earns half the credits as bonus once (webhook delivered 3 times); a refund reverses it', async () => {
    const sharer = await account('10.2.0.1');
    const aff = await click(await code(sharer.cookie), '10.3.0.1');
    expect(aff).not.toBe('');
    const buyer = await account('10.3.0.1', { cookie: aff });
    const [paid] = await buyPack(buyer.cookie, 'package2'); // 3000 credits
    for (let i = 0; i < 2; i++) {
      const again = await t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers: sandbox.sign(paid!.body), payload: paid!.body });
      expect(again.json().outcome).toBe('duplicate');
    }
    expect(await bonusOf(sharer.id)).toBe(1500);
    const stats = (await t.app.inject({ url: '/api/affiliate/stats', headers: { cookie: sharer.cookie } })).json();
    expect(stats).toMatchObject({ clicks: 1, signups: 1, paidOrders: 1, rewardCredits: 1500 });

    const { paymentId } = await sandbox.latestOf(buyer.id);
    await sandbox.refund(paymentId!);
    await sandbox.idle();
    expect(await bonusOf(sharer.id)).toBe(0);
    expect((await t.app.inject({ url: '/api/affiliate/stats', headers: { cookie: sharer.cookie } })).json().rewardCredits).toBe(0);
    for (const id of [sharer.id, buyer.id]) expect(await ledgerSums(t.ctx.database.db, id)).toEqual(await getBalance(t.ctx.database.db, id));
  });

  it('self-referral earns nothing: a second address of the same mailbox, or a sign-up from the sharer’s own network', async () => {
    const sharer = await account('10.4.0.1', { email: `Jane.Doe+main${n++}@gmail.com` });
    const myCode = await code(sharer.cookie);
    const alias = sharer.email.replace(/\+main\d+/, '+alt').replace('Jane.Doe', 'janedoe');
    expect(canonicalMailbox(alias)).toBe(canonicalMailbox(sharer.email));
    const viaAlias = await account('10.5.0.1', { email: alias, cookie: await click(myCode, '10.5.0.1') });
    const sameNet = await account('10.4.0.1', { cookie: await click(myCode, '10.4.0.1') });
    for (const b of [viaAlias, sameNet]) await buyPack(b.cookie);
    expect(await bonusOf(sharer.id)).toBe(0);
    const refs = await t.ctx.database.db.select().from(affiliateReferrals).where(eq(affiliateReferrals.sharerId, sharer.id));
    expect(refs.map((r) => r.ineligibleReason).sort()).toEqual(['same_email_owner', 'same_network']);
  });

  it('a forged or foreign attribution cookie attributes nothing; an unknown code sets no cookie', async () => {
    expect(await click('AAAAAAAAAAAA', '10.6.0.1')).toBe('');
    const forged = await account('10.6.0.2', { cookie: 'dewy_aff=AAAAAAAAAAAA.1..1700000000000.bad' });
    expect(await t.ctx.database.db.select().from(affiliateReferrals).where(eq(affiliateReferrals.referredId, forged.id))).toHaveLength(0);
    const bad = await t.app.inject({ url: '/api/affiliate/click?aff=%3Cscript%3E' });
    expect(bad.statusCode).toBe(400);
  });

  it('the credit history lists every entry newest first with a running balance equal to the ledger, paged', async () => {
    const sharer = await account('10.7.0.1');
    const buyer = await account('10.8.0.1', { cookie: await click(await code(sharer.cookie), '10.8.0.1') });
    await buyPack(buyer.cookie, 'package1');
    await buyPack(buyer.cookie, 'package3');
    const all: { delta: number; balance_after: number; kind: string; reason: string }[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const page = (await t.app.inject({ url: `/api/credits/history?limit=2&offset=${offset}`, headers: { cookie: buyer.cookie } })).json() as { items: typeof all; pagination: { nextOffset: number | null } };
      all.push(...page.items);
      offset = page.pagination.nextOffset;
    }
    expect(all.map((e) => e.kind)).toEqual(['grant', 'grant', 'grant']);
    expect(all[0]!.balance_after).toBe((await getBalance(t.ctx.database.db, buyer.id)).total);
    // Oldest last: each row's balance = the next (older) row's balance + this row's delta.
    for (let i = 0; i < all.length - 1; i++) expect(all[i]!.balance_after).toBe(all[i + 1]!.balance_after + all[i]!.delta);
    expect(all.at(-1)!.balance_after).toBe(all.at(-1)!.delta);
    const sharerHistory = (await t.app.inject({ url: '/api/credits/history', headers: { cookie: sharer.cookie } })).json();
    expect(sharerHistory.items[0]).toMatchObject({ kind: 'grant', bucket: 'bonus', reason: 'affiliate reward' });
    expect((await t.app.inject({ url: '/api/credits/history?limit=1000', headers: { cookie: buyer.cookie } })).statusCode).toBe(400);
  });

  it('the nickname is editable under sign-up’s rules; bad input changes nothing', async () => {
    const a = await account('10.9.0.1');
    const ok = await t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: { cookie: a.cookie }, payload: { nickname: '  새 이름 ' } });
    expect(ok.json().nickname).toBe('새 이름');
    for (const nickname of ['', '   ', 'a\u0000b', 'x'.repeat(500)]) {
      const r = await t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: { cookie: a.cookie }, payload: { nickname } });
      expect(r.statusCode).toBe(400);
    }
    const r = await t.app.inject({ method: 'PATCH', url: '/api/users/me', headers: { cookie: a.cookie }, payload: { nickname: 'z', plan: 'premium' } });
    expect(r.statusCode).toBe(400);
    expect((await t.ctx.database.db.select().from(users).where(eq(users.id, a.id)))[0]).toMatchObject({ nickname: '새 이름', plan: 'free' });
  });
});
