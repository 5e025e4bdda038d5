import { describe, expect, it } from 'vitest';
import { itIsAPageCatalogue } from '../../../locales/namespace-catalogue';
import en from './en.json';
import ko from './ko.json';

type Tree = { [key: string]: string | Tree };

const messages = (tree: Tree): string[] => Object.values(tree).flatMap((v) => (typeof v === 'string' ? [v] : messages(v)));

describe('the batch page’s catalogue (namespace "batch")', () => {
  itIsAPageCatalogue(ko, en);

  it('leaves the insufficient-credits wording to the one shared message (toolJob.error.insufficientCredits)', () => {
    const all = [...messages(ko as Tree), ...messages(en as Tree)];
    expect(all.filter((m) => /크레딧이 부족|not enough credits|insufficient credits/i.test(m))).toEqual([]);
  });
});
