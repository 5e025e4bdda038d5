import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, verifyFromOutbox, type TestApp } from '../../../test/helpers/test-app';
import { affiliateReferrals, signInEvents } from '../../db/schema';
import { getBalance } from '../credits';
import type { SandboxProvider } from '../billing';
import { purgeDeletedAccounts } from '../account';
import { purgeOldSignInEvents, SIGN_IN_HISTORY_DAYS } from '../users';

const DAY = 86_400_000;

/**
 * Issue 21 point 4: the "same network" check looked only at the sharer's live sessions, so after
 * POST /api/auth/logout a second account from the sharer's own address and browser earned the sharer
 * +750 per package1. The sign-in history (decision 031) survives the logout.
 */
describe.each(TEST_DATABASES)('self-referral after logout on $name', (kind) => {
  let t: TestApp;
  let sandbox: SandboxProvider;
  let n = 0;
  beforeAll(async () => {
    t = await createTestApp(kind);
    sandbox = t.ctx.payments as SandboxProvider;
    sandbox.setDeliverer(async (body, headers) => (await t.app.inject({ method: 'POST', url: '/api/payment/webhook', headers, payload: body })).statusCode);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.ctx.database.db;
  const cookieHeader = (c: Record<string, string | undefined>) =>
    Object.entries(c)
      .filter(([, v]) => v)
      .map(([k, v]) => `${k}=${v}`)
      .join('; ');

  /** Signs up from `ip` with the browser's cookies, verifies, logs in: the session, the device cookie it got, the id. */
  async function account(ip: string, browser: { aff?: string; device?: string } = {}) {
    const email = `hist${Date.now()}${n++}@example.com`;
    const password = 'correct horse battery';
    const reg = await t.app.inject({ method: 'POST', url: '/api/auth/register', remoteAddress: ip, headers: { cookie: cookieHeader({ dewy_aff: browser.aff, dewy_device: browser.device }) }, payload: { name: 'H', email, password } });
    expect(reg.statusCode, reg.body).toBe(201);
    await verifyFromOutbox(t.app, email);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, headers: { cookie: cookieHeader({ dewy_device: browser.device }) }, payload: { email, password } });
    expect(login.statusCode).toBe(200);
    const device = login.cookies.find((c) => c.name === 'dewy_device' && c.value)!;
    expect(device.path).toBe('/api/auth'); // sent to sign-up too, so the browser is recognised there
    return { sid: login.cookies.find((c) => c.name === 'dewy_sid')!.value, device: device.value, id: (login.json() as { id: number }).id };
  }
  async function click(code: string, ip: string) {
    const r = await t.app.inject({ url: `/api/affiliate/click?aff=${code}`, remoteAddress: ip });
    return r.cookies.find((x) => x.name === 'dewy_aff')!.value;
  }
  async function buyPack(sid: string) {
    const { checkout_url } = (await t.app.inject({ method: 'POST', url: '/api/payment/credit-checkout', cookies: { dewy_sid: sid }, payload: { package: 'package1' } })).json();
    await t.app.inject({ method: 'POST', url: checkout_url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'card=4242424242424242&action=pay' });
    await sandbox.idle();
  }
  const bonusOf = async (id: number) => (await getBalance(db(), id)).bonus;
  const reasonOf = async (referredId: number) => (await db().select().from(affiliateReferrals).where(eq(affiliateReferrals.referredId, referredId)))[0]?.ineligibleReason;

  /** A sharer who signed up and in from `ip`, took a code, and logged out (every session gone). */
  async function loggedOutSharer(ip: string) {
    const sharer = await account(ip);
    const code = (await t.app.inject({ method: 'POST', url: '/api/affiliate/ensure-code', cookies: { dewy_sid: sharer.sid }, payload: {} })).json().affiliate_code as string;
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', cookies: { dewy_sid: sharer.sid } })).statusCode).toBe(200);
    return { ...sharer, code };
  }

  it('after logout, a second account from the same address earns the sharer nothing', async () => {
    const sharer = await loggedOutSharer('10.40.0.1');
    const second = await account('10.40.0.1', { aff: await click(sharer.code, '10.40.0.1') });
    await buyPack(second.sid);
    expect(await bonusOf(sharer.id)).toBe(0);
    expect(await reasonOf(second.id)).toBe('same_network');
  });

  it('after logout, a second account from the same browser (device cookie) on another network earns nothing', async () => {
    const sharer = await loggedOutSharer('10.41.0.1');
    const second = await account('172.16.41.9', { aff: await click(sharer.code, '172.16.41.9'), device: sharer.device });
    await buyPack(second.sid);
    expect(await bonusOf(sharer.id)).toBe(0);
    expect(await reasonOf(second.id)).toBe('same_device');
  });

  it('a genuinely different customer earns the sharer the reward', async () => {
    const sharer = await loggedOutSharer('10.42.0.1');
    const other = await account('192.0.2.42', { aff: await click(sharer.code, '192.0.2.42') });
    await buyPack(other.sid);
    expect(await reasonOf(other.id)).toBeNull();
    expect(await bonusOf(sharer.id)).toBeGreaterThan(0);
  });

  it('the history keeps no address in clear, is forgotten after its days, and goes with the account purge', async () => {
    const u = await account('10.43.0.1');
    const rows = await db().select().from(signInEvents).where(eq(signInEvents.userId, u.id));
    expect(rows.map((r) => r.kind).sort()).toEqual(['login', 'signup']);
    for (const r of rows) expect(`${r.ipHash} ${r.deviceHash}`).not.toContain('10.43');
    // Housekeeping: nothing within the window goes; everything older does.
    await purgeOldSignInEvents(db(), new Date(Date.now() + (SIGN_IN_HISTORY_DAYS - 1) * DAY));
    expect(await db().select().from(signInEvents).where(eq(signInEvents.userId, u.id))).toHaveLength(2);
    await purgeOldSignInEvents(db(), new Date(Date.now() + (SIGN_IN_HISTORY_DAYS + 1) * DAY));
    expect(await db().select().from(signInEvents).where(eq(signInEvents.userId, u.id))).toHaveLength(0);
    // The account purge (decision 020) deletes the rows of the user as well.
    const v = await account('10.43.0.2');
    expect((await db().select().from(signInEvents).where(eq(signInEvents.userId, v.id))).length).toBeGreaterThan(0);
    const del = await t.app.inject({ method: 'POST', url: '/api/account/delete', cookies: { dewy_sid: v.sid }, payload: { password: 'correct horse battery' } });
    expect(del.statusCode).toBe(200);
    expect(await purgeDeletedAccounts(t.ctx, { now: new Date(Date.now() + 15 * DAY) })).toContain(v.id);
    expect(await db().select().from(signInEvents).where(eq(signInEvents.userId, v.id))).toHaveLength(0);
  });
});
