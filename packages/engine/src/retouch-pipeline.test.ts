import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeFaces, scaleFaceAnalysis, type FaceAnalysis } from './face/face-analysis';
import { decodeImage } from './io/image-io';
import { buildHairMask } from './mask/hair-mask';
import { personMatte } from './mask/person-matte';
import type { Point } from './face/face-regions';
import { gaussianBlur, rasterizeMask } from './mask/mask-raster';
import { retouchImage } from './retouch-pipeline';
import { RETOUCH_PARAMS } from './retouch/retouch-params';
import { lookOf } from './eval/evaluate';
import { baseOptions, edgeStrength, laplacianVariance, lumaPlane, rawRgb, readPortrait, TEST_MODELS_DIR } from './testing/portrait-fixtures';

const cfg = { modelsDir: TEST_MODELS_DIR };

function scalePoly(poly: Point[], sx: number, sy: number): Point[] {
  return poly.map(([x, y]) => [x * sx, y * sy]);
}

function shrink(poly: Point[], k: number): Point[] {
  const cx = poly.reduce((a, p) => a + p[0], 0) / poly.length, cy = poly.reduce((a, p) => a + p[1], 0) / poly.length;
  return poly.map(([x, y]) => [cx + (x - cx) * k, cy + (y - cy) * k]);
}

/** Skin test mask at output size: shrunken face oval minus a generous margin around eyes, brows, lips, nose. */
function testSkinMask(a: FaceAnalysis, w: number, h: number): Float32Array {
  const f = a.faces[0]!;
  const sx = w / a.width, sy = h / a.height;
  const r = f.regions;
  const oval = rasterizeMask(w, h, [scalePoly(shrink(r.faceOval, 0.85), sx, sy)]);
  const feats = rasterizeMask(w, h, [r.leftEye, r.rightEye, r.leftEyebrow, r.rightEyebrow, r.upperLip, r.lowerLip, r.innerMouth, r.nostrils].map((p) => scalePoly(p, sx, sy)), 0.03 * f.box.width * sx);
  for (let i = 0; i < oval.data.length; i++) if (feats.data[i]! > 0.001) oval.data[i] = 0;
  return oval.data;
}

