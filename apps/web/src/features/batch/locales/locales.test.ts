import { describe, expect, it } from 'vitest';
import appEn from '../../../locales/en.json';
import appKo from '../../../locales/ko.json';
import en from './en.json';
import ko from './ko.json';

type Tree = { [key: string]: string | Tree };

function leaves(tree: Tree, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [[path, value] as [string, string]] : leaves(value, path);
  });
}

const vars = (message: string) => [...message.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();

describe('the batch page’s catalogue (namespace "batch")', () => {
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

  it('leaves the insufficient-credits wording to the one shared message (toolJob.error.insufficientCredits)', () => {
    const all = [...koLeaves.values(), ...enLeaves.values()];
    expect(all.filter((m) => /크레딧이 부족|not enough credits|insufficient credits/i.test(m))).toEqual([]);
  });
});
