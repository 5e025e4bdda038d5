/** Shared by the inpainting tests: masks, ring statistics and optional preview images. Test-only. */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { RgbImage } from '../io/image-io';
import { edgeStrength, laplacianVariance, lumaPlane } from '../testing/portrait-fixtures';

/** 1 where the pixel centre lies within `r` of (cx, cy). */
export function discMask(w: number, h: number, cx: number, cy: number, r: number): Uint8Array {
  const m = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if ((x + 0.5 - cx) ** 2 + (y + 0.5 - cy) ** 2 <= r * r) m[y * w + x] = 1;
  return m;
}

/** 1 where the pixel centre's distance to (cx, cy) lies in [a, b] (a float mask for the metric helpers). */
export function annulus(w: number, h: number, cx: number, cy: number, a: number, b: number): Float32Array {
  const m = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy);
      if (d >= a && d <= b) m[y * w + x] = 1;
    }
  }
  return m;
}

/** A painted disc of radius r grown by `dilation`: the region the engine may change has radius R = r + dilation. */
export interface DiscCase { cx: number; cy: number; r: number; dilation: number }

/**
 * Texture ratio: Laplacian variance of the filled disc (radius R − 2) over that of the ring
 * [R + 2, R + 2 + max(8, r/2)] around it, on luminance.
 */
export function textureRatio(img: RgbImage, c: DiscCase): number {
  const { width: w, height: h } = img;
  const R = c.r + c.dilation, y = lumaPlane(img);
  return laplacianVariance(y, w, h, annulus(w, h, c.cx, c.cy, 0, R - 2)) / laplacianVariance(y, w, h, annulus(w, h, c.cx, c.cy, R + 2, R + 2 + Math.max(8, c.r / 2)));
}

/** Seam ratio: mean Sobel magnitude on the 3-px band across the hole's edge over that of the ring beyond. */
export function seamRatio(img: RgbImage, c: DiscCase): number {
  const { width: w, height: h } = img;
  const R = c.r + c.dilation, y = lumaPlane(img);
  return edgeStrength(y, w, h, annulus(w, h, c.cx, c.cy, R - 1.5, R + 1.5)) / edgeStrength(y, w, h, annulus(w, h, c.cx, c.cy, R + 3, R + 3 + Math.max(8, c.r / 2)));
}

/**
 * Signed luminance step across the hole's edge: mean over the pixels just inside (R − 2 < d ≤ R) of
 * (luminance 3 px further out along the radius − their own). Texture averages out around the border; a
 * fill brighter or darker than its surroundings does not.
 */
export function borderStep(img: RgbImage, c: DiscCase): number {
  const { width: w, height: h } = img;
  const R = c.r + c.dilation, y = lumaPlane(img);
  let n = 0, s = 0;
  for (let py = Math.max(0, Math.floor(c.cy - R - 1)); py < Math.min(h, c.cy + R + 1); py++) {
    for (let px = Math.max(0, Math.floor(c.cx - R - 1)); px < Math.min(w, c.cx + R + 1); px++) {
      const dx = px + 0.5 - c.cx, dy = py + 0.5 - c.cy, d = Math.hypot(dx, dy);
      if (d <= R - 2 || d > R) continue;
      const ox = Math.round(px + (3 * dx) / d), oy = Math.round(py + (3 * dy) / d);
      if (ox < 0 || oy < 0 || ox >= w || oy >= h) continue;
      n++; s += y[oy * w + ox]! - y[py * w + px]!;
    }
  }
  return n > 0 ? s / n : 0;
}

/** Per-channel mean of the pixels where `m` is set. */
export function meanColour(img: RgbImage, m: Float32Array): [number, number, number] {
  let n = 0;
  const s = [0, 0, 0];
  for (let i = 0; i < m.length; i++) {
    if (!m[i]) continue;
    n++;
    for (let k = 0; k < 3; k++) s[k]! += img.data[i * 3 + k]!;
  }
  return [s[0]! / n, s[1]! / n, s[2]! / n];
}

/** Pixel indices (one per pixel) where the two images differ, among pixels with `where` set. */
export function countDiff(a: RgbImage, b: RgbImage, where: (x: number, y: number) => boolean): { differing: number; considered: number } {
  let differing = 0, considered = 0;
  for (let y = 0; y < a.height; y++) {
    for (let x = 0; x < a.width; x++) {
      if (!where(x, y)) continue;
      considered++;
      const o = (y * a.width + x) * 3;
      if (a.data[o] !== b.data[o] || a.data[o + 1] !== b.data[o + 1] || a.data[o + 2] !== b.data[o + 2]) differing++;
    }
  }
  return { differing, considered };
}

/**
 * With env FACE_EDIT_PREVIEW_DIR set, writes before | after crops around a case, enlarged 3× (nearest),
 * to that folder as `<name>.png`, for a person to look at. Returns the path or null.
 */
export async function writePreview(name: string, before: RgbImage, after: RgbImage, c: DiscCase): Promise<string | null> {
  const dir = process.env.FACE_EDIT_PREVIEW_DIR;
  if (!dir) return null;
  await mkdir(dir, { recursive: true });
  const half = Math.round(Math.max(40, (c.r + c.dilation) * 2.5));
  const left = Math.max(0, Math.round(c.cx - half)), top = Math.max(0, Math.round(c.cy - half));
  const crop = { left, top, width: Math.min(2 * half, before.width - left), height: Math.min(2 * half, before.height - top) };
  const tile = (img: RgbImage): Promise<Buffer> => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .extract(crop).resize(crop.width * 3, crop.height * 3, { kernel: 'nearest' }).png().toBuffer();
  const [a, b] = await Promise.all([tile(before), tile(after)]);
  const file = path.join(dir, `${name}.png`);
  await sharp({ create: { width: crop.width * 6 + 8, height: crop.height * 3, channels: 3, background: '#ffffff' } })
    .composite([{ input: a, left: 0, top: 0 }, { input: b, left: crop.width * 3 + 8, top: 0 }]).png().toFile(file);
  return file;
}