describe('retouchImage', () => {
  let rose: Buffer;
  let roseFaces: FaceAnalysis;
  beforeAll(async () => {
    rose = await readPortrait('rose_leslie_577x880.jpg');
    roseFaces = await analyzeFaces(rose);
  });

  it('excluded lips equal the plain original resized to the output size after the same global grade (≤ 1/255 mean abs diff)', async () => {
    const factor = 0.8;
    const opts = baseOptions({ loraIndex: 0, scaleFactor: factor, exclude: { ...baseOptions().exclude, upperLip: true, lowerLip: true } });
    const [excluded, included] = await Promise.all([retouchImage(rose, opts, cfg), retouchImage(rose, { ...opts, exclude: baseOptions().exclude }, cfg)]);
    const w = Math.round(577 * factor), h = Math.round(880 * factor);
    expect([excluded.width, excluded.height]).toEqual([w, h]);
    expect(excluded.meta.hairMask).toBe('none');
    // reference made independently with sharp (decode, EXIF-rotate, lanczos3 to the output size), then
    // the request's own global grade (index 0 warms and brightens): exclusions skip local retouch only
    const plain = await sharp(rose).rotate().resize(w, h, { kernel: 'lanczos3', fit: 'fill', fastShrinkOnLoad: false }).removeAlpha().raw().toBuffer();
    const ref = lookOf({ data: new Uint8Array(plain), width: w, height: h }, opts).data;
    const sx = w / roseFaces.width, sy = h / roseFaces.height;
    const lips = rasterizeMask(w, h, [scalePoly(roseFaces.faces[0]!.regions.upperLip, sx, sy), scalePoly(roseFaces.faces[0]!.regions.lowerLip, sx, sy)]).data;
    const mad = async (bytes: Buffer): Promise<number> => {
      const out = await rawRgb(bytes);
      let n = 0, s = 0;
      for (let i = 0; i < lips.length; i++) {
        if (lips[i]! < 1) continue;
        for (let c = 0; c < 3; c++) s += Math.abs(out.data[i * 3 + c]! - ref[i * 3 + c]!);
        n += 3;
      }
      expect(n).toBeGreaterThan(300); // the lip region really has pixels
      return s / n;
    };
    expect(await mad(excluded.bytes)).toBeLessThanOrEqual(1);
    // and the same assertion would fail without the exclusion (lip tint of model index 0)
    expect(await mad(included.bytes)).toBeGreaterThan(3);
  });

  it('eyebrows, nose and hair exclusions equal look(plain resize) under makeup and a filter: the filter is not cut out around them', async () => {
    const factor = 0.8;
    const w = Math.round(577 * factor), h = Math.round(880 * factor);
    const ex = { upperLip: false, lowerLip: false, leftEyebrow: true, rightEyebrow: true, nose: true, hair: true };
    const opts = baseOptions({ loraIndex: 4, scaleFactor: factor, filterIndex: 1, filterStrength: 1, filterPrompt: 'asle filter', exclude: ex });
    const res = await retouchImage(rose, opts, cfg);
    expect(res.meta.hairMask).toBe('selfie');
    expect(res.meta.exclusions).toBe('local-only');
    const out = await rawRgb(res.bytes);
    const plain = await sharp(rose).rotate().resize(w, h, { kernel: 'lanczos3', fit: 'fill', fastShrinkOnLoad: false }).removeAlpha().raw().toBuffer();
    const ref = lookOf({ data: new Uint8Array(plain), width: w, height: h }, opts).data;
    const faces = scaleFaceAnalysis(roseFaces, w, h);
    const r = faces.faces[0]!.regions;
    // the person matte as the pipeline makes it: from the decoded original, upscaled to the output size
    const matte = await personMatte(await decodeImage(rose), w, h);
    expect(matte).not.toBeNull();
    const hair = buildHairMask({ data: new Uint8Array(plain), width: w, height: h }, faces.faces, matte).data;
    const regions = { brows: rasterizeMask(w, h, [r.leftEyebrow, r.rightEyebrow]).data, nose: rasterizeMask(w, h, [r.nose]).data, hair };
    const mad = (a: ArrayLike<number>, m: Float32Array): { n: number; mad: number } => {
      let n = 0, s = 0;
      for (let i = 0; i < m.length; i++) {
        if (m[i]! < 1) continue;
        for (let c = 0; c < 3; c++) s += Math.abs(out.data[i * 3 + c]! - a[i * 3 + c]!);
        n += 3;
      }
      return { n, mad: s / n };
    };
    for (const [name, m] of Object.entries(regions)) {
      const vsLook = mad(ref, m), vsPlain = mad(plain, m);
      expect(vsLook.n, name).toBeGreaterThan(300);
      expect(vsLook.mad, name).toBeLessThanOrEqual(1);
      // the fair-skin filter reached the excluded region as it reached everything else
      expect(vsPlain.mad, name).toBeGreaterThan(3);
    }
  });

  it('smooths skin at mid scales (blotches, σ 1.5–6 px) while fine texture stays and eye and eyebrow edges keep ≥ 90 %', async () => {
    const input = await readPortrait('obama_910x1137.jpg');
    const faces = await analyzeFaces(input);
    const res = await retouchImage(input, baseOptions({ loraIndex: 2 }), cfg);
    const orig = await rawRgb(await sharp(input).rotate().png().toBuffer());
    const out = await rawRgb(res.bytes);
    const { width: w, height: h } = out;
    const skin = testSkinMask(faces, w, h);
    const yo = lumaPlane(orig), yr = lumaPlane(out);
    // mid-scale energy (difference of Gaussians 1.5 → 6 px) is what smoothing removes
    const mid = (y: Float32Array): number => {
      const a = gaussianBlur(y, w, h, 1.5), b = gaussianBlur(y, w, h, 6);
      let n = 0, e = 0;
      for (let i = 0; i < y.length; i++) if (skin[i]! >= 1) { n++; e += (a[i]! - b[i]!) ** 2; }
      return e / n;
    };
    expect(mid(yr)).toBeLessThan(0.75 * mid(yo));
    // the finest texture (Laplacian) drops too, but only to the level's band (issue 12: no airbrushing)
    const before = laplacianVariance(yo, w, h, skin), after = laplacianVariance(yr, w, h, skin);
    expect(after).toBeLessThan(before * 0.8);
    expect(after).toBeGreaterThan(before * 0.4);
    const r = faces.faces[0]!.regions;
    const eyes = rasterizeMask(w, h, [r.leftEye, r.rightEye, r.leftEyebrow, r.rightEyebrow], 2).data;
    expect(edgeStrength(yr, w, h, eyes)).toBeGreaterThanOrEqual(0.9 * edgeStrength(yo, w, h, eyes));
  });

  it('gives a distinct result for every model index 0..8 (inside the face, where retouch acts)', async () => {
    const input = await readPortrait('codeformer03_asian_female_400x225.jpg');
    const face = (await analyzeFaces(input)).faces[0]!;
    const oval = rasterizeMask(400, 225, [face.regions.faceOval]).data;
    const outs = [];
    for (let i = 0; i < RETOUCH_PARAMS.length; i++) outs.push((await rawRgb((await retouchImage(input, baseOptions({ loraIndex: i }), cfg)).bytes)).data);
    for (let a = 0; a < outs.length; a++) {
      for (let b = a + 1; b < outs.length; b++) {
        let diff = 0, n = 0;
        for (let p = 0; p < oval.length; p++) {
          if (oval[p]! < 1) continue;
          n += 3;
          for (let c = 0; c < 3; c++) diff += Math.abs(outs[a]![p * 3 + c]! - outs[b]![p * 3 + c]!);
        }
        expect(diff / n, `index ${a} vs ${b}`).toBeGreaterThan(0.2);
      }
    }
  });

  it('ppoyong brightens the skin and studio changes the grade', async () => {
    const opts = baseOptions({ scaleFactor: 0.5 });
    const [none, ppoyong, studio] = await Promise.all([
      retouchImage(rose, opts, cfg),
      retouchImage(rose, { ...opts, filterIndex: 1, filterStrength: 0.8, filterPrompt: 'asle filter' }, cfg),
      retouchImage(rose, { ...opts, filterIndex: 0, filterStrength: 0.8, filterPrompt: 'studio filter' }, cfg),
    ]);
    const a = await rawRgb(none.bytes), b = await rawRgb(ppoyong.bytes), c = await rawRgb(studio.bytes);
    const skin = testSkinMask(roseFaces, a.width, a.height);
    const meanY = (y: Float32Array): number => { let n = 0, s = 0; for (let i = 0; i < y.length; i++) if (skin[i]! >= 1) { n++; s += y[i]!; } return s / n; };
    expect(meanY(lumaPlane(b))).toBeGreaterThan(meanY(lumaPlane(a)) + 5);
    expect(Buffer.compare(Buffer.from(a.data), Buffer.from(c.data))).not.toBe(0);
  });

  it('output size is round(input × factor)', async () => {
    const input = await readPortrait('codeformer03_asian_female_400x225.jpg');
    for (const f of [0.1, 0.7, 1]) {
      const res = await retouchImage(input, baseOptions({ scaleFactor: f, outputFormat: 'jpg' }), cfg);
      expect([res.width, res.height]).toEqual([Math.round(400 * f), Math.round(225 * f)]);
      const meta = await sharp(res.bytes).metadata();
      expect([meta.format, meta.width, meta.height, meta.exif]).toEqual(['jpeg', res.width, res.height, undefined]);
    }
  });

  it('applies EXIF orientation before anything else and writes no metadata', async () => {
    const rotated = await sharp(rose).withMetadata({ orientation: 6 }).jpeg({ quality: 95 }).toBuffer();
    const res = await retouchImage(rotated, baseOptions({ scaleFactor: 0.5, outputFormat: 'jpg' }), cfg);
    expect([res.width, res.height, res.meta.faces]).toEqual([440, 289, 1]);
    const meta = await sharp(res.bytes).metadata();
    expect([meta.orientation, meta.exif, meta.icc]).toEqual([undefined, undefined, undefined]);
  });

  it('rejects bad input and bad options with clear errors', async () => {
    const jpeg = await readPortrait('obama_910x1137.jpg');
    await expect(retouchImage(jpeg.subarray(0, Math.floor(jpeg.length / 2)), baseOptions(), cfg)).rejects.toThrow(/^NO_IMAGE_DECODE: /);
    const noise = Buffer.alloc(5000);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919 + 13) % 251;
    await expect(retouchImage(noise, baseOptions(), cfg)).rejects.toThrow(/^NO_IMAGE_DECODE: /);
    await expect(retouchImage(Buffer.alloc(0), baseOptions(), cfg)).rejects.toThrow(/^NO_IMAGE_DECODE: /);
    await expect(retouchImage(jpeg, baseOptions({ scaleFactor: 2.5 }), cfg)).rejects.toThrow(/^INVALID_OPTIONS: /);
    await expect(retouchImage(jpeg, baseOptions({ loraIndex: 9 }), cfg)).rejects.toThrow(/^INVALID_OPTIONS: /);
  });
});
