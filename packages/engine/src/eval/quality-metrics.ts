/**
 * Measures of retouch quality shared by `npm run eval` and the engine tests (issue 12). All images are
 * 8-bit RGB of the same size unless said otherwise; lengths are pixels; face geometry comes from a
 * {@link DetectedFace} in the same pixel frame.
 */
import type { DetectedFace } from '../face/face-analysis';
import type { Point } from '../face/face-regions';
import type { RgbImage } from '../io/image-io';
import { createPlane, dilate, fillPolygon, gaussianBlur, sobelMagnitude, type Plane } from '../mask/mask-raster';

export { cheekMask, FINE_SIGMA } from '../retouch/texture';
import { labOf } from '../retouch/pixel-math';
import { FINE_SIGMA } from '../retouch/texture';
export { labOf } from '../retouch/pixel-math';

/** Luma plane (BT.601 weights) of an RGB image. */
export function lumaOf(img: RgbImage): Float32Array {
  const y = new Float32Array(img.width * img.height);
  for (let i = 0, o = 0; i < y.length; i++, o += 3) y[i] = 0.299 * img.data[o]! + 0.587 * img.data[o + 1]! + 0.114 * img.data[o + 2]!;
  return y;
}

/** Eye and eyebrow polygons of one face grown by 2 px (their edges are what must survive). */
export function eyeBrowMask(face: DetectedFace, width: number, height: number): Plane {
  const m = createPlane(width, height);
  const r = face.regions;
  for (const p of [r.leftEye, r.rightEye, r.leftEyebrow, r.rightEyebrow]) fillPolygon(m, p);
  return dilate(m, 2);
}

/**
 * Fine-scale high-frequency energy: mean of (Y − G_σ * Y)² over mask pixels (σ = {@link FINE_SIGMA}),
 * in 8-bit levels². Computed on the mask's bounding box plus a margin, so it is cheap on big photos.
 */
export function fineEnergy(y: Float32Array, width: number, height: number, mask: Plane, sigma = FINE_SIGMA): number {
  let x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (let j = 0; j < height; j++) for (let i = 0; i < width; i++) if (mask.data[j * width + i]! > 0) { x0 = Math.min(x0, i); x1 = Math.max(x1, i); y0 = Math.min(y0, j); y1 = Math.max(y1, j); }
  if (x1 < 0) return 0;
  const pad = Math.ceil(4 * sigma);
  x0 = Math.max(0, x0 - pad); y0 = Math.max(0, y0 - pad); x1 = Math.min(width - 1, x1 + pad); y1 = Math.min(height - 1, y1 + pad);
  const cw = x1 - x0 + 1, ch = y1 - y0 + 1;
  const crop = new Float32Array(cw * ch);
  for (let j = 0; j < ch; j++) crop.set(y.subarray((y0 + j) * width + x0, (y0 + j) * width + x0 + cw), j * cw);
  const low = gaussianBlur(crop, cw, ch, sigma);
  let s = 0, n = 0;
  for (let j = 0; j < ch; j++) {
    for (let i = 0; i < cw; i++) {
      if (mask.data[(y0 + j) * width + x0 + i]! <= 0) continue;
      const d = crop[j * cw + i]! - low[j * cw + i]!;
      s += d * d; n++;
    }
  }
  return n > 0 ? s / n : 0;
}

/** Mean Sobel gradient magnitude of `y` over mask pixels (edge strength, levels per px × 4). */
export function meanGradient(y: Float32Array, width: number, height: number, mask?: Plane): number {
  const g = sobelMagnitude(y, width, height, mask);
  let n = 0, s = 0;
  for (let r = 1; r < height - 1; r++) {
    for (let c = 1; c < width - 1; c++) {
      const i = r * width + c;
      if (mask && mask.data[i]! <= 0) continue;
      n++; s += g[i]!;
    }
  }
  return n > 0 ? s / n : 0;
}

/** Mean absolute difference per channel (8-bit levels) between `a` and `b` over mask pixels ≥ 1; NaN when empty. */
export function maskedMad(a: RgbImage, b: RgbImage, mask: Plane): { mad: number; pixels: number } {
  let s = 0, n = 0;
  for (let i = 0; i < mask.data.length; i++) {
    if (mask.data[i]! < 1) continue;
    const o = i * 3;
    s += Math.abs(a.data[o]! - b.data[o]!) + Math.abs(a.data[o + 1]! - b.data[o + 1]!) + Math.abs(a.data[o + 2]! - b.data[o + 2]!);
    n++;
  }
  return { mad: n > 0 ? s / (3 * n) : NaN, pixels: n };
}

/** Polygon of a region scaled by (sx, sy) — for moving face geometry between image sizes. */
export function scalePoly(poly: readonly Point[], sx: number, sy: number): Point[] {
  return poly.map(([x, y]) => [x * sx, y * sy]);
}

/**
 * Mean distance between corresponding mesh landmarks of two analyses of the same face (input and
 * output), in % of the face width. Faces are matched by nearest box centre.
 */
export function landmarkShiftPct(a: DetectedFace, b: DetectedFace): number {
  const n = Math.min(a.mesh.length, b.mesh.length, 468);
  let s = 0;
  for (let i = 0; i < n; i++) s += Math.hypot(a.mesh[i]![0] - b.mesh[i]![0], a.mesh[i]![1] - b.mesh[i]![1]);
  return (100 * s) / n / Math.max(1, a.box.width);
}

/** The face of `list` whose box centre is nearest to `f`'s, or undefined when none lies within half a face width. */
export function matchFace(f: DetectedFace, list: readonly DetectedFace[]): DetectedFace | undefined {
  const cx = f.box.x + f.box.width / 2, cy = f.box.y + f.box.height / 2;
  let best: DetectedFace | undefined, bd = Infinity;
  for (const g of list) {
    const d = Math.hypot(g.box.x + g.box.width / 2 - cx, g.box.y + g.box.height / 2 - cy);
    if (d < bd) { bd = d; best = g; }
  }
  return bd <= 0.5 * f.box.width ? best : undefined;
}

/**
 * Colour change of a region: CIE76 ΔE*ab between `a` and `b` per mask pixel (mask ≥ 1), as the mean and
 * the 95th percentile. Used for the lip tint (output against look(input)); NaN when the mask is empty.
 */
export function regionDeltaE(a: RgbImage, b: RgbImage, mask: Plane): { mean: number; p95: number } {
  const d: number[] = [];
  for (let i = 0; i < mask.data.length; i++) {
    if (mask.data[i]! < 1) continue;
    const o = i * 3;
    const p = labOf(a.data[o]!, a.data[o + 1]!, a.data[o + 2]!), q = labOf(b.data[o]!, b.data[o + 1]!, b.data[o + 2]!);
    d.push(Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]));
  }
  if (d.length === 0) return { mean: NaN, p95: NaN };
  d.sort((x, y) => x - y);
  return { mean: d.reduce((s, v) => s + v, 0) / d.length, p95: d[Math.floor(0.95 * (d.length - 1))]! };
}
