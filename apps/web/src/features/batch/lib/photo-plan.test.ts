import { BATCH_LIMITS, UPLOAD_LIMITS } from '@dewy/contracts';
import { describe, expect, it } from 'vitest';
import { fileIssue, isAcceptedName, planBatch, uploadSizeOf, type LocalPhoto } from './photo-plan';

const photo = (name: string, width: number, height: number, bytes = 100_000): LocalPhoto => ({ name, bytes, size: { width, height } });

describe('batch photo plan', () => {
  it('accepts jpg, jpeg and png by extension only', () => {
    expect(['a.jpg', 'b.JPEG', 'c.png'].map(isAcceptedName)).toEqual([true, true, true]);
    expect(['a.gif', 'b.webp', 'jpg', '.png', 'noext'].map(isAcceptedName)).toEqual([false, false, false, false, false]);
  });

  it('leaves out a wrong type or a file over the upload limit before reading it', () => {
    expect(fileIssue('x.heic', 10)).toBe('type');
    expect(fileIssue('x.jpg', UPLOAD_LIMITS.maxBytes + 1)).toBe('tooLarge');
    expect(fileIssue('x.jpg', UPLOAD_LIMITS.maxBytes)).toBeNull();
  });

  it('resizes large photos as the single workspace uploads them (001 §5)', () => {
    expect(uploadSizeOf(910, 1137)).toEqual({ width: 910, height: 1137, resized: false });
    expect(uploadSizeOf(3000, 2500)).toEqual({ width: 1200, height: 1000, resized: true });
  });

  it('costs each photo at the scale, blocks the ≥ 4000 px rule and totals the included photos', () => {
    const plan = planBatch([photo('a.jpg', 910, 1137), photo('b.jpg', 1434, 2333), photo('c.gif', 10, 10), photo('d.png', 2300, 2300)], 0.9, 10_000);
    expect(plan.photos.map((p) => p.issue)).toEqual([null, null, 'type', 'blocked']);
    expect(plan.photos.map((p) => p.cost)).toEqual([80, 140, null, 180]);
    expect(plan.photos[0]!.output).toEqual({ width: 819, height: 1023 });
    expect(plan.photos[0]!.badge).toBe('WORST!');
    expect(plan).toMatchObject({ included: 2, total: 220, covered: 2, coveredTotal: 220, reading: false });
  });

  it('never blocks at scale 1', () => {
    expect(planBatch([photo('big.jpg', 2400, 2400)], 1, 1000).photos[0]!.issue).toBeNull();
    expect(planBatch([photo('big.jpg', 2400, 2400)], 1.1, 1000).photos[0]!.issue).toBe('blocked');
  });

  it('covers photos in order until the balance runs out, then none after (the server refuses the rest)', () => {
    const plan = planBatch([photo('a.jpg', 500, 500), photo('b.jpg', 1434, 2333), photo('c.jpg', 500, 500)], 1, 200);
    // 80 + 160 > 200: b is not covered, and neither is c although 80 + 80 would fit
    expect(plan.photos.map((p) => p.covered)).toEqual([true, false, false]);
    expect(plan).toMatchObject({ included: 3, total: 320, covered: 1, coveredTotal: 80 });
  });

  it('marks photos past the batch limit and waits for photos still being read', () => {
    const many = Array.from({ length: BATCH_LIMITS.maxPhotos + 2 }, (_, i) => photo(`p${i}.jpg`, 400, 400));
    const plan = planBatch([{ name: 'wait.jpg', bytes: 1, size: null }, { name: 'bad.jpg', bytes: 1, size: 'unreadable' }, ...many], 1, 100_000);
    expect(plan.reading).toBe(true);
    expect(plan.photos[0]!.cost).toBeNull();
    expect(plan.photos[1]!.issue).toBe('unreadable');
    expect(plan.included).toBe(BATCH_LIMITS.maxPhotos);
    expect(plan.photos.filter((p) => p.issue === 'overLimit')).toHaveLength(2);
  });
});
