import { describe, expect, it } from 'vitest';
import { safeReturnPath } from './return-path';
import { OPEN_REDIRECT_PAYLOADS } from './testing/open-redirect-payloads';

/** How a browser on https://dewy.example would resolve `path` (as `Location` or as a client navigation). */
function landsOnOwnOrigin(path: string): boolean {
  const base = 'https://dewy.example/login';
  return new URL(path, base).origin === 'https://dewy.example' && new URL(`/en${path === '/' ? '' : path}`, base).origin === 'https://dewy.example';
}

describe('safeReturnPath (one rule for every next)', () => {
  it('keeps same-site paths, query and fragment, in their Korean form', () => {
    expect(safeReturnPath('/pricing')).toBe('/pricing');
    expect(safeReturnPath('/en/pricing?tab=credits')).toBe('/pricing?tab=credits');
    expect(safeReturnPath('/en')).toBe('/');
    expect(safeReturnPath('/en/')).toBe('/');
    expect(safeReturnPath('/en?x=1')).toBe('/?x=1');
    expect(safeReturnPath('/pricing/en')).toBe('/pricing/en');
    expect(safeReturnPath('/english')).toBe('/english');
    expect(safeReturnPath('/en/mypage?tab=history#credits')).toBe('/mypage?tab=history#credits');
    expect(safeReturnPath('/pricing?next=%2Fmypage')).toBe('/pricing?next=%2Fmypage');
  });

  it('refuses what is not a path', () => {
    for (const bad of [null, undefined, 42, {}, '', 'pricing', 'https://evil.example', '//evil.example', '/\\evil.example', '/x\n']) {
      expect(safeReturnPath(bad), String(bad)).toBeNull();
    }
  });

  it.each(OPEN_REDIRECT_PAYLOADS.map((p) => [JSON.stringify(p), p]))('%s is refused or stays on our origin', (_name, payload) => {
    const out = safeReturnPath(payload);
    if (out === null) return;
    expect(out.startsWith('/')).toBe(true);
    expect(out.startsWith('//')).toBe(false);
    expect(out).toMatch(/^[\u0021-\u007e]+$/); // ASCII, no spaces or controls: a valid Location header
    expect(landsOnOwnOrigin(out)).toBe(true);
    expect(landsOnOwnOrigin(decodeURIComponent(out))).toBe(true);
    expect(safeReturnPath(out)).toBe(out); // idempotent: a sealed next re-checked at the callback is unchanged
  });

  it('refuses the payloads of the report and their encodings outright', () => {
    for (const p of ['/en//evil.example', '/%2F%2Fevil.example', '/%2f%2fevil.example', '/en/%5Cevil.example', '/en/%2F/evil.example', '/.//evil.example', '/\t/evil.example', '/\n/evil.example']) {
      expect(safeReturnPath(p), p).toBeNull();
    }
  });
});
