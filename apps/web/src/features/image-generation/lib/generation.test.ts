import { describe, expect, it } from 'vitest';
import { IMAGE_GENERATION, hasBannedKeyword, imageGenerationCost, klingAspectRatio } from '@dewy/contracts';
import { ApiError } from '../../../lib/api-client';
import { GENERATION_POLLING_SCHEDULE } from '../../../shared/tool-job/lib/polling';
import { INSUFFICIENT_CREDITS_KEY } from '../../../shared/tool-job/lib/tool-messages';
import { generationErrorKey, jobFailureKey, localHistoryKey, readLocalHistory, saveLocalHistory, type GenerationItem } from './generation';

/** A Storage in memory (the tests run without a DOM). */
function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}
const item = (id: number): GenerationItem => ({ id: `job-${id}`, referenceUrl: null, urls: [`/f/${id}.png`], prompt: `p${id}`, createdAt: new Date(2026, 0, 1, 0, id).toISOString() });

describe('consistency constants (002 §5/§9)', () => {
  it('15 credits per image, 1..4 images (default 4), seven ratios with 1x1 first, the rewrite costs 3', () => {
    expect([1, 2, 3, 4].map(imageGenerationCost)).toEqual([15, 30, 45, 60]);
    expect(IMAGE_GENERATION.count).toEqual({ min: 1, max: 4, default: 4 });
    expect(IMAGE_GENERATION.aspectRatios).toEqual(['1x1', '3x4', '9x16', '4x3', '16x9', '2x3', '3x2']);
    expect(IMAGE_GENERATION.defaultAspectRatio).toBe('1x1');
    expect(IMAGE_GENERATION.rewriteCost).toBe(3);
    expect(klingAspectRatio('9x16')).toBe('9:16');
  });
  it('banned keywords match case-insensitively anywhere in the prompt; the fallback list has 5 words', () => {
    expect(hasBannedKeyword('A NuDe study', ['nude'])).toBe(true);
    expect(hasBannedKeyword('a landscape', ['nude'])).toBe(false);
    expect(hasBannedKeyword('anything', ['', '  '])).toBe(false);
    expect(IMAGE_GENERATION.fallbackBannedKeywords).toHaveLength(5);
  });
});

describe('polling schedule (002 §4)', () => {
  it('2 s, 4 s, 8 s, then a random 10–15 s; stops after 60 polls', () => {
    const d = GENERATION_POLLING_SCHEDULE.delayMs;
    expect([d(0, 0), d(1, 0), d(2, 0)]).toEqual([2000, 4000, 8000]);
    expect(d(3, 0)).toBe(10_000);
    expect(d(10, 0.999)).toBeLessThan(15_000);
    expect(d(10, 0.999)).toBeGreaterThanOrEqual(14_990);
    expect(GENERATION_POLLING_SCHEDULE.timedOut(0, 0, 60)).toBe(false);
    expect(GENERATION_POLLING_SCHEDULE.timedOut(0, 0, 61)).toBe(true);
  });
});

describe('local history (002 §3/§9)', () => {
  it('keeps at most 50 per user, newest first, without duplicates, under a per-user key with a guest fallback', () => {
    const s = memoryStorage();
    for (let i = 0; i < 60; i++) saveLocalHistory(7, [item(i)], s);
    const list = readLocalHistory(7, s);
    expect(list).toHaveLength(50);
    expect(list[0]!.id).toBe('job-59');
    expect(list.at(-1)!.id).toBe('job-10');
    saveLocalHistory(7, [item(59)], s);
    expect(readLocalHistory(7, s)).toHaveLength(50);
    expect(readLocalHistory(8, s)).toEqual([]);
    expect(localHistoryKey(undefined)).toBe('dewy.consistency.history.guest');
    saveLocalHistory(undefined, [item(1)], s);
    expect(readLocalHistory(undefined, s).map((i) => i.id)).toEqual(['job-1']);
  });
  it('a broken stored value reads as empty', () => {
    const s = memoryStorage();
    s.setItem(localHistoryKey(3), '{not json');
    expect(readLocalHistory(3, s)).toEqual([]);
    s.setItem(localHistoryKey(3), JSON.stringify([{ id: 1 }, item(2)]));
    expect(readLocalHistory(3, s).map((i) => i.id)).toEqual(['job-2']);
  });
});

describe('error catalogue (002 §8)', () => {
  const api = (code: string, status = 400, serverError?: string) => new ApiError(status, code, 'x', serverError, null);
  it('maps the server codes to the catalogue, other errors to the server text, a malformed answer to "response invalid"', () => {
    expect(generationErrorKey(api('INSUFFICIENT_CREDITS'))).toEqual({ key: INSUFFICIENT_CREDITS_KEY });
    expect(generationErrorKey(api('NSFW_PROMPT_BLOCKED'))).toEqual({ key: 'imageGeneration.error.nsfw' });
    expect(generationErrorKey(api('NOT_CONFIGURED', 503))).toEqual({ key: 'imageGeneration.error.notConfigured' });
    expect(generationErrorKey(api('MAINTENANCE', 503, '점검 중'))).toEqual({ text: '점검 중' });
    expect(generationErrorKey(api('INTERNAL', 500))).toEqual({ key: 'imageGeneration.error.failed' });
    expect(generationErrorKey(new TypeError('bad json'))).toEqual({ key: 'imageGeneration.error.invalidResponse' });
    expect(jobFailureKey('GENERATION_SAFETY_BLOCKED')).toBe('imageGeneration.error.safety');
    expect(jobFailureKey('JOB_FAILED')).toBe('imageGeneration.error.failed');
  });
});
