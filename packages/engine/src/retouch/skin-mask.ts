import type { DetectedFace } from '../face/face-analysis';
import type { Point } from '../face/face-regions';
import { boxFilter, createPlane, dilate, fillPolygon, gaussianBlur, type Plane } from '../mask/mask-raster';
import { luma, smoothstep } from './pixel-math';

/** Rectangle of the image a face's retouch may touch (the face, forehead, ears and neck), in pixels. */
export interface Roi { x: number; y: number; width: number; height: number }

/** The ROI of one face: 0.35 face widths either side of its box, 0.3 heights above and 0.7 below. */
export function faceRoi(face: DetectedFace, imgW: number, imgH: number): Roi {
  const { x, y, width: w, height: h } = face.box;
  const x0 = Math.max(0, Math.floor(x - 0.35 * w)), x1 = Math.min(imgW, Math.ceil(x + 1.35 * w));
  const y0 = Math.max(0, Math.floor(y - 0.3 * h)), y1 = Math.min(imgH, Math.ceil(y + 1.7 * h));
  return { x: x0, y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

/** Chroma (Cb, Cr) of an sRGB pixel; skin clusters tightly here across lighting. */
function chroma(r: number, g: number, b: number): [number, number] {
  return [-0.1687 * r - 0.3313 * g + 0.5 * b, 0.5 * r - 0.4187 * g - 0.0813 * b];
}

function medianMad(values: number[]): [number, number] {
  const s = values.sort((a, b) => a - b);
  const med = s[Math.floor(s.length / 2)] ?? 0;
  const dev = s.map((v) => Math.abs(v - med)).sort((a, b) => a - b);
  return [med, 1.4826 * (dev[Math.floor(dev.length / 2)] ?? 0)];
}

/**
 * Skin mask of one face in ROI coordinates, 0..1, and exactly 0 on every pixel that is not skin.
 *
 * Core: the face oval minus the eyes, brows, lips, mouth and nostrils (grown by 2.2 % of the face width).
 * Beyond the oval (neck below the jaw, forehead up to the hairline, ears) skin is found by colour AND
 * connectivity, not by extending the oval: a pixel joins when its Cb/Cr lie within 2.1 robust deviations
 * of the core's and its luma is plausible for skin in shade (or, brighter than the face's median, it has
 * the skin's hue within 26° at 25–120 % of its chroma: a lit forehead washing out), the person matte (when given, ROI size)
 * says person, and a path from the core reaches it without crossing a strong edge (the contour between
 * neck and hair or background). The path length is limited (0.25 face heights beside and above the
 * face, up to 0.9 below the chin, fading out smoothly) so the mask never meets the ROI's edges.
 * The outer edge of the union is eroded by 1.5 feather widths, feathered (sigma 1.8 % of the face width)
 * and multiplied by the union itself: the soft edge lies inside the skin, so smoothing never spills past
 * it (issue 12, class 4). The feature holes are feathered across their edge (inside the face).
 */
export function buildSkinMask(face: DetectedFace, roi: Roi, rgb: readonly Float32Array[], matte?: Plane | null): Plane {
  const [R, G, B] = rgb as [Float32Array, Float32Array, Float32Array];
  const { width: w, height: h } = roi;
  const n = w * h;
  const fw = face.box.width, fh = face.box.height;
  const off: Point = [roi.x, roi.y];
  const core = createPlane(w, h);
  fillPolygon(core, face.regions.faceOval, 1, 'max', off);
  const feat = createPlane(w, h);
  const r = face.regions;
  for (const poly of [r.leftEye, r.rightEye, r.leftEyebrow, r.rightEyebrow, r.upperLip, r.lowerLip, r.innerMouth, r.nostrils]) fillPolygon(feat, poly, 1, 'max', off);
  const featGrown = dilate(feat, Math.max(2, 0.022 * fw));
  const inOval = new Uint8Array(n);
  for (let i = 0; i < n; i++) inOval[i] = core.data[i]! > 0 ? 1 : 0;
  for (let i = 0; i < n; i++) if (featGrown.data[i]! > 0) core.data[i] = 0;

  // robust colour statistics of the core
  const cbs: number[] = [], crs: number[] = [], ys: number[] = [];
  const step = Math.max(1, Math.floor(Math.sqrt(n / 20000)));
  for (let i = 0; i < n; i += step) {
    if (core.data[i]! < 1) continue;
    const [cb, cr] = chroma(R[i]!, G[i]!, B[i]!);
    cbs.push(cb); crs.push(cr); ys.push(luma(R[i]!, G[i]!, B[i]!));
  }
  const skin = createPlane(w, h);
  const weight = new Float32Array(n);
  for (let i = 0; i < n; i++) if (core.data[i]! >= 1) { skin.data[i] = 1; weight[i] = 1; }
  if (cbs.length >= 50) {
    const [mb, db0] = medianMad(cbs), [mr, dr0] = medianMad(crs), [my, dy0] = medianMad(ys);
    const db = Math.max(3, db0), dr = Math.max(3, dr0), dy = Math.max(8, dy0);
    const skinC = Math.hypot(mb, mr);
    let eyeY = 0;
    for (const p of [...r.leftEye, ...r.rightEye]) eyeY += p[1];
    const eyeRow = Math.round(eyeY / (r.leftEye.length + r.rightEye.length) - roi.y);
    const cand = new Float32Array(n);
    const Y = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      Y[i] = luma(R[i]!, G[i]!, B[i]!);
      // above the eyes the oval's own skin counts for the majority filter below, or a ring just outside
      // the oval's top would always fail and leave a straight seam across the forehead; below, the jaw
      // line keeps its margin (the neck joins where it is skin over its own width)
      if (core.data[i]! >= 1) { if (i < eyeRow * w) cand[i] = 1; continue; }
      if (inOval[i] || featGrown.data[i]! > 0) continue;
      if (matte && matte.data[i]! < 0.5) continue;
      const [cb, cr] = chroma(R[i]!, G[i]!, B[i]!);
      const d = ((cb - mb) / db) ** 2 + ((cr - mr) / dr) ** 2;
      if (d < 4.5 && Y[i]! > my - 3.5 * dy - 15 && Y[i]! < my + 2.5 * dy + 10) cand[i] = 1;
      // skin brighter than the face's median washes out toward white: same hue, less chroma
      else if (Y[i]! > my && skinC > 2) {
        const c = Math.hypot(cb, cr), dh = Math.abs(Math.atan2(cb * mr - cr * mb, cb * mb + cr * mr));
        if (c > 0.25 * skinC && c < 1.2 * skinC && dh < 0.45) cand[i] = 1;
      }
    }
    // majority filter: speckle of skin-coloured pixels in clothing or hair does not count
    const clean = boxFilter(cand, w, h, Math.max(1, 0.01 * fw));
    // edges that stop the growth: Sobel of a lightly blurred luma above 3× the core's median edge
    const Yb = gaussianBlur(Y, w, h, Math.max(1, 0.004 * fw));
    const grad = new Float32Array(n);
    const coreGrads: number[] = [];
    for (let y = 1; y < h - 1; y++) {
      for (let x = 1; x < w - 1; x++) {
        const i = y * w + x;
        const gx = Yb[i - w + 1]! + 2 * Yb[i + 1]! + Yb[i + w + 1]! - Yb[i - w - 1]! - 2 * Yb[i - 1]! - Yb[i + w - 1]!;
        const gy = Yb[i + w - 1]! + 2 * Yb[i + w]! + Yb[i + w + 1]! - Yb[i - w - 1]! - 2 * Yb[i - w]! - Yb[i - w + 1]!;
        grad[i] = Math.hypot(gx, gy);
        if (core.data[i]! >= 1 && (i & 7) === 0) coreGrads.push(grad[i]!);
      }
    }
    const gMed = coreGrads.sort((a, b) => a - b)[Math.floor(coreGrads.length / 2)] ?? 8;
    const barrier = Math.max(40, 4 * gMed);
    const ok = (i: number): boolean => clean[i]! > 0.6 && cand[i]! > 0 && grad[i]! < barrier;
    // geodesic growth from the oval (chamfer 3-4 distances, bucket queue), limited per row
    const chinY = face.box.y + fh - roi.y;
    const limitAt = (y: number): number => 3 * fh * (0.25 + 0.65 * smoothstep(chinY - 0.3 * fh, chinY + 0.1 * fh, y));
    const maxLimit = 3 * 0.9 * fh;
    const dist = new Float32Array(n).fill(Infinity);
    const buckets: number[][] = [];
    const push = (i: number, d: number): void => { (buckets[d] ??= []).push(i); };
    for (let i = 0; i < n; i++) if (inOval[i]) { dist[i] = 0; push(i, 0); }
    for (let d = 0; d < buckets.length && d <= maxLimit; d++) {
      const bucket = buckets[d];
      if (!bucket) continue;
      for (const i of bucket) {
        if (dist[i]! < d) continue;
        const x = i % w, y = (i - x) / w;
        for (let dy2 = -1; dy2 <= 1; dy2++) {
          for (let dx2 = -1; dx2 <= 1; dx2++) {
            if (!dx2 && !dy2) continue;
            const nx = x + dx2, ny = y + dy2;
            if (nx < 1 || ny < 1 || nx >= w - 1 || ny >= h - 1) continue;
            const q = ny * w + nx;
            if (inOval[q] || !ok(q)) continue;
            const nd = d + (dx2 && dy2 ? 4 : 3);
            if (nd >= dist[q]! || nd > limitAt(ny)) continue;
            dist[q] = nd;
            push(q, nd);
          }
        }
      }
      buckets[d] = [];
    }
    for (let i = 0; i < n; i++) {
      if (inOval[i] || !Number.isFinite(dist[i]!)) continue;
      const y = Math.floor(i / w);
      const lim = limitAt(y);
      skin.data[i] = 1;
      weight[i] = 1 - smoothstep(0.5 * lim, lim, dist[i]!);
    }
  }
  // the outer edge (oval, neck, forehead): eroded, feathered and cut by the union, so the soft edge stays
  // inside the skin; the holes (eyes, brows, lips, nostrils, already grown by 2.2 %) feathered across
  // their edge as before — they are inside the face, and under-eye skin wants its share of smoothing
  const sigma = Math.max(1, 0.018 * fw);
  const outer = new Uint8Array(n);
  for (let i = 0; i < n; i++) outer[i] = skin.data[i]! > 0 || (inOval[i] && featGrown.data[i]! > 0) ? 1 : 0;
  const outside = createPlane(w, h);
  for (let i = 0; i < n; i++) outside.data[i] = outer[i] ? 0 : 1;
  const grownOutside = dilate(outside, 1.5 * sigma);
  const eroded = new Float32Array(n);
  for (let i = 0; i < n; i++) eroded[i] = grownOutside.data[i]! > 0 ? 0 : inOval[i] ? 1 : weight[i]!;
  const soft = gaussianBlur(eroded, w, h, sigma);
  const holes = new Float32Array(n);
  for (let i = 0; i < n; i++) holes[i] = inOval[i] && featGrown.data[i]! > 0 ? 1 : 0;
  const holeSoft = gaussianBlur(holes, w, h, sigma);
  const out = createPlane(w, h);
  for (let i = 0; i < n; i++) out.data[i] = outer[i] ? Math.min(1, soft[i]!) * (1 - Math.min(1, holeSoft[i]! * (holes[i] ? 1 : 1))) : 0;
  return out;
}
