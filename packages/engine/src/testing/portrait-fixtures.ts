import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { RetouchOptions } from '../engine-types';
import type { RgbImage } from '../io/image-io';

/** Repository root (…/packages/engine/src/testing → repo). */
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** Portrait fixtures (never shipped): env FIXTURES_DIR, else ../shared/fixtures/portraits from the repo root. */
export const FIXTURES_DIR = path.resolve(process.env.FIXTURES_DIR ?? path.join(repoRoot, '../shared/fixtures/portraits'));
/** ONNX model files for tests and bench: env MODELS_DIR, else ../shared/models. */
export const TEST_MODELS_DIR = path.resolve(process.env.MODELS_DIR ?? path.join(repoRoot, '../shared/models'));

export const PORTRAITS = [
  'codeformer03_asian_female_400x225.jpg',
  'gfpgan_adele_crop_512.png',
  'obama3_1434x2333.jpg',
  'obama_910x1137.jpg',
  'rose_leslie_577x880.jpg',
] as const;

export function readPortrait(name: string): Promise<Buffer> {
  return readFile(path.join(FIXTURES_DIR, name));
}

/** Options with every toggle off and no filter (the page's "none": index 0, strength 0.01, empty prompt). */
export function baseOptions(overrides: Partial<RetouchOptions> = {}): RetouchOptions {
  return {
    loraIndex: 2,
    scaleFactor: 1,
    filterIndex: 0,
    filterStrength: 0.01,
    filterPrompt: '',
    exclude: { upperLip: false, lowerLip: false, leftEyebrow: false, rightEyebrow: false, nose: false, hair: false },
    outputFormat: 'png',
    outputQuality: 100,
    seed: 1,
    ...overrides,
  };
}

/** Decodes encoded bytes to raw RGB (no resizing) for pixel assertions. */
export async function rawRgb(bytes: Buffer): Promise<RgbImage> {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** Luminance plane of an RGB image. */
export function lumaPlane(img: RgbImage): Float32Array {
  const y = new Float32Array(img.width * img.height);
  for (let i = 0, o = 0; i < y.length; i++, o += 3) y[i] = 0.299 * img.data[o]! + 0.587 * img.data[o + 1]! + 0.114 * img.data[o + 2]!;
  return y;
}

/** Variance of the 4-neighbour Laplacian of `y` over pixels where mask ≥ 1 (high-frequency energy). */
export function laplacianVariance(y: Float32Array, w: number, h: number, mask: Float32Array): number {
  let n = 0, s = 0, s2 = 0;
  for (let r = 1; r < h - 1; r++) {
    for (let c = 1; c < w - 1; c++) {
      const i = r * w + c;
      if (mask[i]! < 1) continue;
      const l = 4 * y[i]! - y[i - 1]! - y[i + 1]! - y[i - w]! - y[i + w]!;
      n++; s += l; s2 += l * l;
    }
  }
  return n > 0 ? s2 / n - (s / n) ** 2 : 0;
}

/** Mean Sobel gradient magnitude over pixels where mask > 0 (edge strength). */
export function edgeStrength(y: Float32Array, w: number, h: number, mask: Float32Array): number {
  let n = 0, s = 0;
  for (let r = 1; r < h - 1; r++) {
    for (let c = 1; c < w - 1; c++) {
      const i = r * w + c;
      if (mask[i]! <= 0) continue;
      const gx = y[i - w + 1]! + 2 * y[i + 1]! + y[i + w + 1]! - y[i - w - 1]! - 2 * y[i - 1]! - y[i + w - 1]!;
      const gy = y[i + w - 1]! + 2 * y[i + w]! + y[i + w + 1]! - y[i - w - 1]! - 2 * y[i - w]! - y[i - w + 1]!;
      n++; s += Math.hypot(gx, gy);
    }
  }
  return n > 0 ? s / n : 0;
}
