import type { DetectedFace } from '../face/face-analysis';
import { CHEEK_POINTS, type Point } from '../face/face-regions';
import type { RgbImage } from '../io/image-io';
import { boxFilter, createPlane, dilate, feather, fillPolygon, gaussianBlur, type Plane } from '../mask/mask-raster';
import { clamp255, luma, smoothstep, weightedQuantiles } from './pixel-math';
import type { RetouchParams } from './retouch-params';

/** Rectangle of the image a face's retouch may touch (the face, forehead, ears and neck). */
export interface Roi { x: number; y: number; width: number; height: number }

export function faceRoi(face: DetectedFace, imgW: number, imgH: number): Roi {
  const { x, y, width: w, height: h } = face.box;
  const x0 = Math.max(0, Math.floor(x - 0.35 * w)), x1 = Math.min(imgW, Math.ceil(x + 1.35 * w));
  const y0 = Math.max(0, Math.floor(y - 0.3 * h)), y1 = Math.min(imgH, Math.ceil(y + 1.7 * h));
  return { x: x0, y: y0, width: Math.max(1, x1 - x0), height: Math.max(1, y1 - y0) };
}

/**
 * Skin mask of one face in ROI coordinates: face oval minus (dilated) eyes, eyebrows, lips and nostrils,
 * plus neck pixels below the jaw whose chroma matches the facial skin, feathered. Values 0..1.
 */
export function buildSkinMask(face: DetectedFace, roi: Roi, rgb: Float32Array[]): Plane {
  const fw = face.box.width;
  const off: Point = [roi.x, roi.y];
  const hard = createPlane(roi.width, roi.height);
  fillPolygon(hard, face.regions.faceOval, 1, 'max', off);
  // erode the oval by the feather width so the soft edge does not smear hair or background into skin
  const featherSigma = Math.max(1, 0.018 * fw);
  const outside = createPlane(roi.width, roi.height, 1);
  for (let i = 0; i < outside.data.length; i++) outside.data[i] = 1 - hard.data[i]!;
  const grownOutside = dilate(outside, featherSigma);
  for (let i = 0; i < hard.data.length; i++) if (grownOutside.data[i]! > 0) hard.data[i] = 0;
  const feat = createPlane(roi.width, roi.height);
  const r = face.regions;
  for (const poly of [r.leftEye, r.rightEye, r.leftEyebrow, r.rightEyebrow, r.upperLip, r.lowerLip, r.innerMouth, r.nostrils]) fillPolygon(feat, poly, 1, 'max', off);
  const featGrown = dilate(feat, Math.max(2, 0.022 * fw));
  for (let i = 0; i < hard.data.length; i++) if (featGrown.data[i]! > 0) hard.data[i] = 0;
  addNeckSkin(face, roi, rgb, hard);
  return feather(hard, featherSigma);
}

/** Chroma (Cb, Cr) of an sRGB pixel; skin clusters tightly here across lighting. */
function chroma(r: number, g: number, b: number): [number, number] {
  return [-0.1687 * r - 0.3313 * g + 0.5 * b, 0.5 * r - 0.4187 * g - 0.0813 * b];
}

/**
 * Grows the skin mask by colour where the mesh oval stops short of the skin: the neck below the jaw and
 * the upper forehead above the oval (MediaPipe's oval ends below the hairline, which otherwise leaves a
 * visible line between retouched and untouched forehead). Candidates must match the facial skin in
 * chroma (Cb/Cr) and, on the forehead, also in luminance so hair of a skin-like hue is not taken.
 */
