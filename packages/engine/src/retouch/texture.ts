/**
 * Fine skin texture: how much of it a retouched face keeps, measured the way `npm run eval` measures it
 * (issue 12, class 3): the fine-scale high-frequency energy of cheek skin, mean of (Y − G_1.5 * Y)², after
 * ÷ before. Frequency separation as retouchers do it by hand (a low-pass "colour" layer and a high-pass
 * "texture" layer), with the texture layer's gain solved per face so the cheeks keep a set share of energy.
 */
import type { DetectedFace } from '../face/face-analysis';
import { CHEEK_POINTS, type Point } from '../face/face-regions';
import { createPlane, dilate, fillPolygon, gaussianBlur, type Plane } from '../mask/mask-raster';

/** Scale (Gaussian sigma, px) of the "fine texture" band the energy is measured in: pores, freckle edges, stubble. */
export const FINE_SIGMA = 1.5;

/**
 * Cheek skin of one face: discs of 0.07 face widths around the MediaPipe cheek landmarks (205, 425),
 * minus the eyes, brows, lips and nostrils grown by 0.03 face widths. Hard 0/1 mask of `width`×`height`
 * whose pixel (0, 0) is image pixel `offset` (an ROI; default the whole image).
 */
export function cheekMask(face: DetectedFace, width: number, height: number, offset: Point = [0, 0]): Plane {
  const m = createPlane(width, height);
  const fw = face.box.width, rad = 0.07 * fw;
  for (const idx of [CHEEK_POINTS.left, CHEEK_POINTS.right]) {
    const c = face.mesh[idx];
    if (!c) continue;
    const cx = c[0] - offset[0], cy = c[1] - offset[1];
    for (let y = Math.max(0, Math.floor(cy - rad)); y < Math.min(height, Math.ceil(cy + rad)); y++) {
      for (let x = Math.max(0, Math.floor(cx - rad)); x < Math.min(width, Math.ceil(cx + rad)); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 <= rad * rad) m.data[y * width + x] = 1;
      }
    }
  }
  const r = face.regions;
  const feats = createPlane(width, height);
  for (const p of [r.leftEye, r.rightEye, r.leftEyebrow, r.rightEyebrow, r.upperLip, r.lowerLip, r.nostrils]) fillPolygon(feats, p, 1, 'max', offset);
  const grown = dilate(feats, 0.03 * fw);
  for (let i = 0; i < m.data.length; i++) if (grown.data[i]! > 0) m.data[i] = 0;
  return m;
}

/** Fine-band energy (levels² per pixel) that rounding to 8-bit RGB adds to a luma plane. */
const QUANT_FLOOR = 0.033;

/**
 * Gain k for the texture layer so that, over the mask pixels, the fine-band energy of `base + k·detail`
 * equals `target` × that of `original` (all luma planes of one ROI, `w`×`h`). Closed form: with
 * A = hp(base), B = hp(detail), E0 = Σ hp(original)² (hp = identity − G_{1.5}), solve
 * Σ(A + kB)² = target·E0 − (the 8-bit rounding floor) for the larger root. Clamped to 0..1 (never sharper than the original);
 * `fallback` when the mask is empty or the equation has no root.
 */
export function textureGain(base: Float32Array, detail: Float32Array, original: Float32Array, w: number, h: number, mask: Plane, target: number, fallback: number): number {
  const hp = (p: Float32Array): Float32Array => {
    const low = gaussianBlur(p, w, h, FINE_SIGMA);
    const out = new Float32Array(p.length);
    for (let i = 0; i < p.length; i++) out[i] = p[i]! - low[i]!;
    return out;
  };
  const A = hp(base), B = hp(detail), O = hp(original);
  let aa = 0, ab = 0, bb = 0, e0 = 0, n = 0;
  for (let i = 0; i < mask.data.length; i++) {
    if (mask.data[i]! <= 0) continue;
    aa += A[i]! * A[i]!; ab += A[i]! * B[i]!; bb += B[i]! * B[i]!; e0 += O[i]! * O[i]!; n++;
  }
  if (n < 20 || bb <= 1e-6 || e0 <= 1e-6) return fallback;
  // rounding the result to 8 bits adds its own fine-band noise (luma of three rounded channels through
  // the high-pass: about 0.033 levels² per pixel); on very smooth skin that is a tenth of the energy
  const c = aa - Math.max(0, target * e0 - QUANT_FLOOR * n);
  const disc = ab * ab - bb * c;
  if (disc < 0) return 0; // even k = 0 keeps more than the target: the base alone is textured enough
  return Math.min(1, Math.max(0, (-ab + Math.sqrt(disc)) / bb));
}
