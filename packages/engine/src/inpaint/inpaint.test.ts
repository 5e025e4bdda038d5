import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage, type RgbImage } from '../io/image-io';
import { lumaPlane, readPortrait } from '../testing/portrait-fixtures';
import { holeDilation, inpaintRgb, type InpaintStats } from './inpaint';
import { annulus, borderStep, countDiff, discMask, meanColour, seamRatio, textureRatio, writePreview, type DiscCase } from './inpaint-test-helpers';

/**
 * Discs on cheeks, placed by looking at the portraits (face boxes from analyzeFaces: Obama 374..610 ×
 * 129..415, Rose Leslie 166..425 × 151..457, Adele 113..401 × 146..471) and checked in preview images
 * (FACE_EDIT_PREVIEW_DIR=…): each lies on skin away from eyes, lips and hair, where the ring around it is
 * skin too — the texture comparison is meaningless where the ring holds an eyelid or a nostril.
 */
const CASES = [
  { name: 'obama-blemish', file: 'obama_910x1137.jpg', cx: 425, cy: 262, r: 10, seed: 11 },
  { name: 'obama-cheek', file: 'obama_910x1137.jpg', cx: 562, cy: 262, r: 26, seed: 12 },
  { name: 'rose-blemish', file: 'rose_leslie_577x880.jpg', cx: 222, cy: 330, r: 10, seed: 13 },
  { name: 'rose-cheek', file: 'rose_leslie_577x880.jpg', cx: 385, cy: 330, r: 22, seed: 14 },
  { name: 'adele-cheek', file: 'gfpgan_adele_crop_512.png', cx: 340, cy: 305, r: 28, seed: 15 },
] as const;

const images = new Map<string, RgbImage>();
async function portrait(file: string): Promise<RgbImage> {
  if (!images.has(file)) images.set(file, await decodeImage(await readPortrait(file)));
  return images.get(file)!;
}

describe.each(CASES)('inpaintRgb on $name ($file, disc r=$r at $cx,$cy)', (c) => {
  let before: RgbImage, after: RgbImage, stats: InpaintStats, disc: DiscCase;
  beforeAll(async () => {
    before = await portrait(c.file);
    const mask = discMask(before.width, before.height, c.cx, c.cy, c.r);
    ({ image: after, stats } = await inpaintRgb(before, mask, { seed: c.seed, strength: 1 }));
    disc = { cx: c.cx, cy: c.cy, r: c.r, dilation: holeDilation(before.width, before.height) };
    await writePreview(c.name, before, after, disc);
  });

  it('leaves every pixel outside the grown mask bit-identical, and repaints inside', () => {
    // a pixel farther than r + dilation from the centre is farther than the dilation from every painted pixel
    const R = disc.r + disc.dilation;
    const outside = countDiff(before, after, (x, y) => Math.hypot(x + 0.5 - c.cx, y + 0.5 - c.cy) > R);
    expect(outside.considered).toBeGreaterThan(before.width * before.height - 4 * R * R);
    expect(outside.differing).toBe(0);
    const inside = countDiff(before, after, (x, y) => Math.hypot(x + 0.5 - c.cx, y + 0.5 - c.cy) <= c.r);
    expect(inside.differing / inside.considered).toBeGreaterThan(0.5);
  });

  it('keeps skin texture: Laplacian variance of the fill within ±30 % of the ring around it', () => {
    const ratio = textureRatio(after, disc);
    expect(ratio).toBeGreaterThan(0.7);
    expect(ratio).toBeLessThan(1.3);
  });

  it('shows no seam: gradient across the border at most 2× the surroundings, and no step', () => {
    expect(seamRatio(after, disc)).toBeLessThan(2);
    // the photo's own shading has a step across that circle too; the fill may add at most 3 levels
    expect(Math.abs(borderStep(after, disc))).toBeLessThan(Math.abs(borderStep(before, disc)) + 3);
  });

  it('matches the colour of the skin around it (no blotch)', () => {
    // cheeks are shaded, so the photo's own disc differs from its ring too: the fill may differ as much,
    // plus 6 levels per channel
    const R = disc.r + disc.dilation, { width: w, height: h } = after;
    const inner = annulus(w, h, c.cx, c.cy, 0, R - 2), ringM = annulus(w, h, c.cx, c.cy, R + 2, R + 2 + Math.max(8, c.r / 2));
    const fill = meanColour(after, inner), orig = meanColour(before, inner), ring = meanColour(before, ringM);
    for (let k = 0; k < 3; k++) expect(Math.abs(fill[k]! - ring[k]!), `channel ${k}`).toBeLessThan(Math.abs(orig[k]! - ring[k]!) + 6);
  });

  it('works in a window around the mask, not the whole photo', () => {
    const { x0, y0, x1, y1 } = stats.window;
    // bounding box of the grown mask + a margin of max(32, its side) each way
    const side = 2 * (disc.r + disc.dilation) + 1;
    expect(x1 - x0).toBeLessThanOrEqual(side + 2 * Math.max(32, side) + 2);
    expect(y1 - y0).toBeLessThanOrEqual(side + 2 * Math.max(32, side) + 2);
    expect((x1 - x0) * (y1 - y0)).toBeLessThan((before.width * before.height) / 4);
    expect(x0 <= c.cx - side / 2 && x1 >= c.cx + side / 2 && y0 <= c.cy - side / 2 && y1 >= c.cy + side / 2).toBe(true);
  });
});

