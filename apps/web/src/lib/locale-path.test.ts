import { describe, expect, it } from 'vitest';
import { addEnPrefix, initialLocale, isEnglishPath, localizePath, resolveLocale, rewriteForLocale, signedInDestination, stripEnPrefix } from './locale-path';
import { OPEN_REDIRECT_PAYLOADS } from '../../../../packages/contracts/src/testing/open-redirect-payloads';

describe('language paths (spec 000 §2)', () => {
  it('recognises English paths', () => {
    expect(isEnglishPath('/en')).toBe(true);
    expect(isEnglishPath('/en/upscale')).toBe(true);
    expect(isEnglishPath('/english')).toBe(false);
    expect(isEnglishPath('/pricing/en')).toBe(false);
    expect(isEnglishPath('/')).toBe(false);
  });

  it('strips /en (KR button)', () => {
    expect(stripEnPrefix('/en')).toBe('/');
    expect(stripEnPrefix('/en/')).toBe('/');
    expect(stripEnPrefix('/en/upscale')).toBe('/upscale');
    expect(stripEnPrefix('/en/notice/3/edit')).toBe('/notice/3/edit');
    expect(stripEnPrefix('/upscale')).toBe('/upscale');
  });

  it('adds /en (EN button)', () => {
    expect(addEnPrefix('/')).toBe('/en');
    expect(addEnPrefix('/upscale')).toBe('/en/upscale');
    expect(addEnPrefix('/en/upscale')).toBe('/en/upscale');
    expect(addEnPrefix('/en')).toBe('/en');
  });

  it('localises paths and rewrites English addresses lacking /en', () => {
    expect(localizePath('/login', 'en')).toBe('/en/login');
    expect(localizePath('/en/login', 'ko')).toBe('/login');
    expect(rewriteForLocale('/pricing', 'en')).toBe('/en/pricing');
    expect(rewriteForLocale('/en/pricing', 'en')).toBeNull();
    expect(rewriteForLocale('/pricing', 'ko')).toBeNull();
  });
});

describe('initial language (spec 000 §4)', () => {
  it('prefers the stored choice', () => {
    expect(initialLocale('en', 'ko-KR')).toBe('en');
    expect(initialLocale('ko', 'en-US')).toBe('ko');
  });
  it('falls back to Korean for ko* browsers, else English', () => {
    expect(initialLocale(null, 'ko-KR')).toBe('ko');
    expect(initialLocale(null, 'ko')).toBe('ko');
    expect(initialLocale(null, 'en-US')).toBe('en');
    expect(initialLocale('fr', 'ja-JP')).toBe('en');
    expect(initialLocale(undefined, undefined)).toBe('en');
  });
  it('treats an /en path as English', () => {
    expect(resolveLocale('/en/upscale', 'ko', 'ko-KR')).toBe('en');
    expect(resolveLocale('/upscale', null, 'ko-KR')).toBe('ko');
  });
});

describe('signedInDestination (signed-in visitors of /login and /signup)', () => {
  it('goes back to a same-site page named by next', () => {
    expect(signedInDestination('/pricing')).toBe('/pricing');
    expect(signedInDestination('/en/mypage?tab=history#credits')).toBe('/mypage?tab=history#credits');
  });
  it('goes to /upscale without next, for another origin, or for the forms themselves', () => {
    for (const next of [null, undefined, '', 'https://evil.example/x', '//evil.example', '/\\evil.example', 'javascript:alert(1)', '/login', '/en/signup?next=/x', '/signup#top']) {
      expect(signedInDestination(next), String(next)).toBe('/upscale');
    }
  });
  it('never leaves the site for any open-redirect payload (the shared rule, decision 031)', () => {
    for (const payload of OPEN_REDIRECT_PAYLOADS) {
      const to = signedInDestination(payload);
      for (const locale of ['ko', 'en'] as const) {
        const at = new URL(localizePath(to, locale), 'https://dewy.example/login');
        expect(at.origin, JSON.stringify(payload)).toBe('https://dewy.example');
      }
    }
    expect(signedInDestination('/en//evil.example')).toBe('/upscale');
  });
});
