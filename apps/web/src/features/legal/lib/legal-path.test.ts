import { describe, expect, it } from 'vitest';
import { legalLinkFor, legalRoute, legalSwitchPath } from './legal-path';
import { splitLegalText } from './legal-text';

describe('legal path → document and language (002 §2)', () => {
  it('a /kr or /en ending fixes the language, whatever the session', () => {
    expect(legalRoute('/terms/en', 'ko')).toEqual({ doc: 'terms', locale: 'en' });
    expect(legalRoute('/terms/kr', 'en')).toEqual({ doc: 'terms', locale: 'ko' });
    expect(legalRoute('/privacy/en', 'ko')).toEqual({ doc: 'privacy', locale: 'en' });
    expect(legalRoute('/refund/kr', 'ko')).toEqual({ doc: 'refund', locale: 'ko' });
  });

  it('an English session rewrites /terms/kr to /en/terms/kr, which stays Korean', () => {
    expect(legalRoute('/en/terms/kr', 'en')).toEqual({ doc: 'terms', locale: 'ko' });
    expect(legalRoute('/en/refund/en', 'en')).toEqual({ doc: 'refund', locale: 'en' });
  });

  it('without an ending, /en means English and a bare path follows the session', () => {
    expect(legalRoute('/en/terms', 'ko')).toEqual({ doc: 'terms', locale: 'en' });
    expect(legalRoute('/en/privacy', 'en')).toEqual({ doc: 'privacy', locale: 'en' });
    expect(legalRoute('/terms', 'ko')).toEqual({ doc: 'terms', locale: 'ko' });
    expect(legalRoute('/refund', 'en')).toEqual({ doc: 'refund', locale: 'en' });
  });

  it('answers null for paths that are not legal pages', () => {
    for (const p of ['/', '/en', '/pricing', '/terms/de', '/terms/en/x', '/termsx', '/notice']) expect(legalRoute(p, 'ko'), p).toBeNull();
  });

  it('the switch goes to the matching document ending in kr or en', () => {
    expect(legalSwitchPath('terms', 'ko')).toBe('/terms/kr');
    expect(legalSwitchPath('privacy', 'en')).toBe('/privacy/en');
    expect(legalSwitchPath('refund', 'en')).toBe('/refund/en');
  });

  it('site links open the document in the site language', () => {
    expect(legalLinkFor('terms', 'ko')).toBe('/terms/kr');
    expect(legalLinkFor('refund', 'en')).toBe('/en/refund');
    expect(legalRoute(legalLinkFor('privacy', 'en'), 'en')).toEqual({ doc: 'privacy', locale: 'en' });
    expect(legalRoute(legalLinkFor('privacy', 'ko'), 'ko')).toEqual({ doc: 'privacy', locale: 'ko' });
  });
});

describe('legal text tokens', () => {
  it('splits text around {supportEmail}, {companyName} and {ceo}, in order', () => {
    expect(splitLegalText('Write to {supportEmail}.')).toEqual([{ text: 'Write to ' }, { token: 'supportEmail' }, { text: '.' }]);
    expect(splitLegalText('{companyName}{ceo}')).toEqual([{ token: 'companyName' }, { token: 'ceo' }]);
    expect(splitLegalText('no tokens, {unknown} stays')).toEqual([{ text: 'no tokens, {unknown} stays' }]);
  });
});
