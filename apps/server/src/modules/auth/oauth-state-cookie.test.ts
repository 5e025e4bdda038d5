import { describe, expect, it } from 'vitest';
import { oauthStateKey, openOAuthState, sameState, sealOAuthState } from './oauth-state-cookie';
import { safeReturnPath } from '@dewy/contracts';

const key = oauthStateKey('x'.repeat(32));
const attempt = { p: 'kakao' as const, s: 'S'.repeat(43), v: 'V'.repeat(43), i: 'login' as const, u: null, n: '/pricing', l: 'ko' as const };

describe('OAuth state cookie (decision 021)', () => {
  it('opens what it sealed, within ten minutes only', () => {
    const now = Date.now();
    const sealed = sealOAuthState(key, attempt, now);
    expect(openOAuthState(key, sealed, now + 1000)).toMatchObject(attempt);
    expect(openOAuthState(key, sealed, now + 601_000)).toBeNull();
  });
  it('refuses another key, a changed body or signature, garbage', () => {
    const sealed = sealOAuthState(key, attempt);
    expect(openOAuthState(oauthStateKey('y'.repeat(32)), sealed)).toBeNull();
    const [body, mac] = sealed.split('.') as [string, string];
    const other = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), i: 'link', u: 1 })).toString('base64url');
    expect(openOAuthState(key, `${other}.${mac}`)).toBeNull();
    // Change the first character: all its 6 bits count (the last one of a 32-byte MAC carries 4, so
    // writing 'A' there kept the same bytes whenever it was already A–D: 1 run in 16 passed a bad MAC).
    expect(openOAuthState(key, `${body}.${mac[0] === 'A' ? 'B' : 'A'}${mac.slice(1)}`)).toBeNull();
    expect(openOAuthState(key, 'nonsense')).toBeNull();
    expect(openOAuthState(key, undefined)).toBeNull();
  });
  it('compares states exactly', () => {
    expect(sameState('abc', 'abc')).toBe(true);
    expect(sameState('abc', 'abd')).toBe(false);
    expect(sameState('abc', 'abcd')).toBe(false);
  });
  it('accepts only same-site return paths, without the /en prefix', () => {
    expect(safeReturnPath('/mypage')).toBe('/mypage');
    expect(safeReturnPath('/en/pricing?x=1')).toBe('/pricing?x=1');
    expect(safeReturnPath('/en')).toBe('/');
    for (const bad of ['//evil.example', '/\\evil.example', 'https://evil.example', 'mypage', '/a\nb', `/${'a'.repeat(200)}`, 3]) expect(safeReturnPath(bad)).toBeNull();
  });
});
