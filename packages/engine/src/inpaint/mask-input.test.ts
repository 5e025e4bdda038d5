import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeMask, dilateDisc, maskBounds } from './mask-input';

function discPng(w: number, h: number, cx: number, cy: number, r: number): Promise<Buffer> {
  const svg = `<svg width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="black"/><circle cx="${cx}" cy="${cy}" r="${r}" fill="white"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

function disc(w: number, h: number, cx: number, cy: number, r: number): Uint8Array {
  const m = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) m[y * w + x] = 1;
  return m;
}

function iou(a: Uint8Array, b: Uint8Array): number {
  let i = 0, u = 0;
  for (let k = 0; k < a.length; k++) { if (a[k] && b[k]) i++; if (a[k] || b[k]) u++; }
  return u === 0 ? 1 : i / u;
}

describe('decodeMask', () => {
  it('reads a white-on-black PNG at the image size', async () => {
    const m = await decodeMask(await discPng(200, 100, 60, 50, 20), 200, 100);
    expect(iou(m, disc(200, 100, 60, 50, 20))).toBeGreaterThan(0.95);
  });

  it('resizes a mask of another size (half size here) onto the image', async () => {
    const m = await decodeMask(await discPng(100, 50, 30, 25, 10), 200, 100);
    expect(iou(m, disc(200, 100, 60, 50, 20))).toBeGreaterThan(0.9);
  });

  it('takes coloured strokes on a transparent layer (the editor paints red or blue)', async () => {
    const svg = '<svg width="120" height="80"><rect x="10" y="10" width="30" height="20" fill="rgb(255,0,0)"/><rect x="70" y="40" width="30" height="20" fill="rgb(0,0,255)"/></svg>';
    const png = await sharp(Buffer.from(svg)).png().toBuffer(); // transparent background
    expect((await sharp(png).metadata()).hasAlpha).toBe(true);
    const m = await decodeMask(png, 120, 80);
    expect(m[20 * 120 + 25]).toBe(1);
    expect(m[50 * 120 + 85]).toBe(1);
    expect(m[5 * 120 + 5]).toBe(0);
    expect(m[70 * 120 + 60]).toBe(0);
  });

  it('treats dark grey as keep and light grey as change (threshold 128)', async () => {
    const png = await sharp({ create: { width: 4, height: 2, channels: 3, background: { r: 100, g: 100, b: 100 } } })
      .composite([{ input: { create: { width: 2, height: 2, channels: 3, background: { r: 160, g: 160, b: 160 } } }, left: 2, top: 0 }])
      .png().toBuffer();
    expect(Array.from(await decodeMask(png, 4, 2))).toEqual([0, 0, 1, 1, 0, 0, 1, 1]);
  });

  it('rejects empty and undecodable masks with NO_MASK_DECODE', async () => {
    await expect(decodeMask(Buffer.alloc(0), 10, 10)).rejects.toThrow(/NO_MASK_DECODE/);
    await expect(decodeMask(Buffer.from('definitely not an image'), 10, 10)).rejects.toThrow(/NO_MASK_DECODE: mask could not be decoded/);
  });
});

describe('dilateDisc / maskBounds', () => {
  it('matches a brute-force Euclidean dilation', () => {
    const w = 41, h = 37;
    let seed = 7;
    const rnd = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
    const m = new Uint8Array(w * h);
    for (let i = 0; i < m.length; i++) m[i] = rnd() < 0.03 ? 1 : 0;
    for (let y = 10; y < 20; y++) for (let x = 5; x < 12; x++) m[y * w + x] = 1;
    for (const r of [1, 2.5, 4]) {
      const got = dilateDisc(m, w, h, r);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          let want = 0;
          for (let yy = 0; yy < h && !want; yy++) for (let xx = 0; xx < w; xx++) if (m[yy * w + xx] && (xx - x) ** 2 + (yy - y) ** 2 <= r * r) { want = 1; break; }
          expect(got[y * w + x], `r=${r} at ${x},${y}`).toBe(want);
        }
      }
    }
  });

  it('finds the bounding box, or null for an empty mask', () => {
    const m = new Uint8Array(20 * 10);
    expect(maskBounds(m, 20, 10)).toBeNull();
    m[3 * 20 + 4] = 1; m[7 * 20 + 15] = 1;
    expect(maskBounds(m, 20, 10)).toEqual({ x0: 4, y0: 3, x1: 16, y1: 8 });
  });
});
