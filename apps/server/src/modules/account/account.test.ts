import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ACCOUNT_RULES } from '@dewy/contracts';
import { eq } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES, type TestDatabaseKind } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { latestLinkToken, readOutbox } from '../../../test/helpers/outbox';
import { createTestApp, signUpAndLogin, verifyFromOutbox, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { creditLedger, jobs, sessions, subscriptions, users, welcomeGrants } from '../../db/schema';
import { createSession } from '../auth';
import { ledgerSums } from '../credits';
import { type SandboxProvider, PaymentProviderError } from '../billing';
import { purgeDeletedAccounts } from './account-deletion.service';
import { verifyEmail } from './email-verification.service';
import { resetPassword } from './password-reset.service';

const DAY = 86_400_000;
let seq = 0;
const newEmail = (p = 'acct') => `${p}${Date.now()}${seq++}@example.com`;

/**
 * Issue 14, the e-mail and deletion half (decision 020), through the real routes on PGlite and
 * PostgreSQL (and S3 storage for the purge): verification links, welcome credits once per address,
 * resend limits, password reset without enumeration, account deletion with its 14-day grace, undo
 * and the purge, with a controlled clock.
 */
function suite(name: string, kind: TestDatabaseKind, env: () => Record<string, string>, only: 'all' | 'purge' = 'all') {
  describe(`accounts on ${name}`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp(kind, env(), { workers: true });
    });
    afterAll(async () => {
      await t?.close();
    });
    const outbox = () => path.join(t.dataDir, 'outbox');
    const db = () => t.ctx.database.db;
    const userRow = async (id: number) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
    const post = (url: string, payload: object, headers: Record<string, string> = {}, remoteAddress?: string) => t.app.inject({ method: 'POST', url, payload, headers, ...(remoteAddress ? { remoteAddress } : {}) });
    const login = (email: string, password: string, lang = 'en') => post('/api/auth/login', { email, password }, { 'accept-language': lang });
    const checkStatus = async (cookie: string) => (await t.app.inject({ url: '/api/auth/check', headers: { cookie } })).statusCode;
    const services = () => t.ctx;

    async function finishedJob(cookie: string) {
      const mp = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(300, 200));
      const image = (await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...mp.headers }, payload: mp.payload })).json().imageUrl as string;
      const job = (await t.app.inject({ method: 'POST', url: '/api/runpod-upscale', headers: { cookie }, payload: { input: { image, scale_factor: 1, output_format: 'jpg', output_quality: 95, lora_index: 2 } } })).json();
      await waitFor(async () => ((await t.app.inject({ url: `/api/image/status/${job.jobId}`, headers: { cookie } })).json().status === 'completed' ? true : undefined));
      return (await db().select().from(jobs).where(eq(jobs.jobId, job.jobId)))[0]!;
    }

    if (only === 'all') {
      it('sign-up mails a verification link in the sign-up language; credits come only with verification, once', async () => {
        const email = newEmail();
        const reg = await post('/api/auth/register', { name: 'Mina', email, password: 'pass-word-1' }, { 'accept-language': 'ko-KR' });
        expect(reg.statusCode).toBe(201);
        expect(reg.json()).toEqual({ success: true }); // the same answer for a taken address (decision 031)
        const mail = readOutbox(outbox()).find((m) => m.to.includes(email))!;
        expect(mail.subject).toBe('[Dewy] 이메일 주소를 인증해주세요');
        expect(mail.body).toContain('가입 축하 크레딧 300개');
        const token = latestLinkToken(outbox(), email, 'verify-email')!;
        expect(mail.body).toContain(`${t.ctx.config.publicUrl}/verify-email?token=`);

        // An unverified account signs in and uses the product, with 0 credits.
        const l = await login(email, 'pass-word-1');
        expect(l.statusCode).toBe(200);
        expect(l.json()).toMatchObject({ credits: 0, email_verified: false });

        // Ten parallel uses of the one link: exactly one grants.
        const all = await Promise.all(Array.from({ length: 10 }, () => post('/api/auth/verify-email', { token })));
        expect(all.filter((r) => r.statusCode === 200)).toHaveLength(1);
        expect(all.filter((r) => r.statusCode === 409).every((r) => r.json().code === 'TOKEN_USED')).toBe(true);
        expect(all.filter((r) => r.statusCode === 409)).toHaveLength(9);
        expect(all.find((r) => r.statusCode === 200)!.json()).toEqual({ success: true, welcomeCredits: 300 });
        const u = (await db().select().from(users).where(eq(users.emailNormalized, email.toLowerCase())))[0]!;
        expect(u.oneTimeCredits).toBe(300);
        expect(u.emailVerifiedAt).not.toBeNull();
        const ledger = await db().select().from(creditLedger).where(eq(creditLedger.userId, u.id));
        expect(ledger.filter((e) => e.reasonCode === 'welcome')).toHaveLength(1);
        expect((await ledgerSums(db(), u.id)).oneTime).toBe(300);

        // Used again later: refused in the caller's language, nothing changes.
        const again = await post('/api/auth/verify-email', { token }, { 'accept-language': 'en' });
        expect(again.json()).toMatchObject({ code: 'TOKEN_USED', message: 'This link has already been used.' });
        expect((await post('/api/auth/verify-email', { token }, { 'accept-language': 'ko' })).json().message).toBe('이미 사용된 링크입니다.');
        expect((await userRow(u.id)).oneTimeCredits).toBe(300);
      });

      it('a forged, tampered or malformed link is refused and changes nothing; an expired one says so', async () => {
        const email = newEmail();
        const { user } = await signUpAndLogin(t.app, email, 'pass-word-1', { verify: false });
        const token = latestLinkToken(outbox(), email, 'verify-email')!;
        const [body, sig] = token.split('.');
        const forged = [`${body!.slice(0, -2)}AA.${sig}`, `${body}.${sig!.slice(0, -2)}AA`, `${'A'.repeat(43)}.${'B'.repeat(32)}`];
        for (const f of forged) {
          const r = await post('/api/auth/verify-email', { token: f }, { 'accept-language': 'en' });
          expect(r.statusCode).toBe(400);
          expect(r.json()).toMatchObject({ code: 'TOKEN_INVALID', message: 'This link is not valid. Open the link from the e-mail exactly as sent.' });
        }
        expect((await post('/api/auth/verify-email', { token: 'short' })).json().code).toBe('VALIDATION_FAILED');
        expect((await post('/api/auth/verify-email', { token: `${token}\u0000` })).statusCode).toBe(400);
        expect((await userRow(user.id)).oneTimeCredits).toBe(0);

        // 48 hours and a minute later: expired, in Korean too; nothing granted, and the link stays unused.
        const late = new Date(Date.now() + ACCOUNT_RULES.verifyTokenTtlMs + 60_000);
        await expect(verifyEmail(services(), token, late)).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
        expect((await userRow(user.id)).emailVerifiedAt).toBeNull();
        // Within its lifetime it still works.
        expect((await verifyEmail(services(), token)).welcomeCredits).toBe(300);
      });

      it('resend is for signed-in, unverified accounts, limited per account and per IP even in parallel', async () => {
        const email = newEmail();
        const { cookie } = await signUpAndLogin(t.app, email, 'pass-word-1', { verify: false });
        expect((await post('/api/auth/resend-verification', {})).statusCode).toBe(401);
        const before = readOutbox(outbox()).filter((m) => m.to.includes(email)).length;
        const burst = await Promise.all(Array.from({ length: 8 }, () => post('/api/auth/resend-verification', {}, { cookie }, '10.9.0.1')));
        expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(ACCOUNT_RULES.resendPerAccount.max);
        expect(burst.filter((r) => r.statusCode === 429).every((r) => r.json().code === 'RATE_LIMITED')).toBe(true);
        expect(readOutbox(outbox()).filter((m) => m.to.includes(email)).length).toBe(before + ACCOUNT_RULES.resendPerAccount.max);
        // Any of the links verifies (the newest here).
        await verifyFromOutbox(t.app, email);
        expect((await post('/api/auth/resend-verification', {}, { cookie }, '10.9.0.2')).json()).toEqual({ success: true, alreadyVerified: true });

        // Per IP: many accounts from one address.
        const accounts = await Promise.all(Array.from({ length: ACCOUNT_RULES.resendPerIp.max + 2 }, () => signUpAndLogin(t.app, newEmail('ip'), 'pass-word-1', { verify: false })));
        const perIp = await Promise.all(accounts.map((a) => post('/api/auth/resend-verification', {}, { cookie: a.cookie }, '10.9.0.3')));
        expect(perIp.filter((r) => r.statusCode === 200)).toHaveLength(ACCOUNT_RULES.resendPerIp.max);
        expect(perIp.filter((r) => r.statusCode === 429)).toHaveLength(2);
      });

      it('forgot password answers the same for known and unknown addresses, mails only the known one, limited per address', async () => {
        const email = newEmail();
        await signUpAndLogin(t.app, email, 'pass-word-1');
        const unknown = newEmail('nobody');
        const a = await post('/api/auth/forgot-password', { email: email.toUpperCase() }, { 'accept-language': 'en' }, '10.8.0.1');
        const b = await post('/api/auth/forgot-password', { email: unknown }, { 'accept-language': 'en' }, '10.8.0.1');
        expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
        expect(a.body).toBe(b.body);
        expect(Object.keys(a.headers).sort()).toEqual(Object.keys(b.headers).sort());
        await waitFor(async () => latestLinkToken(outbox(), email, 'reset-password'));
        const mail = readOutbox(outbox()).reverse().find((m) => m.to.includes(email))!;
        expect(mail.subject).toBe('[Dewy] Reset your password');
        expect(mail.body).toContain('30 minutes');
        expect(readOutbox(outbox()).some((m) => m.to.includes(unknown))).toBe(false);

        // Per address, in parallel: the limit holds, every answer is the same 200.
        const target = newEmail('burst');
        await signUpAndLogin(t.app, target, 'pass-word-1');
        const burst = await Promise.all(Array.from({ length: 8 }, (_, i) => post('/api/auth/forgot-password', { email: target }, {}, `10.8.1.${i + 1}`)));
        expect(burst.every((r) => r.statusCode === 200 && r.body === a.body)).toBe(true);
        await waitFor(async () => (readOutbox(outbox()).filter((m) => m.to.includes(target) && m.subject.includes('비밀번호')).length >= ACCOUNT_RULES.resetPerAddress.max ? true : undefined));
        await new Promise((r) => setTimeout(r, 300));
        expect(readOutbox(outbox()).filter((m) => m.to.includes(target) && m.subject.includes('비밀번호'))).toHaveLength(ACCOUNT_RULES.resetPerAddress.max);

        // Per IP: the 11th request from one address is refused (whatever the e-mail).
        const ipBurst = await Promise.all(Array.from({ length: ACCOUNT_RULES.resetPerIp.max + 1 }, (_, i) => post('/api/auth/forgot-password', { email: newEmail(`x${i}`) }, {}, '10.8.2.1')));
        expect(ipBurst.filter((r) => r.statusCode === 429)).toHaveLength(1);
        // Bad input: a clear error in the caller's language.
        const bad = await post('/api/auth/forgot-password', { email: 'not-an-address' }, { 'accept-language': 'ko' }, '10.8.3.1');
        expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: '입력값을 확인해주세요.' });
      });

      it('reset: one use, sign-up password rule, other sessions ended, 30-minute expiry, parallel uses', async () => {
        const email = newEmail();
        const s1 = await signUpAndLogin(t.app, email, 'pass-word-1');
        const s2 = (await login(email, 'pass-word-1')).cookies.find((c) => c.name === 'dewy_sid')!;
        const here = `dewy_sid=${s2.value}`;
        await post('/api/auth/forgot-password', { email }, {}, '10.7.0.1');
        const token = (await waitFor(async () => latestLinkToken(outbox(), email, 'reset-password')))!;

        // A reset link is no verification link (the signature names the purpose).
        expect((await post('/api/auth/verify-email', { token })).json().code).toBe('TOKEN_INVALID');
        // Too short: refused in the caller's language; nothing changes and the link stays usable.
        const short = await post('/api/auth/reset-password', { token, password: 'short' }, { 'accept-language': 'en' });
        expect(short.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: 'Please check the values you entered.' });
        expect((await login(email, 'pass-word-1')).statusCode).toBe(200);

        // Ten parallel uses of the link from this browser: one wins.
        const all = await Promise.all(Array.from({ length: 10 }, () => post('/api/auth/reset-password', { token, password: 'new-pass-word-2' }, { cookie: here })));
        expect(all.filter((r) => r.statusCode === 200)).toHaveLength(1);
        expect(all.filter((r) => r.statusCode !== 200).every((r) => r.json().code === 'TOKEN_USED')).toBe(true);
        expect(await checkStatus(s1.cookie)).toBe(401); // the other session is ended
        expect(await checkStatus(here)).toBe(200); // the browser that reset keeps its session
        const others = await db().select().from(sessions).where(eq(sessions.userId, s1.user.id));
        expect(others).toHaveLength(1);
        expect((await login(email, 'pass-word-1')).statusCode).toBe(401);
        expect((await login(email, 'new-pass-word-2')).statusCode).toBe(200);

        // Expiry: a link used 31 minutes after it was mailed is refused.
        await post('/api/auth/forgot-password', { email }, {}, '10.7.0.2');
        const prev = token;
        const t2 = (await waitFor(async () => {
          const k = latestLinkToken(outbox(), email, 'reset-password');
          return k && k !== prev ? k : undefined;
        }))!;
        await expect(resetPassword(services(), { token: t2, password: 'another-pass-3', keepSessionId: null, now: new Date(Date.now() + ACCOUNT_RULES.resetTokenTtlMs + 60_000) })).rejects.toMatchObject({ code: 'TOKEN_EXPIRED' });
        const r29 = await resetPassword(services(), { token: t2, password: 'another-pass-3', keepSessionId: null, now: new Date(Date.now() + ACCOUNT_RULES.resetTokenTtlMs - 60_000) });
        expect(r29.userId).toBe(s1.user.id);
        expect(await db().select().from(sessions).where(eq(sessions.userId, s1.user.id))).toHaveLength(0); // keep none: all ended
        const forged = await post('/api/auth/reset-password', { token: `${t2.slice(0, -3)}xyz`, password: 'another-pass-4' }, { 'accept-language': 'ko' });
        expect(forged.json()).toMatchObject({ code: 'TOKEN_INVALID', message: '링크가 올바르지 않습니다. 메일의 링크를 그대로 열어주세요.' });
      });
    }

    it('deletion: wrong password changes nothing; the right one disables at once; sign-in offers undo; undo restores', async () => {
      const email = newEmail('del');
      const { cookie, user } = await signUpAndLogin(t.app, email, 'pass-word-1');
      const wrong = await post('/api/account/delete', { password: 'not-my-password' }, { cookie, 'accept-language': 'ko' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ code: 'WRONG_PASSWORD', message: '비밀번호가 올바르지 않습니다.' });
      expect((await post('/api/account/delete', {}, { cookie, 'accept-language': 'en' })).json()).toMatchObject({ code: 'PASSWORD_REQUIRED', message: 'Please enter your password.' });
      expect((await userRow(user.id)).deletionRequestedAt).toBeNull();
      expect(await checkStatus(cookie)).toBe(200);

      const other = `dewy_sid=${(await login(email, 'pass-word-1')).cookies.find((c) => c.name === 'dewy_sid')!.value}`;
      const ok = await post('/api/account/delete', { password: 'pass-word-1' }, { cookie });
      expect(ok.statusCode).toBe(200);
      const due = new Date(ok.json().deletionDueAt).getTime();
      expect(Math.abs(due - (Date.now() + 14 * DAY))).toBeLessThan(60_000);
      expect(await checkStatus(cookie)).toBe(401);
      expect(await checkStatus(other)).toBe(401);
      expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);

      const l = await login(email, 'pass-word-1', 'en');
      expect(l.statusCode).toBe(403);
      expect(l.json()).toMatchObject({ code: 'ACCOUNT_DELETION_PENDING', message: 'This account is scheduled for deletion. Undo the deletion to use it again.' });
      expect(l.cookies.find((c) => c.name === 'dewy_sid' && c.value)).toBeUndefined();
      expect((await login(email, 'wrong-password-9')).json().code).toBe('INVALID_CREDENTIALS'); // the undo needs the password
      const { undoToken } = l.json().details as { undoToken: string };
      expect((await post('/api/auth/undo-deletion', { token: `${undoToken}0` })).json().code).toBe('TOKEN_INVALID');
      const undo = await post('/api/auth/undo-deletion', { token: undoToken });
      expect(undo.statusCode).toBe(200);
      expect(undo.json()).toMatchObject({ id: user.id, credits: 300 });
      const restored = `dewy_sid=${undo.cookies.find((c) => c.name === 'dewy_sid')!.value}`;
      expect(await checkStatus(restored)).toBe(200);
      expect((await userRow(user.id)).deletionRequestedAt).toBeNull();
      expect((await post('/api/auth/undo-deletion', { token: undoToken })).json().code).toBe('TOKEN_INVALID'); // nothing pending any more
      expect((await login(email, 'pass-word-1')).statusCode).toBe(200);
    });

    it('after 14 days the purge deletes files (this storage), personal data and rows; the ledger stays; the address signs up again without welcome credits', async () => {
      const email = newEmail('purge');
      const { cookie, user } = await signUpAndLogin(t.app, email, 'pass-word-1');
      const row = await finishedJob(cookie);
      const keys = [row.resultKey!, row.originalKey!];
      for (const k of keys) expect(await t.ctx.storage.exists(k)).toBe(true);
      expect((await post('/api/account/delete', { password: 'pass-word-1' }, { cookie })).statusCode).toBe(200);

      // 13 days later: nothing is due.
      expect(await purgeDeletedAccounts(t.ctx, { now: new Date(Date.now() + 13 * DAY) })).toEqual([]);
      for (const k of keys) expect(await t.ctx.storage.exists(k)).toBe(true);
      // 15 days later: gone for good; the undo is refused past the grace period.
      const later = new Date(Date.now() + 15 * DAY);
      expect(await purgeDeletedAccounts(t.ctx, { now: later })).toEqual([user.id]);
      for (const k of keys) expect(await t.ctx.storage.exists(k)).toBe(false);
      const tomb = await userRow(user.id);
      expect(tomb.email).not.toContain(email.split('@')[0]);
      expect(tomb).toMatchObject({ nickname: '', passwordHash: '', emailVerifiedAt: null });
      expect(tomb.deletedAt).not.toBeNull();
      expect(await db().select().from(jobs).where(eq(jobs.userId, user.id))).toHaveLength(0);
      const ledger = await db().select().from(creditLedger).where(eq(creditLedger.userId, user.id));
      expect(ledger.some((e) => e.reasonCode === 'welcome')).toBe(true); // kept (decision 020: billing records)
      expect(ledger.some((e) => e.kind === 'spend')).toBe(true);
      expect(await purgeDeletedAccounts(t.ctx, { now: later })).toEqual([]); // again: nothing more to do

      expect((await login(email, 'pass-word-1')).json().code).toBe('INVALID_CREDENTIALS');
      const again = await signUpAndLogin(t.app, email, 'pass-word-2', { verify: false });
      expect(again.user.id).not.toBe(user.id);
      expect((await verifyFromOutbox(t.app, email)).welcomeCredits).toBe(0);
      expect((await userRow(again.user.id)).oneTimeCredits).toBe(0);
      expect((await db().select().from(welcomeGrants).where(eq(welcomeGrants.userId, user.id)))).toHaveLength(1);
    });

    if (only === 'all') {
      it('the purge runs hourly from the durable queue (a pg-boss schedule)', async () => {
        const r = await t.ctx.database.executor.executeSql(`select name, cron from pgboss.schedule where name = 'account-purge'`, []);
        expect(r.rows).toEqual([{ name: 'account-purge', cron: '41 * * * *' }]);
      });

      it('an active subscription is cancelled at the provider as part of the deletion request; a provider failure changes nothing', async () => {
        const sandbox = t.ctx.payments as SandboxProvider;
        const email = newEmail('sub');
        const { cookie, user } = await signUpAndLogin(t.app, email, 'pass-word-1');
        const co = (await post('/api/payment/checkout', { plan: 'basic' }, { cookie })).json() as { checkout_url: string };
        await t.app.inject({ method: 'POST', url: co.checkout_url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'card=4242424242424242&action=pay' });
        await sandbox.idle();
        const sub = async () => (await db().select().from(subscriptions).where(eq(subscriptions.userId, user.id)))[0]!;
        expect((await sub()).cancelAtPeriodEnd).toBe(false);

        // The provider fails: the deletion is refused and nothing changes (account, session, subscription).
        const cancel = sandbox.cancel.bind(sandbox);
        sandbox.cancel = () => Promise.reject(new PaymentProviderError('provider down', 503));
        try {
          const failed = await post('/api/account/delete', { password: 'pass-word-1' }, { cookie, 'accept-language': 'en' });
          expect(failed.statusCode).toBe(502);
          expect(failed.json()).toMatchObject({ code: 'PAYMENT_PROVIDER_ERROR', message: 'We could not reach the payment service. Please try again shortly.' });
        } finally {
          sandbox.cancel = cancel;
        }
        expect((await userRow(user.id)).deletionRequestedAt).toBeNull();
        expect(await checkStatus(cookie)).toBe(200);
        expect((await sub()).cancelAtPeriodEnd).toBe(false);

        const r = await post('/api/account/delete', { password: 'pass-word-1' }, { cookie });
        expect(r.json()).toMatchObject({ success: true, subscriptionCancelled: true });
        expect((await sub()).cancelAtPeriodEnd).toBe(true);
      });

      it('a social-only account deletes with a fresh sign-in instead of a password', async () => {
        const email = newEmail('social');
        const { user } = await signUpAndLogin(t.app, email, 'pass-word-1');
        await db().update(users).set({ passwordHash: '' }).where(eq(users.id, user.id));
        const { token } = await createSession(db(), { userId: user.id, policy: t.ctx.config.session });
        const cookie = `dewy_sid=${token}`;
        await db().update(sessions).set({ reauthenticatedAt: new Date(Date.now() - ACCOUNT_RULES.reauthFreshMs - 60_000) }).where(eq(sessions.userId, user.id));
        const stale = await post('/api/account/delete', {}, { cookie, 'accept-language': 'en' });
        expect(stale.json()).toMatchObject({ code: 'REAUTHENTICATION_REQUIRED' });
        expect((await userRow(user.id)).deletionRequestedAt).toBeNull();
        await db().update(sessions).set({ reauthenticatedAt: new Date() }).where(eq(sessions.userId, user.id));
        expect((await post('/api/account/delete', {}, { cookie })).statusCode).toBe(200);
        expect((await userRow(user.id)).deletionRequestedAt).not.toBeNull();
      });
    }
  });
}

for (const kind of TEST_DATABASES) suite(kind.name, kind, () => ({}));

// The purge against an S3-compatible server (the storage tests' s3rver setup).
let s3dir = '';
let s3: S3rver | undefined;
let s3port = 0;
beforeAll(async () => {
  s3dir = await mkdtemp(path.join(tmpdir(), 'dewy-s3-accounts-'));
  s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: s3dir, configureBuckets: [{ name: 'dewy-accounts' }] });
  s3port = (await s3.run()).port;
});
afterAll(async () => {
  await s3?.close();
  if (s3dir) await rm(s3dir, { recursive: true, force: true });
});
suite(
  'pglite with S3 storage',
  TEST_DATABASES[0]!,
  () => ({ STORAGE_DRIVER: 's3', S3_BUCKET: 'dewy-accounts', S3_ENDPOINT: `http://127.0.0.1:${s3port}`, S3_FORCE_PATH_STYLE: 'true', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' }),
  'purge',
);