describe('inpaintRgb behaviour', () => {
  let img: RgbImage, mask: Uint8Array;
  beforeAll(async () => {
    img = await portrait('rose_leslie_577x880.jpg');
    mask = discMask(img.width, img.height, 222, 330, 10);
  });

  it('removes a mole (Rose Leslie, left of the nose): its dark core becomes skin', async () => {
    const { width: w, height: h } = img;
    const y0 = lumaPlane(img);
    const core = annulus(w, h, 263, 314, 0, 3), ring = annulus(w, h, 263, 314, 10, 18);
    const ringValues = Array.from(y0.filter((_, i) => ring[i] === 1)).sort((a, b) => a - b);
    const p5 = ringValues[Math.floor(ringValues.length * 0.05)]!;
    const darkest = (y: Float32Array): number => Math.min(...Array.from(y.filter((_, i) => core[i] === 1)));
    expect(darkest(y0)).toBeLessThan(p5 - 8); // the mole is there before
    const { image } = await inpaintRgb(img, discMask(w, h, 263, 314, 6), { seed: 1, strength: 1 });
    expect(darkest(lumaPlane(image))).toBeGreaterThan(p5);
  });

  it('is deterministic for a seed and varies with it', async () => {
    const a = await inpaintRgb(img, mask, { seed: 42, strength: 1 });
    const b = await inpaintRgb(img, mask, { seed: 42, strength: 1 });
    const c = await inpaintRgb(img, mask, { seed: 43, strength: 1 });
    expect(Buffer.from(a.image.data).equals(Buffer.from(b.image.data))).toBe(true);
    expect(Buffer.from(a.image.data).equals(Buffer.from(c.image.data))).toBe(false);
  });

  it('returns the photo unchanged at strength 0 and a blend in between', async () => {
    const zero = await inpaintRgb(img, mask, { seed: 5, strength: 0 });
    expect(Buffer.from(zero.image.data).equals(Buffer.from(img.data))).toBe(true);
    const full = await inpaintRgb(img, mask, { seed: 5, strength: 1 });
    const half = await inpaintRgb(img, mask, { seed: 5, strength: 0.5 });
    let between = 0, outOfRange = 0;
    for (let i = 0; i < img.data.length; i++) {
      const o = img.data[i]!, f = full.image.data[i]!, m = half.image.data[i]!;
      if (m < Math.min(o, f) - 1 || m > Math.max(o, f) + 1) outOfRange++;
      if (Math.abs(f - o) >= 8 && Math.abs(m - (o + f) / 2) <= 1) between++;
    }
    expect(outOfRange).toBe(0);
    expect(between).toBeGreaterThan(100);
  });

  it('does not touch the input buffer', async () => {
    const copy = Buffer.from(img.data);
    await inpaintRgb(img, mask, { seed: 1, strength: 1 });
    expect(Buffer.from(img.data).equals(copy)).toBe(true);
  });

  it('reports progress from 0 to 1 through the pyramid, then the blend', async () => {
    const seen: Array<[string, number]> = [];
    await inpaintRgb(img, mask, { seed: 1, strength: 1, onProgress: (s, f) => seen.push([s, f]) });
    const fill = seen.filter(([s]) => s === 'inpaint').map(([, f]) => f);
    expect(fill[0]).toBe(0);
    expect(fill.at(-1)).toBeCloseTo(1, 5);
    for (let i = 1; i < fill.length; i++) expect(fill[i]!).toBeGreaterThanOrEqual(fill[i - 1]!);
    expect(seen.at(-1)).toEqual(['blend', 1]);
  });

  it('refuses an empty mask, a mask of the wrong size, and a mask that leaves nothing to copy', async () => {
    await expect(inpaintRgb(img, new Uint8Array(img.width * img.height), { seed: 1, strength: 1 })).rejects.toThrow('EMPTY_MASK: mask is empty');
    await expect(inpaintRgb(img, new Uint8Array(10), { seed: 1, strength: 1 })).rejects.toThrow(/INVALID_MASK/);
    await expect(inpaintRgb(img, new Uint8Array(img.width * img.height).fill(1), { seed: 1, strength: 1 })).rejects.toThrow(/INVALID_MASK: .*nothing|INVALID_MASK: .*no unmasked/);
  });

  it('stops with an AbortError when the signal fires', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(inpaintRgb(img, mask, { seed: 1, strength: 1, signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError', message: expect.stringMatching(/aborted/) });
    const late = new AbortController();
    const p = inpaintRgb(img, mask, { seed: 1, strength: 1, signal: late.signal, onProgress: (_s, f) => { if (f > 0) late.abort(); } });
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
  });
});