function addNeckSkin(face: DetectedFace, roi: Roi, rgb: Float32Array[], hard: Plane): void {
  const [R, G, B] = rgb as [Float32Array, Float32Array, Float32Array];
  let n = 0, mb = 0, mr = 0, my = 0, sb = 0, sr = 0, sy = 0;
  for (let i = 0; i < hard.data.length; i++) {
    if (hard.data[i]! < 1) continue;
    const [cb, cr] = chroma(R[i]!, G[i]!, B[i]!);
    const y = luma(R[i]!, G[i]!, B[i]!);
    n++; mb += cb; mr += cr; my += y; sb += cb * cb; sr += cr * cr; sy += y * y;
  }
  if (n < 50) return;
  mb /= n; mr /= n; my /= n;
  const db = Math.max(3, Math.sqrt(Math.max(0, sb / n - mb * mb))), dr = Math.max(3, Math.sqrt(Math.max(0, sr / n - mr * mr)));
  const dy = Math.max(8, Math.sqrt(Math.max(0, sy / n - my * my)));
  const { x, y, width: w, height: h } = face.box;
  const cand = createPlane(roi.width, roi.height);
  const scan = (top: number, bottom: number, left: number, right: number, checkLuma: boolean): void => {
    const y0 = Math.max(0, Math.floor(top - roi.y)), y1 = Math.min(roi.height, Math.ceil(bottom - roi.y));
    const x0 = Math.max(0, Math.floor(left - roi.x)), x1 = Math.min(roi.width, Math.ceil(right - roi.x));
    for (let yy = y0; yy < y1; yy++) {
      for (let xx = x0; xx < x1; xx++) {
        const i = yy * roi.width + xx;
        const [cb, cr] = chroma(R[i]!, G[i]!, B[i]!);
        let d = ((cb - mb) / db) ** 2 + ((cr - mr) / dr) ** 2;
        if (checkLuma) d += ((luma(R[i]!, G[i]!, B[i]!) - my) / (1.5 * dy)) ** 2;
        if (d < 4.5) cand.data[i] = 1;
      }
    }
  };
  scan(y + 0.75 * h, y + 1.6 * h, x + 0.05 * w, x + 0.95 * w, false); // neck
  scan(y - 0.25 * h, y + 0.2 * h, x + 0.15 * w, x + 0.85 * w, true); // upper forehead
  // majority filter drops speckle (clothing texture, hair strands) before the union
  const clean = boxFilter(cand.data, roi.width, roi.height, Math.max(1, 0.01 * w));
  for (let i = 0; i < clean.length; i++) if (clean[i]! > 0.6 && hard.data[i]! < 1) hard.data[i] = 1;
}

/**
 * He et al., "Guided Image Filtering" (TPAMI 2013), grey guide: edge-preserving smoothing of channel `p`
 * with radius r px and regulariser eps (8-bit levels²). Flat areas (variance ≪ eps) average out; edges
 * with variance ≫ eps survive — exactly what skin smoothing next to eyes and lips needs.
 */
function guidedFilter(I: Float32Array, meanI: Float32Array, varI: Float32Array, p: Float32Array, w: number, h: number, r: number, eps: number): Float32Array {
  const n = I.length;
  const Ip = new Float32Array(n);
  for (let i = 0; i < n; i++) Ip[i] = I[i]! * p[i]!;
  const meanP = boxFilter(p, w, h, r);
  const meanIp = boxFilter(Ip, w, h, r);
  const a = Ip; // reuse
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const ai = (meanIp[i]! - meanI[i]! * meanP[i]!) / (varI[i]! + eps);
    a[i] = ai;
    b[i] = meanP[i]! - ai * meanI[i]!;
  }
  const ma = boxFilter(a, w, h, r), mb = boxFilter(b, w, h, r);
  const q = meanP; // reuse
  for (let i = 0; i < n; i++) q[i] = ma[i]! * I[i]! + mb[i]!;
  return q;
}

/** Blends pixel chroma toward `rgb`'s chroma by weight, keeping luminance (tinting without painting). */
function tintChroma(R: Float32Array, G: Float32Array, B: Float32Array, i: number, rgb: readonly number[], wgt: number, darken: number): void {
  const y = luma(R[i]!, G[i]!, B[i]!);
  const ty = luma(rgb[0]!, rgb[1]!, rgb[2]!);
  const k = 1 - darken * wgt;
  R[i] = (y + (R[i]! - y) * (1 - wgt) + (rgb[0]! - ty) * wgt) * k;
  G[i] = (y + (G[i]! - y) * (1 - wgt) + (rgb[1]! - ty) * wgt) * k;
  B[i] = (y + (B[i]! - y) * (1 - wgt) + (rgb[2]! - ty) * wgt) * k;
}

/**
 * Retouches one face in place on `img` (8-bit RGB at output size) and returns its skin mask (ROI coords).
 * Stages: guided-filter smoothing with fine-texture re-injection (frequency separation), blemish
 * replacement (local dark or red spots), tone evening (mid-scale colour toward the local skin mean),
 * then the look of the parameter set: glow lift, matte shine cut, lip tint and blush.
 */
