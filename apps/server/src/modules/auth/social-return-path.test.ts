import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { startFakeSocial, type FakeSocial } from '../../../test/fakes/fake-social.server';
import { OPEN_REDIRECT_PAYLOADS } from '../../../../../packages/contracts/src/testing/open-redirect-payloads';
import { oauthStateKey, sealOAuthState } from './oauth-state-cookie';

const CLIENTS = { kakao: { clientId: 'kakao-rest-key', clientSecret: 'kakao-secret' }, naver: { clientId: 'naver-id', clientSecret: 'naver-secret' }, google: { clientId: 'google-client.apps.googleusercontent.com' } };
const SITE = 'http://localhost:5000';

/** Where a browser that received `location` from the callback would end up. */
const landing = (location: unknown) => new URL(String(location), `${SITE}/api/auth/kakao/callback`);

/**
 * Issue 21 point 8: `GET /api/auth/kakao?next=/en//evil.example` ended, after the callback, in
 * `303 Location: //evil.example`. Every `next` of every social redirect (start, callback, link, reauth,
 * error redirects) passes the one return-path rule (decision 031); whatever the payload, the browser
 * lands on our own origin.
 */
describe.each(TEST_DATABASES)('social redirects never leave the site on $name', (kind) => {
  let fake: FakeSocial;
  let t: TestApp;
  let sid: string;
  let userId: number;
  beforeAll(async () => {
    fake = await startFakeSocial(CLIENTS);
    t = await createTestApp(kind, { KAKAO_CLIENT_ID: CLIENTS.kakao.clientId, KAKAO_CLIENT_SECRET: CLIENTS.kakao.clientSecret, KAKAO_BASE_URL: fake.origin, KAKAO_API_BASE_URL: fake.origin });
    fake.users.kakao = { id: 7_100_001, email: 'redirect-probe@kakao.example', isEmailValid: true, isEmailVerified: true, nickname: 'probe' };
    const me = await signUpAndLogin(t.app);
    sid = me.cookie.slice('dewy_sid='.length);
    userId = me.user.id;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** Start → the fake provider's authorize → our callback; every Location on the way is returned. */
  async function flow(query: string, opts: { sid?: string; providerError?: boolean } = {}): Promise<string[]> {
    const cookies: Record<string, string> = opts.sid ? { dewy_sid: opts.sid } : {};
    const start = await t.app.inject({ url: `/api/auth/kakao?${query}`, cookies });
    if (start.statusCode === 400) return []; // refused by the schema (too long): no redirect at all
    expect(start.statusCode).toBe(303);
    const to = String(start.headers.location);
    if (!to.startsWith(fake.origin)) return [to]; // an error redirect of the start itself
    const state = start.cookies.find((c) => c.name === 'dewy_oauth_kakao')!.value;
    const authz = await fetch(to, { redirect: 'manual' });
    const cb = new URL(authz.headers.get('location')!);
    if (opts.providerError) cb.search = `?error=access_denied&state=${cb.searchParams.get('state')}`;
    const res = await t.app.inject({ url: `${cb.pathname}${cb.search}`, cookies: { dewy_oauth_kakao: state, ...cookies } });
    expect(res.statusCode).toBe(303);
    return [String(res.headers.location)];
  }

  it('the reported payload: /en//evil.example after the Kakao callback goes to /upscale, not //evil.example', async () => {
    const [loc] = await flow(`next=${encodeURIComponent('/en//evil.example')}`);
    expect(loc).toBe('/upscale');
    const [en] = await flow(`locale=en&next=${encodeURIComponent('/en//evil.example')}`);
    expect(en).toBe('/en/upscale');
  });

  it('a genuine next survives in the page language', async () => {
    expect(await flow(`next=${encodeURIComponent('/en/pricing?tab=credits')}`)).toEqual(['/pricing?tab=credits']);
    expect(await flow(`locale=en&next=${encodeURIComponent('/pricing?tab=credits')}`)).toEqual(['/en/pricing?tab=credits']);
  });

  it.each(OPEN_REDIRECT_PAYLOADS.map((p) => [JSON.stringify(p), p]))('%s: sign-in, link, reauth and error redirects stay on the site', async (_name, payload) => {
    const next = `next=${encodeURIComponent(payload)}`;
    const locations = [
      ...(await flow(next)),
      ...(await flow(`locale=en&${next}`)),
      ...(await flow(`intent=link&${next}`)), // no session: the start's own error redirect
      ...(await flow(`intent=link&${next}`, { sid, providerError: true })), // error redirect to next?socialError=
      ...(await flow(`intent=reauth&locale=en&${next}`, { sid, providerError: true })),
    ];
    for (const loc of locations) {
      expect(landing(loc).origin, `${JSON.stringify(payload)} → ${loc}`).toBe(SITE);
      expect(loc.startsWith('/') && !loc.startsWith('//') && !loc.includes('\\')).toBe(true);
    }
  });

  it('a sealed state holding an unsafe next (an older server, a stolen key) is checked again at the callback', async () => {
    const key = oauthStateKey(t.ctx.secret);
    const state = 'S'.repeat(43);
    for (const n of ['//evil.example', '/en//evil.example', '/\\evil.example']) {
      const sealed = sealOAuthState(key, { p: 'kakao', s: state, v: 'v'.repeat(43), i: 'link', u: userId, n, l: 'ko' });
      const res = await t.app.inject({ url: `/api/auth/kakao/callback?error=access_denied&state=${state}`, cookies: { dewy_oauth_kakao: sealed, dewy_sid: sid } });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/mypage?socialError=SOCIAL_CANCELLED');
    }
  });
});
