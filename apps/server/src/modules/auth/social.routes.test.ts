import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { startFakeSocial, type FakeSocial } from '../../../test/fakes/fake-social.server';
import { creditLedger, userIdentities, users } from '../../db/schema';
import { oauthStateKey, sealOAuthState } from './oauth-state-cookie';
import { sessionIdFor } from './session.service';
import { recentSocialReauth } from './social.service';

const CLIENTS = { kakao: { clientId: 'kakao-rest-key', clientSecret: 'kakao-secret' }, naver: { clientId: 'naver-id', clientSecret: 'naver-secret' }, google: { clientId: 'google-client.apps.googleusercontent.com' } };

describe.each(TEST_DATABASES)('social sign-in on $name', (kind) => {
  let fake: FakeSocial;
  let t: TestApp;
  let off: TestApp;
  let seq = 0;
  beforeAll(async () => {
    fake = await startFakeSocial(CLIENTS);
    t = await createTestApp(kind, {
      KAKAO_CLIENT_ID: CLIENTS.kakao.clientId,
      KAKAO_CLIENT_SECRET: CLIENTS.kakao.clientSecret,
      KAKAO_BASE_URL: fake.origin,
      KAKAO_API_BASE_URL: fake.origin,
      NAVER_CLIENT_ID: CLIENTS.naver.clientId,
      NAVER_CLIENT_SECRET: CLIENTS.naver.clientSecret,
      NAVER_BASE_URL: fake.origin,
      NAVER_API_BASE_URL: fake.origin,
      GOOGLE_CLIENT_ID: CLIENTS.google.clientId,
      GOOGLE_JWKS_URL: `${fake.origin}/oauth2/v3/certs`,
    });
    off = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
    await off?.close();
    await fake?.close();
  });
  beforeEach(() => {
    seq++;
    fake.users.kakao = { id: 7_000_000 + seq, email: `kakao${seq}@kakao.example`, isEmailValid: true, isEmailVerified: true, nickname: `카카오${seq}` };
    fake.users.naver = { id: `naver-${seq}`, email: `naver${seq}@naver.com`, nickname: `네이버${seq}` };
  });

  const db = () => t.ctx.database.db;
  const userCount = async () => (await db().select({ n: count() }).from(users))[0]!.n;
  const identityCount = async () => (await db().select({ n: count() }).from(userIdentities))[0]!.n;

  /** GET /api/auth/<p> → the fake's authorize → the callback URL it sends the browser to. */
  async function startFlow(provider: 'kakao' | 'naver', opts: { sid?: string; query?: string } = {}) {
    const start = await t.app.inject({ url: `/api/auth/${provider}${opts.query ?? ''}`, cookies: opts.sid ? { dewy_sid: opts.sid } : {} });
    expect(start.statusCode).toBe(303);
    const stateCookie = start.cookies.find((c) => c.name === `dewy_oauth_${provider}`);
    expect(stateCookie?.httpOnly).toBe(true);
    expect(stateCookie?.sameSite).toBe('Lax');
    expect(stateCookie?.path).toBe(`/api/auth/${provider}`);
    const authz = await fetch(start.headers.location as string, { redirect: 'manual' });
    expect(authz.status).toBe(302);
    const cb = new URL(authz.headers.get('location')!);
    return { cookie: stateCookie!.value, path: `${cb.pathname}${cb.search}`, cb };
  }
  const callback = (provider: 'kakao' | 'naver', flow: { cookie: string; path: string }, sid?: string) =>
    t.app.inject({ url: flow.path, cookies: { [`dewy_oauth_${provider}`]: flow.cookie, ...(sid ? { dewy_sid: sid } : {}) } });
  const sidOf = (res: { cookies: { name: string; value: string }[] }) => res.cookies.find((c) => c.name === 'dewy_sid')?.value;
  const check = async (sid: string) => (await t.app.inject({ url: '/api/auth/check', cookies: { dewy_sid: sid } })).json();

  it('Kakao: a new verified identity creates an account with its welcome credits, through PKCE and a fresh session', async () => {
    const before = await userCount();
    const flow = await startFlow('kakao');
    const authz = fake.authorizeRequests.at(-1)!.query;
    expect(authz).toMatchObject({ client_id: CLIENTS.kakao.clientId, response_type: 'code', code_challenge_method: 'S256', redirect_uri: 'http://localhost:5000/api/auth/kakao/callback' });
    expect(authz.code_challenge).toMatch(/^[\w-]{43}$/);
    const res = await callback('kakao', flow);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/upscale');
    const tokenReq = fake.tokenRequests.at(-1)!.body;
    expect(tokenReq).toMatchObject({ client_id: CLIENTS.kakao.clientId, client_secret: CLIENTS.kakao.clientSecret, grant_type: 'authorization_code' });
    expect(tokenReq.code_verifier).toMatch(/^[\w-]{43,128}$/);
    // The state cookie is single use: cleared on the callback.
    expect(res.cookies.find((c) => c.name === 'dewy_oauth_kakao')?.value).toBe('');
    const sid = sidOf(res)!;
    const me = await check(sid);
    expect(me).toMatchObject({ isAuthenticated: true, user: { email: fake.users.kakao.email, nickname: fake.users.kakao.nickname, credits: 300 } });
    expect(await userCount()).toBe(before + 1);
    const [row] = await db().select().from(users).where(eq(users.id, me.user.id));
    expect(row!.passwordHash).toBeNull();
    expect(await recentSocialReauth(db(), sessionIdFor(sid), 300)).toBe(true);
    // A password login's session has no social re-authentication.
    const pw = await signUpAndLogin(t.app);
    expect(await recentSocialReauth(db(), sessionIdFor(pw.cookie.slice('dewy_sid='.length)), 300)).toBe(false);
  });

  it('deletion of a social-only account: a fresh social sign-in allows it; a social sign-in in the grace period gets the undo prompt, no session; undo signs in', async () => {
    const first = await callback('kakao', await startFlow('kakao'));
    const sid = sidOf(first)!;
    const me = (await check(sid)).user;
    // No password: the fresh social sign-in of this session is the proof (decision 020/021).
    const del = await t.app.inject({ method: 'POST', url: '/api/account/delete', cookies: { dewy_sid: sid }, payload: {} });
    expect(del.statusCode).toBe(200);
    // Signed out everywhere at once.
    const after = await t.app.inject({ url: '/api/auth/check', cookies: { dewy_sid: sid } });
    expect(after.json().user ?? null).toBeNull();
    // Signing in with Kakao again during the 14 days opens no session: the login page offers the undo.
    const again = await callback('kakao', await startFlow('kakao'));
    expect(again.statusCode).toBe(303);
    const to = new URL(again.headers.location as string, 'http://x');
    expect(to.pathname).toBe('/login');
    expect(to.searchParams.get('error')).toBe('ACCOUNT_DELETION_PENDING');
    expect(Date.parse(to.searchParams.get('due')!)).toBeGreaterThan(Date.now());
    expect(sidOf(again)).toBeUndefined();
    const undo = await t.app.inject({ method: 'POST', url: '/api/auth/undo-deletion', payload: { token: to.searchParams.get('undo') } });
    expect(undo.statusCode).toBe(200);
    expect((await check(sidOf(undo)!)).user).toMatchObject({ id: me.id, credits: 300 });
    // Restored: Kakao signs in to the same account again.
    const back = await callback('kakao', await startFlow('kakao'));
    expect(back.headers.location).toBe('/upscale');
    expect((await check(sidOf(back)!)).user.id).toBe(me.id);
  });

  it('a known identity signs its account in again: same account, no second welcome grant; password login refuses the password-less account', async () => {
    const first = await callback('kakao', await startFlow('kakao'));
    const u1 = (await check(sidOf(first)!)).user;
    const second = await callback('kakao', await startFlow('kakao'));
    expect(second.headers.location).toBe('/upscale');
    const u2 = (await check(sidOf(second)!)).user;
    expect(u2.id).toBe(u1.id);
    expect(u2.credits).toBe(300);
    const grants = await db().select({ n: count() }).from(creditLedger).where(and(eq(creditLedger.userId, u1.id), eq(creditLedger.reasonCode, 'welcome')));
    expect(grants[0]!.n).toBe(1);
    const login = await t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'accept-language': 'en' }, payload: { email: fake.users.kakao.email, password: 'anything-at-all' } });
    expect(login.statusCode).toBe(401);
    expect(login.json()).toMatchObject({ code: 'INVALID_CREDENTIALS', message: 'The e-mail or password is incorrect.' });
  });

  it('a state that does not match the cookie, a missing cookie and an expired cookie are refused and create nothing', async () => {
    const before = await userCount();
    const flow = await startFlow('kakao');
    const forged = flow.path.replace(/state=[^&]+/, 'state=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
    const r1 = await t.app.inject({ url: forged, cookies: { dewy_oauth_kakao: flow.cookie } });
    expect(r1.headers.location).toBe('/login?error=OAUTH_STATE_MISMATCH');
    const r2 = await t.app.inject({ url: flow.path });
    expect(r2.headers.location).toBe('/login?error=OAUTH_STATE_MISMATCH');
    const tampered = `${flow.cookie.slice(0, -2)}xx`;
    const r3 = await t.app.inject({ url: flow.path, cookies: { dewy_oauth_kakao: tampered } });
    expect(r3.headers.location).toBe('/login?error=OAUTH_STATE_MISMATCH');
    const state = flow.cb.searchParams.get('state')!;
    const expired = sealOAuthState(oauthStateKey(t.ctx.secret), { p: 'kakao', s: state, v: null, i: 'login', u: null, n: null, l: 'en' }, Date.now() - 11 * 60_000);
    const r4 = await t.app.inject({ url: flow.path, cookies: { dewy_oauth_kakao: expired } });
    expect(r4.headers.location).toBe('/login?error=OAUTH_STATE_MISMATCH');
    expect(await userCount()).toBe(before);
    expect(sidOf(r1) ?? sidOf(r2) ?? sidOf(r3) ?? sidOf(r4)).toBeUndefined();
  });

  it('a replayed code is refused by the provider and signs nobody in; a cancelled consent says so', async () => {
    const flow = await startFlow('kakao');
    expect((await callback('kakao', flow)).headers.location).toBe('/upscale');
    const again = await callback('kakao', flow);
    expect(again.headers.location).toBe('/login?error=SOCIAL_AUTH_FAILED');
    expect(sidOf(again)).toBeUndefined();
    const flow2 = await startFlow('kakao', { query: '?locale=en' });
    const denied = await t.app.inject({ url: `/api/auth/kakao/callback?error=access_denied&state=${flow2.cb.searchParams.get('state')}`, cookies: { dewy_oauth_kakao: flow2.cookie } });
    expect(denied.headers.location).toBe('/en/login?error=SOCIAL_CANCELLED');
  });

  it('an unverified provider e-mail never creates, matches or links an account', async () => {
    const victim = await signUpAndLogin(t.app);
    const before = await userCount();
    fake.users.kakao = { id: 8_100_000 + seq, email: victim.email, isEmailValid: true, isEmailVerified: false };
    const res = await callback('kakao', await startFlow('kakao'));
    expect(res.headers.location).toBe('/login?error=SOCIAL_EMAIL_UNVERIFIED');
    fake.users.kakao = { id: 8_200_000 + seq, email: `fresh${seq}@kakao.example`, isEmailValid: false, isEmailVerified: true };
    expect((await callback('kakao', await startFlow('kakao'))).headers.location).toBe('/login?error=SOCIAL_EMAIL_UNVERIFIED');
    fake.users.kakao = { id: 8_300_000 + seq };
    expect((await callback('kakao', await startFlow('kakao'))).headers.location).toBe('/login?error=SOCIAL_EMAIL_UNVERIFIED');
    // Naver vouches only for its own mailboxes.
    fake.users.naver = { id: `naver-x-${seq}`, email: victim.email };
    expect((await callback('naver', await startFlow('naver'))).headers.location).toBe('/login?error=SOCIAL_EMAIL_UNVERIFIED');
    expect(await userCount()).toBe(before);
    expect(await db().select().from(userIdentities).where(eq(userIdentities.userId, victim.user.id))).toHaveLength(0);
  });

  it('a verified e-mail of an existing account is not linked silently; after signing in the owner links it, and then it signs in', async () => {
    const owner = await signUpAndLogin(t.app, `owner${seq}@kakao.example`);
    fake.users.kakao = { id: 8_400_000 + seq, email: owner.email, isEmailValid: true, isEmailVerified: true };
    const refused = await callback('kakao', await startFlow('kakao', { query: '?locale=ko' }));
    expect(refused.headers.location).toBe('/login?error=SOCIAL_ACCOUNT_EXISTS');
    expect(sidOf(refused)).toBeUndefined();
    expect(await db().select().from(userIdentities).where(eq(userIdentities.userId, owner.user.id))).toHaveLength(0);

    const sid = owner.cookie.slice('dewy_sid='.length);
    const flow = await startFlow('kakao', { sid, query: '?intent=link&next=/mypage' });
    const linked = await callback('kakao', flow, sid);
    expect(linked.headers.location).toBe('/mypage?social=linked&provider=kakao');
    expect(await recentSocialReauth(db(), sessionIdFor(sid), 300)).toBe(true);
    const list = await t.app.inject({ url: '/api/auth/identities', cookies: { dewy_sid: sid } });
    expect(list.json()).toMatchObject({ hasPassword: true, identities: [{ provider: 'kakao', email: owner.email }] });

    const signIn = await callback('kakao', await startFlow('kakao'));
    expect(signIn.headers.location).toBe('/upscale');
    expect((await check(sidOf(signIn)!)).user.id).toBe(owner.user.id);
  });

  it('link needs a session; an identity of another account is not taken over; reauth accepts only the account\'s own identity', async () => {
    const noSession = await t.app.inject({ url: '/api/auth/kakao?intent=link' });
    expect(noSession.headers.location).toBe('/login?error=UNAUTHENTICATED');
    // Kakao user A signs up by Kakao.
    const a = await callback('kakao', await startFlow('kakao'));
    expect(a.headers.location).toBe('/upscale');
    // B (password account) tries to link A's Kakao identity.
    const b = await signUpAndLogin(t.app);
    const bSid = b.cookie.slice('dewy_sid='.length);
    const steal = await callback('kakao', await startFlow('kakao', { sid: bSid, query: '?intent=link' }), bSid);
    expect(steal.headers.location).toBe('/mypage?socialError=IDENTITY_IN_USE');
    const reauthWrong = await callback('kakao', await startFlow('kakao', { sid: bSid, query: '?intent=reauth&next=/mypage%3Ftab%3Daccount' }), bSid);
    expect(reauthWrong.headers.location).toBe('/mypage?tab=account&socialError=SOCIAL_REAUTH_MISMATCH');
    expect(await recentSocialReauth(db(), sessionIdFor(bSid), 300)).toBe(false);
    // A re-authenticates with its own identity: its session is marked.
    const aSid = sidOf(a)!;
    const reauth = await callback('kakao', await startFlow('kakao', { sid: aSid, query: '?intent=reauth' }), aSid);
    expect(reauth.headers.location).toBe('/mypage?social=reauth&provider=kakao');
    // A callback finished in another session than the one that started is refused.
    const flow = await startFlow('kakao', { sid: aSid, query: '?intent=link' });
    expect((await callback('kakao', flow, bSid)).headers.location).toBe('/mypage?socialError=UNAUTHENTICATED');
    // A scheme-relative next is ignored.
    const evil = await t.app.inject({ url: '/api/auth/kakao?next=//evil.example/x' });
    expect(evil.statusCode).toBe(303);
    expect((await callback('kakao', { cookie: evil.cookies.find((c) => c.name === 'dewy_oauth_kakao')!.value, path: new URL((await fetch(evil.headers.location as string, { redirect: 'manual' })).headers.get('location')!).search.replace(/^/, '/api/auth/kakao/callback') })).headers.location).toBe('/upscale');
  });

  it('Naver: a naver.com identity signs up without PKCE, state sent to the token endpoint; a replayed code is refused', async () => {
    const flow = await startFlow('naver', { query: '?locale=en&next=/pricing' });
    expect(fake.authorizeRequests.at(-1)!.query.code_challenge).toBeUndefined();
    const res = await callback('naver', flow);
    expect(res.headers.location).toBe('/en/pricing');
    expect(fake.tokenRequests.at(-1)!.body).toMatchObject({ client_secret: CLIENTS.naver.clientSecret, state: flow.cb.searchParams.get('state') });
    expect((await check(sidOf(res)!)).user).toMatchObject({ email: fake.users.naver.email, credits: 300 });
    expect((await callback('naver', flow)).headers.location).toBe('/en/login?error=SOCIAL_AUTH_FAILED');
  });

  it('parallel callbacks with the same code give one account and one identity', async () => {
    const users0 = await userCount();
    const ids0 = await identityCount();
    const flow = await startFlow('kakao');
    const results = await Promise.all(Array.from({ length: 8 }, () => callback('kakao', flow)));
    const ok = results.filter((r) => r.headers.location === '/upscale');
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.headers.location === '/login?error=SOCIAL_AUTH_FAILED')).toHaveLength(7);
    expect(await userCount()).toBe(users0 + 1);
    expect(await identityCount()).toBe(ids0 + 1);
  });

  it('parallel sign-ins of one new identity with different codes create one account, all signed in to it', async () => {
    const users0 = await userCount();
    const flows = await Promise.all(Array.from({ length: 6 }, () => startFlow('kakao')));
    const results = await Promise.all(flows.map((f) => callback('kakao', f)));
    expect(results.map((r) => r.headers.location)).toEqual(Array(6).fill('/upscale'));
    expect(await userCount()).toBe(users0 + 1);
    const ids = new Set(await Promise.all(results.map(async (r) => (await check(sidOf(r)!)).user.id)));
    expect(ids.size).toBe(1);
    const [id] = [...ids];
    expect((await db().select({ n: count() }).from(creditLedger).where(and(eq(creditLedger.userId, id!), eq(creditLedger.reasonCode, 'welcome'))))[0]!.n).toBe(1);
  });

  describe('Google', () => {
    const post = (credential: string, lang = 'en') => t.app.inject({ method: 'POST', url: '/api/auth/google', headers: { 'accept-language': lang }, payload: { credential } });
    const claims = () => ({ sub: `g-${seq}`, email: `g${seq}@gmail.example`, email_verified: true, name: `Google ${seq}` });

    it('a valid credential signs up and in; the same identity signs in again', async () => {
      const res = await post(await fake.signIdToken(claims()));
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ email: `g${seq}@gmail.example`, nickname: `Google ${seq}`, credits: 300 });
      const again = await post(await fake.signIdToken(claims()));
      expect(again.json().id).toBe(res.json().id);
      expect(await recentSocialReauth(db(), sessionIdFor(sidOf(again)!), 60)).toBe(true);
    });

    it.each([
      ['expired', { exp: Math.floor(Date.now() / 1000) - 120 }, 'jwks'],
      ['wrong audience', { aud: 'someone-else.apps.googleusercontent.com' }, 'jwks'],
      ['wrong issuer', { iss: 'https://evil.example' }, 'jwks'],
      ['bad signature', {}, 'foreign'],
    ] as const)('%s: 401 in the caller language, nothing written', async (_label, override, key) => {
      const before = await userCount();
      const res = await post(await fake.signIdToken({ ...claims(), ...override }, { key }), 'ko');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'SOCIAL_AUTH_FAILED', error: '소셜 로그인에 실패했습니다. 다시 시도해주세요.' });
      expect(sidOf(res)).toBeUndefined();
      expect(await userCount()).toBe(before);
    });

    it('a garbage credential, control characters and an empty body are refused', async () => {
      expect((await post('not-a-jwt')).json().code).toBe('SOCIAL_AUTH_FAILED');
      expect((await post('abc\u0000def')).statusCode).toBe(400);
      const empty = await t.app.inject({ method: 'POST', url: '/api/auth/google', payload: {} });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().code).toBe('VALIDATION_FAILED');
    });

    it('an unverified e-mail and an existing account are refused (403, 409) and nothing is linked', async () => {
      const owner = await signUpAndLogin(t.app);
      const unverified = await post(await fake.signIdToken({ ...claims(), email: owner.email, email_verified: false }));
      expect(unverified.statusCode).toBe(403);
      expect(unverified.json().code).toBe('SOCIAL_EMAIL_UNVERIFIED');
      const exists = await post(await fake.signIdToken({ ...claims(), email: owner.email }), 'ko');
      expect(exists.statusCode).toBe(409);
      expect(exists.json()).toMatchObject({ code: 'SOCIAL_ACCOUNT_EXISTS', error: expect.stringContaining('마이페이지에서 연결') });
      expect(await db().select().from(userIdentities).where(eq(userIdentities.userId, owner.user.id))).toHaveLength(0);
      // Signed in, the owner links it; then the credential signs in to the owner's account.
      const link = await t.app.inject({ method: 'POST', url: '/api/auth/google/link', headers: { cookie: owner.cookie }, payload: { credential: await fake.signIdToken({ ...claims(), email: owner.email }) } });
      expect(link.statusCode).toBe(200);
      expect((await post(await fake.signIdToken({ ...claims(), email: owner.email }))).json().id).toBe(owner.user.id);
    });
  });

  it('unlink: refused for the last way to sign in, allowed while a password or another identity remains; parallel unlinks keep one', async () => {
    const k = await callback('kakao', await startFlow('kakao'));
    const sid = sidOf(k)!;
    const en = await t.app.inject({ method: 'DELETE', url: '/api/auth/identities/kakao', cookies: { dewy_sid: sid }, headers: { 'accept-language': 'en' } });
    expect(en.statusCode).toBe(409);
    expect(en.json()).toMatchObject({ code: 'LAST_SIGN_IN_METHOD', message: 'You cannot unlink your last way to sign in. Link another sign-in method first.' });
    const ko = await t.app.inject({ method: 'DELETE', url: '/api/auth/identities/kakao', cookies: { dewy_sid: sid, locale: 'ko' } });
    expect(ko.json().message).toContain('마지막 로그인 수단');
    const missing = await t.app.inject({ method: 'DELETE', url: '/api/auth/identities/naver', cookies: { dewy_sid: sid } });
    expect(missing.statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'DELETE', url: '/api/auth/identities/github', cookies: { dewy_sid: sid } });
    expect(bad.statusCode).toBe(400);
    // Link Naver and Google, then unlink all three in parallel: exactly two go, one stays.
    expect((await callback('naver', await startFlow('naver', { sid, query: '?intent=link' }), sid)).headers.location).toBe('/mypage?social=linked&provider=naver');
    const g = await t.app.inject({ method: 'POST', url: '/api/auth/google/link', cookies: { dewy_sid: sid }, payload: { credential: await fake.signIdToken({ sub: `gl-${seq}`, email: `gl${seq}@gmail.example`, email_verified: true }) } });
    expect(g.statusCode).toBe(200);
    const all = await Promise.all((['kakao', 'naver', 'google'] as const).map((p) => t.app.inject({ method: 'DELETE', url: `/api/auth/identities/${p}`, cookies: { dewy_sid: sid } })));
    expect(all.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(all.filter((r) => r.statusCode === 409)).toHaveLength(1);
    const left = (await t.app.inject({ url: '/api/auth/identities', cookies: { dewy_sid: sid } })).json();
    expect(left).toMatchObject({ hasPassword: false });
    expect(left.identities).toHaveLength(1);
    // A password account may unlink its only identity. Its own Kakao user: which of the three identities
    // survived the parallel unlinks is the scheduler's choice, and a Kakao identity still linked to the
    // first account could not be linked here.
    fake.users.kakao = { id: 8_000_000 + seq, email: `kakao-pw${seq}@kakao.example`, isEmailValid: true, isEmailVerified: true, nickname: `카카오pw${seq}` };
    const pw = await signUpAndLogin(t.app);
    const pwSid = pw.cookie.slice('dewy_sid='.length);
    expect((await callback('kakao', await startFlow('kakao', { sid: pwSid, query: '?intent=link' }), pwSid)).headers.location).toBe('/mypage?social=linked&provider=kakao');
    const un = await t.app.inject({ method: 'DELETE', url: '/api/auth/identities/kakao', cookies: { dewy_sid: pwSid } });
    expect(un.statusCode).toBe(200);
    expect(un.json()).toEqual({ hasPassword: true, identities: [] });
  });

  it('a social sign-up counts against the per-IP sign-up limit; a known identity still signs in', async () => {
    const limited = await createTestApp(kind, {
      SIGNUP_MAX_PER_IP: '2',
      KAKAO_CLIENT_ID: CLIENTS.kakao.clientId,
      KAKAO_CLIENT_SECRET: CLIENTS.kakao.clientSecret,
      KAKAO_BASE_URL: fake.origin,
      KAKAO_API_BASE_URL: fake.origin,
      GOOGLE_CLIENT_ID: CLIENTS.google.clientId,
      GOOGLE_JWKS_URL: `${fake.origin}/oauth2/v3/certs`,
    });
    try {
      const flow = async () => {
        const start = await limited.app.inject({ url: '/api/auth/kakao' });
        const cb = new URL((await fetch(start.headers.location as string, { redirect: 'manual' })).headers.get('location')!);
        return limited.app.inject({ url: `${cb.pathname}${cb.search}`, cookies: { dewy_oauth_kakao: start.cookies.find((c) => c.name === 'dewy_oauth_kakao')!.value } });
      };
      const first = { ...fake.users.kakao };
      expect((await flow()).headers.location).toBe('/upscale');
      fake.users.kakao = { ...first, id: first.id + 500_000, email: `second${seq}@kakao.example` };
      expect((await flow()).headers.location).toBe('/upscale');
      fake.users.kakao = { ...first, id: first.id + 600_000, email: `third${seq}@kakao.example` };
      expect((await flow()).headers.location).toBe('/login?error=RATE_LIMITED');
      const g = await limited.app.inject({ method: 'POST', url: '/api/auth/google', headers: { 'accept-language': 'en' }, payload: { credential: await fake.signIdToken({ sub: `lim-${seq}`, email: `lim${seq}@gmail.example`, email_verified: true }) } });
      expect(g.statusCode).toBe(429);
      expect(g.json()).toMatchObject({ code: 'RATE_LIMITED', message: 'Too many attempts. Please try again later.' });
      expect((await limited.ctx.database.db.select({ n: count() }).from(users))[0]!.n).toBe(2);
      fake.users.kakao = first;
      expect((await flow()).headers.location).toBe('/upscale');
    } finally {
      await limited.close();
    }
  });

  it('the CSP lets the Google Identity Services button load only when Google is configured', async () => {
    const on = String((await t.app.inject({ url: '/api/auth/providers' })).headers['content-security-policy']);
    expect(on).toContain("script-src 'self' https://accounts.google.com/gsi/client");
    expect(on).toContain('frame-src https://accounts.google.com/gsi/');
    expect(on).toMatch(/connect-src [^;]*https:\/\/accounts\.google\.com\/gsi\//);
    const offCsp = String((await off.app.inject({ url: '/api/auth/providers' })).headers['content-security-policy']);
    expect(offCsp).not.toContain('accounts.google.com');
  });

  it('not configured: the buttons\' routes say NOT_CONFIGURED in both languages and write nothing', async () => {
    const providers = await off.app.inject({ url: '/api/auth/providers' });
    expect(providers.json()).toEqual({ google: null, naver: false, kakao: false });
    const configured = await t.app.inject({ url: '/api/auth/providers' });
    expect(configured.json()).toEqual({ google: { clientId: CLIENTS.google.clientId }, naver: true, kakao: true });
    expect((await off.app.inject({ url: '/api/auth/kakao' })).headers.location).toBe('/login?error=NOT_CONFIGURED');
    expect((await off.app.inject({ url: '/api/auth/naver?locale=en' })).headers.location).toBe('/en/login?error=NOT_CONFIGURED');
    const g = await off.app.inject({ method: 'POST', url: '/api/auth/google', headers: { 'accept-language': 'en' }, payload: { credential: 'x.y.z' } });
    expect(g.statusCode).toBe(503);
    expect(g.json()).toMatchObject({ code: 'NOT_CONFIGURED', message: 'This feature is not configured yet.' });
    const gKo = await off.app.inject({ method: 'POST', url: '/api/auth/google', headers: { 'accept-language': 'ko' }, payload: { credential: 'x.y.z' } });
    expect(gKo.json().message).toBe('이 기능은 아직 설정되지 않았습니다.');
    const n = await off.ctx.database.db.select({ n: count() }).from(users);
    expect(n[0]!.n).toBe(0);
  });
});
