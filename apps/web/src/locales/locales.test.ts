import { describe, expect, it } from 'vitest';
import en from './en.json';
import ko from './ko.json';

type Tree = { [key: string]: string | Tree };

/** Every leaf key path of a catalogue, e.g. `upscale.error.timeout`. */
function leafKeys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return typeof value === 'string' ? [path] : leafKeys(value, path);
  });
}

/** Interpolation variables of a message, e.g. `{{n}}`. */
function vars(message: string): string[] {
  return [...message.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1] ?? '').sort();
}

function lookup(tree: Tree, path: string): string | Tree | undefined {
  return path.split('.').reduce<string | Tree | undefined>((node, key) => (node && typeof node === 'object' ? node[key] : undefined), tree);
}

describe('locale catalogues', () => {
  const koKeys = leafKeys(ko as Tree);
  const enKeys = leafKeys(en as Tree);

  it('has every Korean key in English', () => {
    expect(koKeys.filter((k) => !enKeys.includes(k))).toEqual([]);
  });

  it('has every English key in Korean', () => {
    expect(enKeys.filter((k) => !koKeys.includes(k))).toEqual([]);
  });

  it('has no empty message and the same variables in both languages', () => {
    for (const key of koKeys) {
      const k = lookup(ko as Tree, key);
      const e = lookup(en as Tree, key);
      expect(typeof k === 'string' && k.trim().length > 0, `ko ${key}`).toBe(true);
      expect(typeof e === 'string' && e.trim().length > 0, `en ${key}`).toBe(true);
      if (typeof k === 'string' && typeof e === 'string') expect(vars(e), key).toEqual(vars(k));
    }
  });

  it('keeps the spec wording of the Korean catalogue', () => {
    expect(lookup(ko as Tree, 'upscale.error.fileType')).toBe('jpg,png만 업로드 가능합니다!');
    expect(lookup(ko as Tree, 'session.expired')).toBe('로그인이 만료되었습니다. 다시 로그인해주세요.');
    expect(lookup(ko as Tree, 'auth.login.failed')).toBe('로그인에 실패했습니다.');
    expect(lookup(ko as Tree, 'faceEdit.error.fileType')).toBe('JPG/PNG 이미지를 업로드해주세요.');
    // 001 §8: the one insufficient-credits message of every tool, declared once.
    expect(lookup(ko as Tree, 'toolJob.error.insufficientCredits')).toBe('크레딧이 부족합니다. 크레딧을 충전해주세요.');
  });

  it('words the insufficient credits once, for every tool', () => {
    const all = [...leafKeys(ko as Tree).map((k) => ['ko', k] as const), ...leafKeys(en as Tree).map((k) => ['en', k] as const)];
    const credits = all.filter(([lang, k]) => /insufficientCredits$/.test(k) || /크레딧이 부족|not enough credits|insufficient credits/i.test(String(lookup((lang === 'ko' ? ko : en) as Tree, k))));
    expect(credits.map(([lang, k]) => `${lang} ${k}`)).toEqual(['ko toolJob.error.insufficientCredits', 'en toolJob.error.insufficientCredits']);
  });

  it('keeps the spec wording of the face-edit messages (001 §5/§8)', () => {
    const exact: Record<string, string> = {
      'faceEdit.error.noImage': 'please upload an image',
      'faceEdit.error.maskRequired': 'Please specify and save the mask first',
      'faceEdit.error.maskEmpty': 'Paint the area to change!',
      // Every tool's one insufficient-credits message (001 §5's English wording).
      'toolJob.error.insufficientCredits': 'Insufficient credits',
      'faceEdit.error.aiFailed': 'AI processing failed. Please try again.',
      'faceEdit.error.timeout': 'Processing time exceeded. Please try again.',
      'faceEdit.error.processingFailed': 'Processing failed. Check the image and mask and try again.',
      'faceEdit.error.generic': 'An error occurred during processing.',
      'faceEdit.error.download': 'Download failed. Try again shortly.',
      'faceEdit.error.downloadOffline': 'Network disconnected. Reconnect and try again.',
    };
    for (const [key, text] of Object.entries(exact)) expect(lookup(en as Tree, key), key).toBe(text);
  });
});