export function retouchFace(img: RgbImage, face: DetectedFace, params: RetouchParams): { roi: Roi; skin: Plane } {
  const roi = faceRoi(face, img.width, img.height);
  const { width: w, height: h } = roi;
  const n = w * h;
  const src = [new Float32Array(n), new Float32Array(n), new Float32Array(n)] as [Float32Array, Float32Array, Float32Array];
  for (let yy = 0; yy < h; yy++) {
    let o = ((roi.y + yy) * img.width + roi.x) * 3;
    for (let xx = 0, i = yy * w; xx < w; xx++, i++, o += 3) {
      src[0][i] = img.data[o]!; src[1][i] = img.data[o + 1]!; src[2][i] = img.data[o + 2]!;
    }
  }
  const skin = buildSkinMask(face, roi, src);
  const M = skin.data;
  const fw = face.box.width;
  const Y = new Float32Array(n);
  for (let i = 0; i < n; i++) Y[i] = luma(src[0][i]!, src[1][i]!, src[2][i]!);

  // 1. edge-preserving base + fine texture (frequency separation)
  const r = Math.max(2, params.smoothRadius * fw);
  const eps = params.smoothEdge * params.smoothEdge;
  const meanI = boxFilter(Y, w, h, r);
  const YY = new Float32Array(n);
  for (let i = 0; i < n; i++) YY[i] = Y[i]! * Y[i]!;
  const varI = boxFilter(YY, w, h, r);
  for (let i = 0; i < n; i++) varI[i] = Math.max(0, varI[i]! - meanI[i]! * meanI[i]!);
  const fineSigma = Math.max(0.8, 0.0025 * fw);
  const work = src.map((p) => {
    const q = guidedFilter(Y, meanI, varI, p, w, h, r, eps);
    const low = gaussianBlur(p, w, h, fineSigma);
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const smoothed = q[i]! + params.textureKeep * (p[i]! - low[i]!);
      out[i] = p[i]! + params.smoothing * (smoothed - p[i]!);
    }
    return out;
  }) as [Float32Array, Float32Array, Float32Array];

  // 2. blemishes: pixels clearly darker or redder than their neighbourhood
  if (params.blemishRadius > 0 && params.blemishStrength > 0) {
    const rb = Math.max(2, params.blemishRadius * fw);
    const Cr = new Float32Array(n);
    for (let i = 0; i < n; i++) Cr[i] = 0.5 * src[0][i]! - 0.4187 * src[1][i]! - 0.0813 * src[2][i]!;
    const mY = boxFilter(Y, w, h, rb), mCr = boxFilter(Cr, w, h, rb);
    const spot = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      if (M[i]! < 0.05) continue;
      spot[i] = Math.max(smoothstep(3, 10, mY[i]! - Y[i]!), smoothstep(2.5, 8, Cr[i]! - mCr[i]!));
    }
    const wSpot = gaussianBlur(spot, w, h, rb * 0.4);
    const patch = work.map((p) => gaussianBlur(p, w, h, rb * 0.8));
    for (let c = 0; c < 3; c++) {
      const p = work[c]!, pt = patch[c]!;
      for (let i = 0; i < n; i++) {
        const a = Math.min(1, wSpot[i]! * 1.6) * params.blemishStrength;
        if (a > 0) p[i] = p[i]! + a * (pt[i]! - p[i]!);
      }
    }
  }

  // 3. tone evening: replace mid-scale blotches by the skin-only (normalised convolution) local mean
  if (params.toneEvening > 0) {
    const big = 0.06 * fw, small = Math.max(1, 0.012 * fw);
    const den = gaussianBlur(M, w, h, big);
    const means = work.map((p) => {
      const pm = new Float32Array(n);
      for (let i = 0; i < n; i++) pm[i] = p[i]! * M[i]!;
      return gaussianBlur(pm, w, h, big);
    });
    const lows = work.map((p) => gaussianBlur(p, w, h, small));
    for (let i = 0; i < n; i++) {
      if (M[i]! < 0.02 || den[i]! < 1e-3) continue;
      const d0 = means[0]![i]! / den[i]! - lows[0]![i]!, d1 = means[1]![i]! / den[i]! - lows[1]![i]!, d2 = means[2]![i]! / den[i]! - lows[2]![i]!;
      const dy = luma(d0, d1, d2);
      // chroma fully, luminance only 30%: keep the face's modelling (cheekbone shading) intact
      const k = params.toneEvening;
      work[0][i] = work[0][i]! + k * (d0 - dy + 0.3 * dy);
      work[1][i] = work[1][i]! + k * (d1 - dy + 0.3 * dy);
      work[2][i] = work[2][i]! + k * (d2 - dy + 0.3 * dy);
    }
  }

  // 4. the parameter set's look on skin: glow (specular lift) or matte (shine cut)
  if (params.glow > 0 || params.matte > 0) {
    const Yw = new Float32Array(n);
    for (let i = 0; i < n; i++) Yw[i] = luma(work[0][i]!, work[1][i]!, work[2][i]!);
    const Yb = gaussianBlur(Yw, w, h, Math.max(1, 0.015 * fw));
    const [p50, p60, p95, p99] = weightedQuantiles(Yb, M, [0.5, 0.6, 0.95, 0.99]) as [number, number, number, number];
    for (let i = 0; i < n; i++) {
      const m = M[i]!;
      if (m < 0.02) continue;
      if (params.glow > 0) {
        const hl = smoothstep(p50, p95 + (255 - p95) * 0.3, Yb[i]!);
        const lift = params.glow * m * (0.5 * hl + 0.05);
        for (let c = 0; c < 3; c++) work[c]![i] = work[c]![i]! + lift * (255 - work[c]![i]!);
      }
      if (params.matte > 0) {
        // a wide ramp (median → 99th percentile) so the shine cut never leaves a flat patch with an edge
        const hl = smoothstep(p50, Math.max(p99, p50 + 1), Yb[i]!);
        const y = Math.max(1, Yw[i]!);
        const k = (y - params.matte * hl * m * Math.max(0, y - p60)) / y;
        for (let c = 0; c < 3; c++) work[c]![i] = work[c]![i]! * k;
      }
    }
  }

  // blend retouched skin into the original by the skin mask
  const out = src.map((p, c) => {
    const o = new Float32Array(n);
    const wk = work[c]!;
    for (let i = 0; i < n; i++) o[i] = p[i]! + M[i]! * (wk[i]! - p[i]!);
    return o;
  }) as [Float32Array, Float32Array, Float32Array];

  // 5. makeup: lip tint (lip polygons) and blush (Gaussian around cheek landmarks, within skin)
  if (params.lipTint.amount > 0) {
    const lips = createPlane(w, h);
    fillPolygon(lips, face.regions.upperLip, 1, 'max', [roi.x, roi.y]);
    fillPolygon(lips, face.regions.lowerLip, 1, 'max', [roi.x, roi.y]);
    const soft = feather(lips, Math.max(0.7, 0.004 * fw)).data;
    for (let i = 0; i < n; i++) if (soft[i]! > 0.01) tintChroma(out[0], out[1], out[2], i, params.lipTint.rgb, soft[i]! * params.lipTint.amount, 0.12);
  }
  if (params.blush.amount > 0) {
    const sigma = 0.11 * fw;
    for (const idx of [CHEEK_POINTS.left, CHEEK_POINTS.right]) {
      const c = face.mesh[idx];
      if (!c) continue;
      const cx = c[0] - roi.x, cy = c[1] - roi.y;
      const x0 = Math.max(0, Math.floor(cx - 3 * sigma)), x1 = Math.min(w, Math.ceil(cx + 3 * sigma));
      const y0 = Math.max(0, Math.floor(cy - 3 * sigma)), y1 = Math.min(h, Math.ceil(cy + 3 * sigma));
      for (let yy = y0; yy < y1; yy++) {
        for (let xx = x0; xx < x1; xx++) {
          const i = yy * w + xx;
          const g = Math.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * sigma * sigma));
          const a = g * M[i]! * params.blush.amount;
          if (a > 0.002) tintChroma(out[0], out[1], out[2], i, params.blush.rgb, a, 0);
        }
      }
    }
  }

  for (let yy = 0; yy < h; yy++) {
    let o = ((roi.y + yy) * img.width + roi.x) * 3;
    for (let xx = 0, i = yy * w; xx < w; xx++, i++, o += 3) {
      img.data[o] = Math.round(clamp255(out[0][i]!));
      img.data[o + 1] = Math.round(clamp255(out[1][i]!));
      img.data[o + 2] = Math.round(clamp255(out[2][i]!));
    }
  }
  return { roi, skin };
}
