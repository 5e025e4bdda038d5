import type { RgbImage } from '../io/image-io';
import type { Plane } from '../mask/mask-raster';
import { clamp255, luma } from './pixel-math';
import type { RetouchParams } from './retouch-params';

/** Smooth S-curve on 0..255: amount > 0 adds contrast around mid-grey, < 0 flattens. */
function sCurve(v: number, amount: number): number {
  const x = v / 255;
  const s = x * x * (3 - 2 * x);
  return 255 * (x + amount * (s - x));
}

/**
 * Global grade of a parameter set (temperature, contrast, saturation), in place. Cheap per-pixel maths,
 * applied to the whole frame so the look is consistent (exclusions are restored afterwards anyway).
 */
export function applyGrade(img: RgbImage, grade: RetouchParams['grade']): void {
  const { temperature: t, contrast, saturation } = grade;
  if (t === 0 && contrast === 0 && saturation === 0) return;
  const lut = new Float32Array(256);
  for (let v = 0; v < 256; v++) lut[v] = sCurve(v, contrast * 2);
  const gr = 1 + 0.08 * t, gb = 1 - 0.08 * t;
  const d = img.data;
  for (let o = 0; o < d.length; o += 3) {
    let r = lut[d[o]!]! * gr, g = lut[d[o + 1]!]!, b = lut[d[o + 2]!]! * gb;
    const y = luma(r, g, b);
    r = y + (r - y) * (1 + saturation); g = y + (g - y) * (1 + saturation); b = y + (b - y) * (1 + saturation);
    d[o] = Math.round(clamp255(r)); d[o + 1] = Math.round(clamp255(g)); d[o + 2] = Math.round(clamp255(b));
  }
}

function percentile(hist: Float64Array, total: number, q: number): number {
  let acc = 0;
  for (let v = 0; v < hist.length; v++) { acc += hist[v]!; if (acc >= q * total) return v; }
  return hist.length - 1;
}

/**
 * "studio" filter (spec 001 §5, index 0 + prompt 'studio filter'): a clean studio grade — partial grey-
 * world white balance, a gentle levels stretch (0.5–99.5 %), mild S-contrast and vibrance. `strength` 0..1
 * blends it over the input.
 */
export function applyStudioFilter(img: RgbImage, strength: number): void {
  const d = img.data;
  const hist = new Float64Array(256);
  let sr = 0, sg = 0, sb = 0, n = 0;
  for (let o = 0; o < d.length; o += 3) {
    const y = luma(d[o]!, d[o + 1]!, d[o + 2]!);
    hist[Math.round(y)]! += 1;
    if (y > 30 && y < 225) { sr += d[o]!; sg += d[o + 1]!; sb += d[o + 2]!; n++; }
  }
  const total = d.length / 3;
  const lo = percentile(hist, total, 0.005), hi = percentile(hist, total, 0.995);
  const avg = n > 0 ? (sr + sg + sb) / (3 * n) : 128;
  // half-strength grey world, capped at ±8 % per channel: neutralises casts without bleaching warm skin
  const gain = (s: number): number => (n > 0 ? Math.min(1.08, Math.max(0.92, 1 + 0.5 * (avg / Math.max(1, s / n) - 1))) : 1);
  const gR = gain(sr), gG = gain(sg), gB = gain(sb);
  const black = Math.min(lo, 20), white = Math.max(hi, 235);
  const lut = new Float32Array(256);
  for (let v = 0; v < 256; v++) lut[v] = sCurve(clamp255(((v - black) / Math.max(1, white - black)) * 255), 0.16);
  for (let o = 0; o < d.length; o += 3) {
    const r0 = d[o]!, g0 = d[o + 1]!, b0 = d[o + 2]!;
    let r = lut[Math.round(clamp255(r0 * gR))]!, g = lut[Math.round(clamp255(g0 * gG))]!, b = lut[Math.round(clamp255(b0 * gB))]!;
    const y = luma(r, g, b);
    const sat = Math.max(Math.abs(r - y), Math.abs(g - y), Math.abs(b - y)) / 255;
    const vib = 1 + 0.15 * (1 - Math.min(1, sat * 3)); // vibrance: lifts dull colours more than vivid ones
    r = y + (r - y) * vib; g = y + (g - y) * vib; b = y + (b - y) * vib;
    d[o] = Math.round(clamp255(r0 + strength * (r - r0)));
    d[o + 1] = Math.round(clamp255(g0 + strength * (g - g0)));
    d[o + 2] = Math.round(clamp255(b0 + strength * (b - b0)));
  }
}

/**
 * "ppoyong" / fair-skin filter (spec 001 §5, index 1): brightens (gamma lift) and shifts toward a pinkish,
 * less yellow fair tone. Acts fully on skin (`skin` mask at image size) and at 35 % elsewhere so the
 * frame stays coherent. `strength` 0..1.
 */
export function applyPpoyongFilter(img: RgbImage, strength: number, skin: Plane): void {
  const d = img.data;
  const lut = new Float32Array(256);
  for (let v = 0; v < 256; v++) lut[v] = 255 * Math.pow(v / 255, 0.78);
  for (let o = 0, i = 0; o < d.length; o += 3, i++) {
    const wgt = strength * (0.35 + 0.65 * (skin.data[i] ?? 0));
    if (wgt <= 0) continue;
    const r0 = d[o]!, g0 = d[o + 1]!, b0 = d[o + 2]!;
    const y0 = luma(r0, g0, b0);
    const y1 = lut[Math.round(y0)]!;
    const cb = -0.1687 * r0 - 0.3313 * g0 + 0.5 * b0, cr = 0.5 * r0 - 0.4187 * g0 - 0.0813 * b0;
    // less yellow (Cb toward 0 and slightly blue), a little pink (Cr up), lower saturation = "fair"
    const cb1 = cb * 0.7 + 2, cr1 = cr * 0.85 + 4;
    const r = y1 + 1.402 * cr1, g = y1 - 0.344136 * cb1 - 0.714136 * cr1, b = y1 + 1.772 * cb1;
    d[o] = Math.round(clamp255(r0 + wgt * (r - r0)));
    d[o + 1] = Math.round(clamp255(g0 + wgt * (g - g0)));
    d[o + 2] = Math.round(clamp255(b0 + wgt * (b - b0)));
  }
}
