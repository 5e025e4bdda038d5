import { beforeAll, describe, expect, it } from 'vitest';
import { evalOptions, lookOf } from '../eval/evaluate';
import { cheekMask, eyeBrowMask, fineEnergy, lumaOf, meanGradient } from '../eval/quality-metrics';
import { analyzeFacesRgb, type DetectedFace } from '../face/face-analysis';
import { decodeImage, type RgbImage } from '../io/image-io';
import type { Plane } from '../mask/mask-raster';
import { personMatte } from '../mask/person-matte';
import { localRetouch } from '../retouch-pipeline';
import { addFreckles, freckleContrast, pngOf } from '../testing/constructed-cases';
import { readPortrait } from '../testing/portrait-fixtures';
import { buildGlobalLook } from './color-grade';
import { filterKindOf, RETOUCH_PARAMS, TEXTURE_BANDS } from './retouch-params';

/**
 * The pipeline's steps at scale 1 without exclusions (local retouch, then the global look), run directly
 * so the nine levels share one face analysis and one matte.
 */
function measure(img: RgbImage, face: DetectedFace, matte: Plane | null, level: number): { hf: number; edges: number; out: RgbImage } {
  const opts = evalOptions(level);
  const out = localRetouch(img, [face], RETOUCH_PARAMS[level]!, matte);
  buildGlobalLook(img, RETOUCH_PARAMS[level]!.grade, filterKindOf(opts.filterIndex, opts.filterPrompt, opts.filterStrength), opts.filterStrength).apply(out);
  const ref = lookOf(img, opts);
  const W = img.width, H = img.height;
  const cheeks = cheekMask(face, W, H), eyes = eyeBrowMask(face, W, H);
  const yo = lumaOf(out), yr = lumaOf(ref);
  return { hf: fineEnergy(yo, W, H, cheeks) / fineEnergy(yr, W, H, cheeks), edges: meanGradient(yo, W, H, eyes) / meanGradient(yr, W, H, eyes), out };
}

// Issue 12, class 3: makeup levels erased skin texture ("airbrushed").
describe('fine texture kept at every level', () => {
  it('keeps cheek fine-scale energy (sigma 1.5 px) within each level\'s documented band, eyes and brows ≥ 90 % (codeformer03)', async () => {
    const img = await decodeImage(await readPortrait('codeformer03_asian_female_400x225.jpg'));
    const face = (await analyzeFacesRgb(img)).faces[0]!;
    const matte = await personMatte(img);
    for (let level = 0; level < RETOUCH_PARAMS.length; level++) {
      const { hf, edges } = measure(img, face, matte, level);
      const [lo, hi] = TEXTURE_BANDS[level]!;
      expect(hf, `level ${level}`).toBeGreaterThanOrEqual(lo);
      expect(hf, `level ${level}`).toBeLessThanOrEqual(hi);
      expect(edges, `level ${level}`).toBeGreaterThanOrEqual(0.9);
    }
    // the bands themselves: basic about 0.5–0.7, makeup never below 0.35
    expect(TEXTURE_BANDS[2]).toEqual([0.5, 0.7]);
    for (const makeup of [0, 1, 4, 7]) expect(TEXTURE_BANDS[makeup]![0]).toBeGreaterThanOrEqual(0.35);
  });

  describe('on a freckled face (constructed: freckles painted on gfpgan_adele\'s cheeks)', () => {
    let img: RgbImage, face: DetectedFace, matte: Plane | null, centres: Array<[number, number]>, before: number;
    beforeAll(async () => {
      const base = await decodeImage(await readPortrait('gfpgan_adele_crop_512.png'));
      const f0 = (await analyzeFacesRgb(base)).faces[0]!;
      const fr = addFreckles(base, f0);
      img = fr.image;
      centres = fr.centres;
      face = (await analyzeFacesRgb(await decodeImage(await pngOf(img)))).faces[0]!;
      matte = await personMatte(img);
      before = freckleContrast(img, centres, 4);
    });

    it.each([0, 1, 7, 2, 5])('level %i keeps the freckles visible at reduced contrast and the texture in band', async (level) => {
      const { hf, out } = measure(img, face, matte, level);
      const [lo, hi] = TEXTURE_BANDS[level]!;
      expect(hf).toBeGreaterThanOrEqual(lo);
      expect(hf).toBeLessThanOrEqual(hi);
      // measured before the fix: 0.38–0.46 of the freckles' contrast kept at the makeup levels, 0.17–0.24 of the texture
      const kept = freckleContrast(out, centres, 4) / before;
      expect(kept).toBeGreaterThanOrEqual(0.55);
      expect(kept).toBeLessThan(0.95); // still retouched: reduced, not untouched
    });
  });
});
