import type { RgbImage } from '../io/image-io';
import { clamp255, luma } from './pixel-math';
import type { FilterKind, RetouchParams } from './retouch-params';

/** Smooth S-curve on 0..255: amount > 0 adds contrast around mid-grey, < 0 flattens. */
function sCurve(v: number, amount: number): number {
  const x = v / 255;
  const s = x * x * (3 - 2 * x);
  return 255 * (x + amount * (s - x));
}

/**
 * Global grade of a parameter set (temperature, contrast, saturation), in place. Cheap per-pixel maths,
 * applied to the whole frame, excluded regions included (they are protected from local retouch only).
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

interface StudioStats { lut: Float32Array; gR: number; gG: number; gB: number }

/** The studio filter's statistics from one image: 0.5–99.5 % luma levels and half grey-world gains. */
function studioLut(img: RgbImage): StudioStats {
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
  const black = Math.min(lo, 20), white = Math.max(hi, 235);
  const lut = new Float32Array(256);
  for (let v = 0; v < 256; v++) lut[v] = sCurve(clamp255(((v - black) / Math.max(1, white - black)) * 255), 0.16);
  return { lut, gR: gain(sr), gG: gain(sg), gB: gain(sb) };
}

function applyStudio(img: RgbImage, st: StudioStats, strength: number): void {
  const d = img.data;
  const { lut, gR, gG, gB } = st;
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
 * "studio" filter (spec 001 §5, index 0 + prompt 'studio filter'): a clean studio grade — partial grey-
 * world white balance, a gentle levels stretch (0.5–99.5 %), mild S-contrast and vibrance, measured on
 * `img` itself. `strength` 0..1 blends it over the input. In place.
 */
export function applyStudioFilter(img: RgbImage, strength: number): void {
  applyStudio(img, studioLut(img), strength);
}

/**
 * How skin-like a colour is, 0..1, from its own hue and chroma only (no position): YCbCr hue angle near
 * skin's (Cr > 0, Cb < 0, about 130° from the +Cb axis) and chroma 4–45 % of luma. Dark and fair skin
 * share the hue; they differ in luma, which this ignores. After Chai & Ngan, "Face segmentation using
 * skin-color map" (IEEE TCSVT 1999), made smooth so no hard colour edge appears in the filter.
 */
export function skinLikelihood(r: number, g: number, b: number): number {
  const y = luma(r, g, b);
  if (y < 12) return 0;
  const cb = -0.1687 * r - 0.3313 * g + 0.5 * b, cr = 0.5 * r - 0.4187 * g - 0.0813 * b;
  const c = Math.hypot(cb, cr) / y;
  const hue = (Math.atan2(cr, cb) * 180) / Math.PI; // skin ≈ 120–140
  const dh = Math.abs(hue - 130);
  const wh = dh <= 20 ? 1 : dh >= 40 ? 0 : (40 - dh) / 20;
  const wc = c < 0.02 ? 0 : c < 0.06 ? (c - 0.02) / 0.04 : c <= 0.45 ? 1 : c >= 0.6 ? 0 : (0.6 - c) / 0.15;
  return wh * wc;
}

/**
 * "ppoyong" / fair-skin filter (spec 001 §5, index 1): brightens (gamma lift) and shifts toward a pinkish,
 * less yellow fair tone. Acts fully on skin-coloured pixels ({@link skinLikelihood}) and at 35 % on the
 * rest, so the frame stays coherent. A function of each pixel's own colour only: the same colour comes
 * out the same wherever it is (exclusions rely on that). `strength` 0..1.
 */
export function applyPpoyongFilter(img: RgbImage, strength: number): void {
  const d = img.data;
  const lut = new Float32Array(256);
  for (let v = 0; v < 256; v++) lut[v] = 255 * Math.pow(v / 255, 0.78);
  for (let o = 0; o < d.length; o += 3) {
    const r0 = d[o]!, g0 = d[o + 1]!, b0 = d[o + 2]!;
    const wgt = strength * (0.35 + 0.65 * skinLikelihood(r0, g0, b0));
    if (wgt <= 0) continue;
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

/** The photo-wide look of a request: the parameter set's grade, then the chosen filter at its strength. */
export interface GlobalLook {
  /** Applies the look in place. Every pixel's result depends only on its own colour (and the statistics fixed at build time). */
  apply(img: RgbImage): void;
  /** True when the look changes nothing (no grade, no filter). */
  identity: boolean;
}

/**
 * Builds the global look from the UN-retouched photo `plain` (the studio filter's levels and white
 * balance are measured there), so applying it to the retouched photo and to `plain` itself treats the
 * same colour the same way: an excluded region comes out as `look(plain)` exactly (issue 12, class 5:
 * exclusions protect from local retouch; the grade and filter apply to the whole photo).
 */
export function buildGlobalLook(plain: RgbImage, grade: RetouchParams['grade'], filter: FilterKind, strength: number): GlobalLook {
  const studio = filter === 'studio' ? studioLut(plain) : null;
  const hasGrade = grade.temperature !== 0 || grade.contrast !== 0 || grade.saturation !== 0;
  return {
    identity: !hasGrade && filter === 'none',
    apply(img) {
      applyGrade(img, grade);
      if (studio) applyStudio(img, studio, strength);
      if (filter === 'ppoyong') applyPpoyongFilter(img, strength);
    },
  };
}
