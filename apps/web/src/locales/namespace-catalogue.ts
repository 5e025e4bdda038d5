import { expect, it } from 'vitest';
import appEn from './en.json';
import appKo from './ko.json';

/**
 * Checks shared by the page catalogues kept in their own i18next namespace (decision 040 §5: the
 * pricing page, My Page's billing history and receipts), for a test file to call inside `describe`.
 */

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[path, value] as [string, string]] : leaves(value, path);
  });
}

const vars = (message: string) => [...message.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();

/** Same keys and variables in both languages, no empty message, no key the app's catalogue defines too. */
export function itIsAPageCatalogue(ko: object, en: object): void {
  const koLeaves = new Map(leaves(ko as Tree));
  const enLeaves = new Map(leaves(en as Tree));

  it('has the same keys, no empty message and the same variables in both languages', () => {
    expect([...koLeaves.keys()].sort()).toEqual([...enLeaves.keys()].sort());
    for (const [key, k] of koLeaves) {
      const e = enLeaves.get(key) ?? '';
      expect(k.trim().length > 0 && e.trim().length > 0, key).toBe(true);
      expect(vars(e), key).toEqual(vars(k));
    }
  });

  it('defines no key the app’s catalogue defines (the page reads both)', () => {
    for (const [app, page] of [
      [appKo, koLeaves],
      [appEn, enLeaves],
    ] as const) {
      const appKeys = new Set(leaves(app as Tree).map(([k]) => k));
      expect([...page.keys()].filter((k) => appKeys.has(k))).toEqual([]);
    }
  });
}
