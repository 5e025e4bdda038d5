import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeImage, resizeRgb, type RgbImage } from '../io/image-io';
import { rawRgb, readPortrait } from '../testing/portrait-fixtures';
import { faceEditImage } from './face-edit';
import { faceEditBaseSize, faceEditSize } from './face-edit-size';
import { holeDilation } from './inpaint';
import { countDiff } from './inpaint-test-helpers';

/** White disc on black, drawn at `scale` × the image size (the mask may come at any size). */
function maskPng(w: number, h: number, cx: number, cy: number, r: number, scale = 1): Promise<Buffer> {
  const W = Math.round(w * scale), H = Math.round(h * scale);
  const svg = `<svg width="${W}" height="${H}"><rect width="${W}" height="${H}" fill="black"/><circle cx="${cx * scale}" cy="${cy * scale}" r="${r * scale}" fill="white"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const far = (cx: number, cy: number, R: number) => (x: number, y: number): boolean => Math.hypot(x + 0.5 - cx, y + 0.5 - cy) > R;

describe('faceEditImage (public API)', () => {
  let rose: Buffer, roseRgb: RgbImage;
  const [cx, cy, r] = [385, 330, 22];
  beforeAll(async () => {
    rose = await readPortrait('rose_leslie_577x880.jpg');
    roseRgb = await decodeImage(rose);
  });

  it('returns a JPEG of the input size by default, without metadata', async () => {
    const res = await faceEditImage(rose, await maskPng(577, 880, cx, cy, r), { seed: 7, strength: 1, resizeFactor: 1 });
    expect(res.mime).toBe('image/jpeg');
    expect(res.buffer.subarray(0, 2).toString('hex')).toBe('ffd8');
    expect([res.width, res.height]).toEqual([577, 880]);
    const meta = await sharp(res.buffer).metadata();
    expect([meta.width, meta.height, meta.exif]).toEqual([577, 880, undefined]);
  });

  it('PNG output: pixels outside the grown mask equal the decoded input bit for bit', async () => {
    const res = await faceEditImage(rose, await maskPng(577, 880, cx, cy, r), { seed: 7, strength: 1, resizeFactor: 1, outputFormat: 'png' });
    expect(res.mime).toBe('image/png');
    const out = await rawRgb(res.buffer);
    // +1 px: the SVG disc's anti-aliased edge may pass the 128 threshold half a pixel further out
    const R = r + 1 + holeDilation(577, 880);
    const outside = countDiff(roseRgb, out, far(cx, cy, R));
    expect(outside.differing).toBe(0);
    const inside = countDiff(roseRgb, out, (x, y) => !far(cx, cy, r)(x, y));
    expect(inside.differing / inside.considered).toBeGreaterThan(0.5);
    expect(res.meta.holePixels).toBeGreaterThan(Math.PI * r * r);
  });

  it('takes a mask of another size (half here) and fills the same place', async () => {
    const a = await faceEditImage(rose, await maskPng(577, 880, cx, cy, r, 0.5), { seed: 7, strength: 1, resizeFactor: 1, outputFormat: 'png' });
    const out = await rawRgb(a.buffer);
    expect(countDiff(roseRgb, out, far(cx, cy, r + 2 + holeDilation(577, 880))).differing).toBe(0);
    expect(countDiff(roseRgb, out, (x, y) => !far(cx, cy, r - 2)(x, y)).differing).toBeGreaterThan(0.5 * Math.PI * (r - 2) ** 2);
  });

  it('resizeFactor 0.5: output is faceEditSize and equals the lanczos3 resize of the input outside the mask', async () => {
    const res = await faceEditImage(rose, await maskPng(577, 880, cx, cy, r), { seed: 3, strength: 1, resizeFactor: 0.5, outputFormat: 'png' });
    const size = faceEditSize(577, 880, 0.5);
    expect([res.width, res.height]).toEqual([size.width, size.height]);
    const out = await rawRgb(res.buffer);
    const plain = await resizeRgb(roseRgb, size.width, size.height);
    expect(countDiff(plain, out, far(cx / 2, cy / 2, r / 2 + 1 + holeDilation(size.width, size.height))).differing).toBe(0);
  });

  it('resizeFactor 1.5: fills at the rule size, then enlarges; far from the mask it is the plain resize', async () => {
    const res = await faceEditImage(rose, await maskPng(577, 880, cx, cy, r), { seed: 3, strength: 1, resizeFactor: 1.5, outputFormat: 'png' });
    const size = faceEditSize(577, 880, 1.5);
    expect([res.width, res.height]).toEqual([866, 1320]);
    expect([res.meta.workWidth, res.meta.workHeight]).toEqual([577, 880]);
    const out = await rawRgb(res.buffer);
    const plain = await resizeRgb(roseRgb, size.width, size.height);
    // lanczos3 reaches 3 source pixels: 4.5 output pixels
    const R = 1.5 * (r + 1 + holeDilation(577, 880)) + 5;
    expect(countDiff(plain, out, far(cx * 1.5, cy * 1.5, R)).differing).toBe(0);
    expect(countDiff(plain, out, (x, y) => !far(cx * 1.5, cy * 1.5, r)(x, y)).differing).toBeGreaterThan(1000);
  });

  it('brings a large upload to width + height = 3000 (obama3, 1434×2333 → the rule size)', async () => {
    const input = await readPortrait('obama3_1434x2333.jpg');
    const base = faceEditBaseSize(1434, 2333);
    const mcx = 690, mcy = 470; // a cheek in the original's pixels
    const res = await faceEditImage(input, await maskPng(1434, 2333, mcx, mcy, 20), { seed: 1, strength: 1, resizeFactor: 1, outputFormat: 'png' });
    expect([res.width, res.height]).toEqual([base.width, base.height]);
    expect(res.width + res.height).toBeLessThanOrEqual(3001);
    const plain = await resizeRgb(await decodeImage(input), base.width, base.height);
    const s = base.width / 1434;
    expect(countDiff(plain, await rawRgb(res.buffer), far(mcx * s, mcy * s, 20 * s + 2 + holeDilation(base.width, base.height))).differing).toBe(0);
  });

  it('strength 0 gives back the (decoded) input', async () => {
    const res = await faceEditImage(rose, await maskPng(577, 880, cx, cy, r), { seed: 3, strength: 0, resizeFactor: 1, outputFormat: 'png' });
    expect(Buffer.from((await rawRgb(res.buffer)).data).equals(Buffer.from(roseRgb.data))).toBe(true);
  });

  it('is deterministic for a seed', async () => {
    const mask = await maskPng(577, 880, cx, cy, r);
    const a = await faceEditImage(rose, mask, { seed: 99, strength: 0.8, resizeFactor: 1 });
    const b = await faceEditImage(rose, mask, { seed: 99, strength: 0.8, resizeFactor: 1 });
    expect(a.buffer.equals(b.buffer)).toBe(true);
  });

  it('reports its stages in order', async () => {
    const stages: string[] = [];
    await faceEditImage(rose, await maskPng(577, 880, cx, cy, 8), { seed: 1, strength: 1, resizeFactor: 1, onProgress: (s) => { if (stages.at(-1) !== s) stages.push(s); } });
    expect(stages).toEqual(['decode', 'inpaint', 'blend', 'encode', 'done']);
  });

  it('errors: empty mask, undecodable image or mask, bad options, abort', async () => {
    const black = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#000' } }).png().toBuffer();
    const opts = { seed: 1, strength: 1, resizeFactor: 1 };
    await expect(faceEditImage(rose, black, opts)).rejects.toThrow('EMPTY_MASK: mask is empty');
    await expect(faceEditImage(Buffer.from('nope'), black, opts)).rejects.toThrow(/^NO_IMAGE_DECODE/);
    await expect(faceEditImage(rose, Buffer.from('nope'), opts)).rejects.toThrow(/^NO_MASK_DECODE/);
    await expect(faceEditImage(rose, black, { ...opts, strength: 1.5 })).rejects.toThrow(/INVALID_OPTIONS: strength/);
    await expect(faceEditImage(rose, black, { ...opts, resizeFactor: 5 })).rejects.toThrow(/INVALID_OPTIONS: resizeFactor/);
    await expect(faceEditImage(rose, black, { ...opts, seed: 1.5 })).rejects.toThrow(/INVALID_OPTIONS: seed/);
    const ac = new AbortController();
    ac.abort();
    await expect(faceEditImage(rose, black, { ...opts, signal: ac.signal })).rejects.toMatchObject({ name: 'AbortError', message: 'ABORTED: face edit was aborted' });
  });
});
