import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeImage, type RgbImage } from '../io/image-io';
import { baseOptions, readPortrait, TEST_MODELS_DIR } from '../testing/portrait-fixtures';
import { retouchImage } from '../retouch-pipeline';
import { fromHalf, toHalf } from './half-float';
import { locateModel } from './model-registry';
import { planTiles } from './onnx-upscaler';
import { resizeToOutput, warmUpSuperResolution } from './super-resolution';
import { defaultSrWorkers, srTilePool } from './sr-tile-pool';

/** PSNR in dB between two same-size RGB images. */
function psnr(a: RgbImage, b: RgbImage): number {
  let s = 0;
  for (let i = 0; i < a.data.length; i++) s += (a.data[i]! - b.data[i]!) ** 2;
  return 10 * Math.log10((255 * 255) / (s / a.data.length));
}

describe('half-float conversion', () => {
  it('round-trips representable values and rounds others to nearest', () => {
    for (const v of [0, 1, -1, 0.5, 0.25, 65504, 6.103515625e-5, 5.960464477539063e-8]) expect(fromHalf(toHalf(v))).toBe(v);
    for (let v = 0; v <= 1; v += 1 / 255) expect(Math.abs(fromHalf(toHalf(v)) - v)).toBeLessThan(5e-4);
    expect(toHalf(1)).toBe(0x3c00);
    expect(toHalf(-2)).toBe(0xc000);
    expect(fromHalf(0x7c00)).toBe(Infinity);
    expect(toHalf(1e6)).toBe(0x7c00);
  });
});

describe('super-resolution', () => {
  let empty: string;
  let small: RgbImage;
  beforeAll(async () => {
    empty = await mkdtemp(path.join(os.tmpdir(), 'dewy-models-'));
    // a 160×120 face crop keeps the CPU model runs to one tile each
    const crop = await sharp(await readPortrait('codeformer03_asian_female_400x225.jpg')).extract({ left: 80, top: 20, width: 160, height: 120 }).png().toBuffer();
    small = await decodeImage(crop);
  });
  afterAll(async () => { await rm(empty, { recursive: true, force: true }); });

  it('upscales ×1.5 through the full pipeline with 4xLSDIRCompactC3 (output round(w·f) × round(h·f))', async () => {
    const input = await readPortrait('codeformer03_asian_female_400x225.jpg');
    const res = await retouchImage(input, baseOptions({ scaleFactor: 1.5, outputFormat: 'jpg' }), { modelsDir: TEST_MODELS_DIR });
    expect([res.width, res.height]).toEqual([600, 338]);
    expect(res.meta).toMatchObject({ srModel: 'lsdir-compact-c3', fallback: false, faces: 1 });
  });

  it('both ONNX models (fp32 and fp16) and the esrgan-slim fallback reconstruct a ×2-downscaled crop (PSNR > 28 dB)', async () => {
    const lowW = small.width / 2, lowH = small.height / 2;
    const low = await decodeImage(await sharp(Buffer.from(small.data), { raw: { width: small.width, height: small.height, channels: 3 } }).resize(lowW, lowH, { kernel: 'cubic' }).png().toBuffer());
    const lsdir = await resizeToOutput(low, 2, 'lsdir-compact-c3', TEST_MODELS_DIR);
    const realesr = await resizeToOutput(low, 2, 'realesr-general-x4v3', TEST_MODELS_DIR);
    const fallback = await resizeToOutput(low, 2, 'lsdir-compact-c3', empty);
    expect([lsdir.srModel, realesr.srModel, fallback.srModel, fallback.fallback]).toEqual(['lsdir-compact-c3', 'realesr-general-x4v3', 'esrgan-slim', true]);
    for (const r of [lsdir, realesr, fallback]) {
      expect([r.image.width, r.image.height]).toEqual([small.width, small.height]);
      // a broken tiling/normalisation/fp16 path lands far below 20 dB; measured 30.5–33.9 dB here
      expect(psnr(r.image, small)).toBeGreaterThan(28);
    }
  });

  it('refuses a model file whose size or sha256 does not match the manifest', async () => {
    await writeFile(path.join(empty, '4xLSDIRCompactC3_fp32.onnx'), Buffer.alloc(1234));
    await expect(locateModel('lsdir-compact-c3', empty)).rejects.toThrow(/^MODEL_CHECKSUM_MISMATCH: /);
    await rm(path.join(empty, '4xLSDIRCompactC3_fp32.onnx'));
    expect(await locateModel('lsdir-compact-c3', empty)).toBeNull();
  });
});

