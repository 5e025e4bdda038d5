import type { DetectedFace } from '../face/face-analysis';
import { CHEEK_POINTS } from '../face/face-regions';
import type { RgbImage } from '../io/image-io';
import { boxFilter, createPlane, feather, fillPolygon, gaussianBlur, type Plane } from '../mask/mask-raster';
import { clamp255, labOf, luma, smoothstep, weightedQuantiles } from './pixel-math';
import type { RetouchParams } from './retouch-params';
import { buildSkinMask, faceRoi, type Roi } from './skin-mask';
import { cheekMask, textureGain } from './texture';

export { buildSkinMask, faceRoi, type Roi } from './skin-mask';

/** Sigma (px) of the fine-texture band a face keeps: 1.5 px, more on large faces (pores scale with the face). */
export function textureSigma(faceWidth: number): number {
  return Math.max(1.5, 0.005 * faceWidth);
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
 * Largest mean colour change (CIE76 ΔE*ab over the lip polygons, against the lips before the tint) any
 * lip tint may make. A fixed tint amount changed pale, rosy lips by ΔE 4.6–9.2 on the fixtures but dark,
 * low-chroma lips (both Obama photos: lips less red than the cheeks) by 12–15: a strong painted red on a
 * man's face. The tint's amount is lowered per face until the lips change by at most this much.
 */
export const LIP_TINT_MAX_DELTA_E = 8;

/**
 * Lip tint at up to `amount` (0..1) toward `rgb` on the pixels where `soft` (feathered lips, ROI size)
 * is > 0.01, keeping luminance (and darkening by 12 % × weight); the amount is reduced (bisection) so the
 * mean ΔE*ab over the hard lip polygons `hard` stays ≤ {@link LIP_TINT_MAX_DELTA_E}. Works in place on
 * the three planes of `out`; returns the amount used.
 */
function tintLips(out: [Float32Array, Float32Array, Float32Array], hard: Float32Array, soft: Float32Array, rgb: readonly number[], amount: number): number {
  const idx: number[] = [];
  for (let i = 0; i < soft.length; i++) if (soft[i]! > 0.01) idx.push(i);
  const before = new Float32Array(3 * idx.length);
  const labBefore: Array<[number, number, number] | null> = [];
  idx.forEach((i, k) => {
    before[3 * k] = out[0][i]!; before[3 * k + 1] = out[1][i]!; before[3 * k + 2] = out[2][i]!;
    labBefore.push(hard[i]! > 0 ? labOf(clamp255(out[0][i]!), clamp255(out[1][i]!), clamp255(out[2][i]!)) : null);
  });
  const apply = (a: number): number => {
    let s = 0, m = 0;
    idx.forEach((i, k) => {
      out[0][i] = before[3 * k]!; out[1][i] = before[3 * k + 1]!; out[2][i] = before[3 * k + 2]!;
      tintChroma(out[0], out[1], out[2], i, rgb, soft[i]! * a, 0.12);
      const l0 = labBefore[k];
      if (l0) {
        const l1 = labOf(clamp255(out[0][i]!), clamp255(out[1][i]!), clamp255(out[2][i]!));
        s += Math.hypot(l1[0] - l0[0], l1[1] - l0[1], l1[2] - l0[2]); m++;
      }
    });
    return m > 0 ? s / m : 0;
  };
  if (apply(amount) <= LIP_TINT_MAX_DELTA_E) return amount;
  let lo = 0, hi = amount;
  for (let it = 0; it < 10; it++) {
    const mid = (lo + hi) / 2;
    if (apply(mid) <= LIP_TINT_MAX_DELTA_E) lo = mid; else hi = mid;
  }
  apply(lo);
  return lo;
}

/**
 * Retouches one face in place on `img` (8-bit RGB at output size) and returns its skin mask (ROI coords).
 * Stages: guided-filter smoothing (mid scales), blemish replacement (local dark or red spots; freckle
 * fields — many spots together — are only lightened), tone evening (mid-scale colour toward the local skin
 * mean), the look of the parameter set (glow lift, matte shine cut), then the fine texture: the result's
 * own fine band (below {@link textureSigma}) is replaced by k × the original's, k solved so the cheeks
 * keep `params.textureKeep` of their fine-scale energy (texture.ts; issue 12, class 3). Lip tint and
 * blush follow. `matte` (image size, optional) keeps the skin mask on the person.
 */
export function retouchFace(img: RgbImage, face: DetectedFace, params: RetouchParams, matte?: Plane | null): { roi: Roi; skin: Plane } {
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
  let roiMatte: Plane | null = null;
  if (matte) {
    roiMatte = createPlane(w, h);
    for (let yy = 0; yy < h; yy++) roiMatte.data.set(matte.data.subarray((roi.y + yy) * img.width + roi.x, (roi.y + yy) * img.width + roi.x + w), yy * w);
  }
  const skin = buildSkinMask(face, roi, src, roiMatte);
  const M = skin.data;
  const fw = face.box.width;
  const Y = new Float32Array(n);
  for (let i = 0; i < n; i++) Y[i] = luma(src[0][i]!, src[1][i]!, src[2][i]!);

  // 1. edge-preserving base (He et al. guided filter), blended by `smoothing`
  const r = Math.max(2, params.smoothRadius * fw);
  const eps = params.smoothEdge * params.smoothEdge;
  const meanI = boxFilter(Y, w, h, r);
  const YY = new Float32Array(n);
  for (let i = 0; i < n; i++) YY[i] = Y[i]! * Y[i]!;
  const varI = boxFilter(YY, w, h, r);
  for (let i = 0; i < n; i++) varI[i] = Math.max(0, varI[i]! - meanI[i]! * meanI[i]!);
  const work = src.map((p) => {
    const q = guidedFilter(Y, meanI, varI, p, w, h, r, eps);
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = p[i]! + params.smoothing * (q[i]! - p[i]!);
    return out;
  }) as [Float32Array, Float32Array, Float32Array];

  // 2. blemishes: pixels clearly darker or redder than their neighbourhood. Where clear spots are dense
  // (a freckle field or textured skin, not a lone blemish) this holds back to 30 %, so freckles stay
  // visible; tone evening works above their scale and needs no such care.
  const blemishAlpha = new Float32Array(n);
  // how much of a spot's own fine texture goes back: none for a lone blemish (its edge would return),
  // all of it in a freckle field (freckle edges are texture)
  const spotTexture = new Float32Array(n).fill(1);
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
    // share of skin that is spot within ~0.06 face widths
    const spotArea = new Float32Array(n);
    // only clear spots count (8+ levels darker than around them, or clearly redder): ordinary skin
    // texture is half "darker than its mean" and must not pass for a freckle field
    for (let i = 0; i < n; i++) spotArea[i] = spot[i]! > 0.85 ? 1 : 0;
    const area = gaussianBlur(spotArea, w, h, 0.06 * fw), skinArea = gaussianBlur(M, w, h, 0.06 * fw);
    const density = new Float32Array(n);
    for (let i = 0; i < n; i++) density[i] = skinArea[i]! > 0.05 ? area[i]! / skinArea[i]! : 0;
    const wSpot = gaussianBlur(spot, w, h, rb * 0.4);
    for (let i = 0; i < n; i++) {
      const field = smoothstep(0.04, 0.14, density[i]!);
      blemishAlpha[i] = Math.min(1, wSpot[i]! * 1.6) * params.blemishStrength * (1 - 0.7 * field);
      spotTexture[i] = 1 - blemishAlpha[i]! * (1 - field);
    }
    const patch = work.map((p) => gaussianBlur(p, w, h, rb * 0.8));
    for (let c = 0; c < 3; c++) {
      const p = work[c]!, pt = patch[c]!;
      for (let i = 0; i < n; i++) {
        const a = blemishAlpha[i]!;
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

  // 5. fine texture (frequency separation): the result's own fine band out, k × the original's in, with
  // k solved on the cheeks so they keep `textureKeep` of their fine-scale energy (not where a blemish was
  // replaced: its texture would bring the blemish's edge back)
  const ts = textureSigma(fw);
  const lowW = work.map((p) => gaussianBlur(p, w, h, ts));
  const detail = src.map((p) => {
    const low = gaussianBlur(p, w, h, ts);
    const d = new Float32Array(n);
    for (let i = 0; i < n; i++) d[i] = spotTexture[i]! * (p[i]! - low[i]!);
    return d;
  });
  const lumaOfPlanes = (pl: Float32Array[]): Float32Array => {
    const y = new Float32Array(n);
    for (let i = 0; i < n; i++) y[i] = luma(pl[0]![i]!, pl[1]![i]!, pl[2]![i]!);
    return y;
  };
  // the output is src + M·(lowW + k·detail − src): solve k on exactly that, over the cheek discs
  const baseY = lumaOfPlanes(lowW), detailY = lumaOfPlanes(detail);
  for (let i = 0; i < n; i++) { baseY[i] = Y[i]! + M[i]! * (baseY[i]! - Y[i]!); detailY[i] = M[i]! * detailY[i]!; }
  const k = textureGain(baseY, detailY, Y, w, h, cheekMask(face, w, h, [roi.x, roi.y]), params.textureKeep, Math.sqrt(params.textureKeep));
  for (let c = 0; c < 3; c++) {
    const wk = work[c]!, lw = lowW[c]!, dt = detail[c]!;
    for (let i = 0; i < n; i++) if (M[i]! > 0) wk[i] = lw[i]! + k * dt[i]!;
  }

  // blend retouched skin into the original by the skin mask
  const out = src.map((p, c) => {
    const o = new Float32Array(n);
    const wk = work[c]!;
    for (let i = 0; i < n; i++) o[i] = p[i]! + M[i]! * (wk[i]! - p[i]!);
    return o;
  }) as [Float32Array, Float32Array, Float32Array];

  // 6. makeup: lip tint (lip polygons) and blush (Gaussian around cheek landmarks, within skin)
  if (params.lipTint.amount > 0) {
    const lips = createPlane(w, h);
    fillPolygon(lips, face.regions.upperLip, 1, 'max', [roi.x, roi.y]);
    fillPolygon(lips, face.regions.lowerLip, 1, 'max', [roi.x, roi.y]);
    const soft = feather(lips, Math.max(0.7, 0.004 * fw)).data;
    tintLips(out, lips.data, soft, params.lipTint.rgb, params.lipTint.amount);
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