describe('SR at full detail', () => {
  it('plans tiles of at most 512 px in a count both workers share evenly', () => {
    for (const [w, h] of [[1024, 1024], [1280, 799], [400, 225], [512, 512], [97, 61]] as const) {
      const tiles = planTiles(w, h, 512, 2);
      let area = 0;
      for (const t of tiles) {
        expect(t.x1 - t.x0).toBeLessThanOrEqual(512);
        expect(t.y1 - t.y0).toBeLessThanOrEqual(512);
        area += (t.x1 - t.x0) * (t.y1 - t.y0);
      }
      expect(area).toBe(w * h); // an exact cover, no gaps or overlaps between cores
      if (w * h >= 2 * 64 * 64) expect(tiles.length % 2).toBe(0);
    }
  });

  it('runs the model on the whole input above 0.5 MP (no reduction) and tiles leave no seam', async () => {
    // 1000×520 = 0.52 MP: the old engine first shrank this to 0.5 MP
    const src = await readPortrait('obama3_1434x2333.jpg');
    const img = await decodeImage(await sharp(src).extract({ left: 200, top: 250, width: 1000, height: 520 }).png().toBuffer());
    const out = await resizeToOutput(img, 2, 'lsdir-compact-c3', TEST_MODELS_DIR);
    expect([out.image.width, out.image.height]).toEqual([2000, 1040]);
    expect(out.stats!.modelPixels).toBeGreaterThanOrEqual(1000 * 520);
    expect(out.stats!.flopPerPixel).toBeCloseTo(1.238e6, -3); // 18 convolutions, 64 channels (onnx-flops.ts)
    // tile borders must not show: a crop in 8 small tiles against one tile (16 px context cropped away)
    const part = await decodeImage(await sharp(src).extract({ left: 560, top: 300, width: 256, height: 128 }).png().toBuffer());
    const many = await resizeToOutput(part, 2, 'lsdir-compact-c3', TEST_MODELS_DIR, undefined, { tile: 64 });
    const one = await resizeToOutput(part, 2, 'lsdir-compact-c3', TEST_MODELS_DIR, undefined, { tile: 512, workers: 1 });
    expect([many.stats!.tiles, one.stats!.tiles]).toEqual([8, 1]);
    let sum = 0, max = 0;
    for (let i = 0; i < one.image.data.length; i++) { const d = Math.abs(one.image.data[i]! - many.image.data[i]!); sum += d; max = Math.max(max, d); }
    expect(sum / one.image.data.length).toBeLessThan(0.1);
    expect(max).toBeLessThanOrEqual(16);
    // A deadline, not a margin: about 1.3 TFLOP of convolution, minutes on two cores that other work keeps busy.
  }, 300_000);
})

describe('SR warm-up', () => {
  it('starts every tile worker with a full-size tile when the model is there, and is a no-op without it', async () => {
    expect(await warmUpSuperResolution(path.join(os.tmpdir(), 'no-models-here'))).toBe(false);
    if (!(await locateModel('lsdir-compact-c3', TEST_MODELS_DIR))) return; // the fallback path needs no warm-up
    expect(await warmUpSuperResolution(TEST_MODELS_DIR)).toBe(true);
    expect(srTilePool().started).toBe(defaultSrWorkers());
  });
});
