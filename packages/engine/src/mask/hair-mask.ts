import type { DetectedFace } from '../face/face-analysis';
import type { Point } from '../face/face-regions';
import type { RgbImage } from '../io/image-io';
import { boxFilter, createPlane, dilate, fillPolygon, type Plane } from './mask-raster';

/** Which hair matte ran: the selfie person matte, or the colour heuristic (model missing/failed). */
export type HairMaskMethod = 'selfie' | 'heuristic';

/** Person-matte values at or below LO are background, at or above HI fully hair (soft ramp in between). */
const MATTE_LO = 0.3, MATTE_HI = 0.7;

/**
 * Hair mask at the image size (union over faces), 0..1 with hard 1 in the confident interior.
 * With a person `matte` (see person-matte.ts, same size as `img`): hair = person matte minus the face
 * polygons (face oval dilated by 2 % of the face width, eyes, brows), restricted to a window around and
 * above the face box. Skin-coloured person pixels (forehead above the mesh, ears, neck) are dropped when
 * hair and skin colours differ. Below the chin the hair is grown down from the chin line at the sides
 * through hair-coloured matte pixels only (so neck, shoulders and clothes are not taken).
 * Without a matte: the colour heuristic (hard 0/1).
 */
export function buildHairMask(img: RgbImage, faces: readonly DetectedFace[], matte?: Plane | null): Plane {
  const mask = createPlane(img.width, img.height);
  if (matte && (matte.width !== img.width || matte.height !== img.height)) throw new Error('buildHairMask: matte size differs from the image');
  for (const face of faces) {
    if (matte) addHairFromMatte(img, matte, face, mask);
    else addHair(img, face, mask);
  }
  return mask;
}

/**
 * The window searched for hair around one face (px, clamped to the image): 0.8 face widths left, 1.8
 * right of the box origin, `above` face heights above it and 2.2 below (long hair). Null when tiny.
 */
function headWindow(img: RgbImage, face: DetectedFace, above: number) {
  const { x, y, width: w, height: h } = face.box;
  const x0 = Math.max(0, Math.floor(x - 0.8 * w)), x1 = Math.min(img.width, Math.ceil(x + 1.8 * w));
  const y0 = Math.max(0, Math.floor(y - above * h)), y1 = Math.min(img.height, Math.ceil(y + 2.2 * h));
  const rw = x1 - x0, rh = y1 - y0;
  if (rw < 4 || rh < 4) return null;
  const off: Point = [x0, y0];
  return { x0, y0, x1, y1, rw, rh, off };
}

function addHairFromMatte(img: RgbImage, matte: Plane, face: DetectedFace, out: Plane): void {
  const win = headWindow(img, face, 1.0);
  if (!win) return;
  const { x0, y0, rw, rh, off } = win;
  const { x, y, width: w, height: h } = face.box;
  const oval = createPlane(rw, rh);
  fillPolygon(oval, face.regions.faceOval, 1, 'max', off);
  const cut = dilate(oval, 0.02 * w);
  const r = face.regions;
  for (const poly of [r.leftEye, r.rightEye, r.leftEyebrow, r.rightEyebrow]) fillPolygon(cut, poly, 1, 'max', off);

  const chinRow = Math.min(rh - 1, Math.max(0, Math.round(y + h - y0))), sideL = x + 0.1 * w - x0, sideR = x + 0.9 * w - x0;
  const ramp = (m: number): number => (m <= MATTE_LO ? 0 : m >= MATTE_HI ? 1 : (m - MATTE_LO) / (MATTE_HI - MATTE_LO));
  const mv = (i: number, j: number): number => matte.data[(y0 + j) * matte.width + x0 + i]!;

  // colours: facial skin from the oval; hair from the confident matte above the face top, leaving out
  // skin-coloured pixels there (forehead above the mesh's oval), so short hair is not averaged with skin
  const hairS: Array<[number, number, number]> = [], skinS: Array<[number, number, number]> = [];
  const step = Math.max(1, Math.floor(Math.sqrt((rw * rh) / 6000)));
  const faceTop = Math.round(y + 0.1 * h - y0);
  for (let j = 0; j < rh; j += step) for (let i = 0; i < rw; i += step) if (oval.data[j * rw + i]! > 0) skinS.push(px(img, x0 + i, y0 + j));
  const skin = skinS.length > 0 ? medianColour(skinS) : [0, 0, 0];
  for (let j = 0; j < faceTop; j += step) {
    for (let i = 0; i < rw; i += step) {
      if (cut.data[j * rw + i]! > 0 || mv(i, j) < 0.9) continue;
      const c = px(img, x0 + i, y0 + j);
      if (skinS.length === 0 || dist(c, skin) > 45) hairS.push(c);
    }
  }
  const haveHair = hairS.length >= 20 && skinS.length > 0;
  const hair = haveHair ? medianColour(hairS) : [0, 0, 0];
  const tol = haveHair ? Math.max(40, 2.5 * 1.48 * median(hairS.map((c) => dist(c, hair)))) : 0;
  // skin that the matte counts as person (forehead above the mesh's oval, ears, neck) is not hair, where
  // hair and skin colours differ clearly; decided on a smoothed map so hair highlights do not make holes
  const distinct = haveHair && dist(hair, skin) > 40;
  const d = img.data;
  // squared colour distance of image pixel (x0 + i, y0 + j) to a colour (hot loops: no allocation)
  const d2 = (i: number, j: number, c: readonly number[]): number => {
    const o = ((y0 + j) * img.width + x0 + i) * 3;
    const a = d[o]! - c[0]!, b = d[o + 1]! - c[1]!, e = d[o + 2]! - c[2]!;
    return a * a + b * b + e * e;
  };
  let skinLike: Float32Array | null = null;
  if (distinct) {
    const raw = new Float32Array(rw * rh);
    for (let j = 0; j < rh; j++) for (let i = 0; i < rw; i++) if (d2(i, j, skin) < 0.36 * d2(i, j, hair)) raw[j * rw + i] = 1;
    skinLike = boxFilter(raw, rw, rh, Math.max(1, 0.015 * w));
  }

  const val = new Float32Array(rw * rh);
  for (let j = 0; j <= chinRow; j++) {
    for (let i = 0; i < rw; i++) {
      const k = j * rw + i;
      if (cut.data[k]! > 0 || (skinLike && skinLike[k]! > 0.5)) continue;
      val[k] = ramp(mv(i, j));
    }
  }
  // below the chin hair, shoulders and clothes are all "person": grow the hair down from the chin line
  // only through hair-coloured matte pixels at the sides (4-connected), so a dark suit under short hair
  // stays out
  // long hair only: hair must fill part of the bands beside the lower face (short hair and ears do not)
  let side = 0, sideN = 0;
  for (let j = Math.round(y + 0.5 * h - y0); j < chinRow; j++) {
    for (let i = Math.max(0, Math.round(x - 0.4 * w - x0)); i < Math.min(rw, Math.round(x + 1.4 * w - x0)); i++) {
      if (i >= x - x0 && i < x + w - x0) continue;
      sideN++;
      if (val[j * rw + i]! >= 1) side++;
    }
  }
  if (haveHair && chinRow < rh - 1 && side > 0.15 * sideN) {
    const cand = (i: number, j: number): boolean => {
      if (i > sideL && i < sideR) return false;
      const k = j * rw + i;
      if (cut.data[k]! > 0 || ramp(mv(i, j)) <= 0 || (skinLike && skinLike[k]! > 0.5)) return false;
      const dh2 = d2(i, j, hair);
      return dh2 <= tol * tol && (!distinct || dh2 < 0.81 * d2(i, j, skin));
    };
    const seen = new Uint8Array(rw * rh);
    const stack: number[] = [];
    for (let i = 0; i < rw; i++) if (val[chinRow * rw + i]! >= 1 && cand(i, chinRow)) { seen[chinRow * rw + i] = 1; stack.push(chinRow * rw + i); }
    while (stack.length > 0) {
      const k = stack.pop()!;
      const i = k % rw, j = (k - i) / rw;
      const nb: Array<[number, number]> = [[i - 1, j], [i + 1, j], [i, j + 1], [i, j - 1]];
      for (const [ni, nj] of nb) {
        if (ni < 0 || ni >= rw || nj <= chinRow || nj >= rh) continue;
        const q = nj * rw + ni;
        if (seen[q] || !cand(ni, nj)) continue;
        seen[q] = 1;
        val[q] = ramp(mv(ni, nj));
        stack.push(q);
      }
    }
  }
  for (let j = 0; j < rh; j++) {
    const row = (y0 + j) * img.width + x0;
    for (let i = 0; i < rw; i++) {
      const v = val[j * rw + i]!;
      if (v > out.data[row + i]!) out.data[row + i] = v;
    }
  }
}

function px(img: RgbImage, x: number, y: number): [number, number, number] {
  const o = (Math.min(img.height - 1, Math.max(0, Math.round(y))) * img.width + Math.min(img.width - 1, Math.max(0, Math.round(x)))) * 3;
  return [img.data[o]!, img.data[o + 1]!, img.data[o + 2]!];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

function medianColour(samples: Array<[number, number, number]>): [number, number, number] {
  return [median(samples.map((s) => s[0])), median(samples.map((s) => s[1])), median(samples.map((s) => s[2]))];
}

const dist = (a: readonly number[], b: readonly number[]): number => Math.hypot(a[0]! - b[0]!, a[1]! - b[1]!, a[2]! - b[2]!);

/**
 * Heuristic hair matte — the fallback when the selfie model cannot load.
 *
 * Method: sample the hair colour just outside the top of the face oval, sample the background along
 * the border of a search window around the head, then flood-fill from the hair samples through pixels
 * that are near the hair colour and nearer to it than to the background, limited to a window around and
 * above the face box, minus the face oval. Small holes are closed with a majority filter.
 * Writes a hard 0/1 mask.
 */
function addHair(img: RgbImage, face: DetectedFace, out: Plane): void {
  // long hair falls well below the chin; flood-fill connectivity keeps the window's extra area honest
  const win = headWindow(img, face, 0.9);
  if (!win) return;
  const { x0, y0, x1, y1, rw, rh, off } = win;
  const { x, y, width: w, height: h } = face.box;
  const oval = createPlane(rw, rh);
  fillPolygon(oval, face.regions.faceOval, 1, 'max', off);

  // hair seeds: 8 % of the face height outward from the oval's top and upper sides
  const cx = x + w / 2, cy = y + h / 2;
  const seeds: Point[] = [];
  const hairSamples: Array<[number, number, number]> = [];
  for (const [px0, py0] of face.regions.faceOval) {
    if (py0 > cy + 0.05 * h) continue;
    const dx = px0 - cx, dy = py0 - cy, len = Math.hypot(dx, dy) || 1;
    const sx = px0 + (dx / len) * 0.08 * h, sy = py0 + (dy / len) * 0.08 * h;
    if (sx < x0 || sy < y0 || sx >= x1 || sy >= y1) continue;
    seeds.push([sx, sy]);
    for (let k = -1; k <= 1; k++) for (let j = -1; j <= 1; j++) hairSamples.push(px(img, sx + j, sy + k));
  }
  if (seeds.length === 0) return;
  const hair = medianColour(hairSamples);
  const mad = median(hairSamples.map((s) => dist(s, hair)));
  const tol = Math.max(36, 2.5 * 1.48 * mad);
  const bgSamples: Array<[number, number, number]> = [];
  for (let i = 0; i < rw; i += 2) bgSamples.push(px(img, x0 + i, y0));
  for (let j = 0; j < rh * 0.6; j += 2) { bgSamples.push(px(img, x0, y0 + j)); bgSamples.push(px(img, x1 - 1, y0 + j)); }
  const bg = medianColour(bgSamples);
  const bgDistinct = dist(hair, bg) > 20;
  // facial skin colour: neck and chest below long hair must not be taken for (red/blond) hair
  const skinSamples: Array<[number, number, number]> = [];
  const step = Math.max(1, Math.floor(Math.sqrt((rw * rh) / 4000)));
  for (let j = 0; j < rh; j += step) for (let i = 0; i < rw; i += step) if (oval.data[j * rw + i]! > 0) skinSamples.push(px(img, x0 + i, y0 + j));
  const skin = medianColour(skinSamples);
  const skinDistinct = skinSamples.length > 0 && dist(hair, skin) > 20;
  const chinRow = y + h - y0, sideL = x + 0.1 * w - x0, sideR = x + 0.9 * w - x0;

  const cand = new Uint8Array(rw * rh);
  for (let j = 0; j < rh; j++) {
    for (let i = 0; i < rw; i++) {
      const k = j * rw + i;
      if (oval.data[k]! > 0) continue;
      if (j > chinRow && i > sideL && i < sideR) continue; // below the chin only the sides can be hair
      const c = px(img, x0 + i, y0 + j);
      const dh = dist(c, hair);
      if (dh < tol && (!bgDistinct || dh < 0.9 * dist(c, bg)) && (!skinDistinct || dh < 0.9 * dist(c, skin))) cand[k] = 1;
    }
  }
  // flood fill from the seeds so only hair connected to the head is kept
  const seen = new Uint8Array(rw * rh);
  const stack: number[] = [];
  for (const [sx, sy] of seeds) {
    const k = Math.round(sy - y0) * rw + Math.round(sx - x0);
    if (cand[k] && !seen[k]) { seen[k] = 1; stack.push(k); }
  }
  while (stack.length > 0) {
    const k = stack.pop()!;
    const i = k % rw, j = (k - i) / rw;
    const nb = [i > 0 ? k - 1 : -1, i < rw - 1 ? k + 1 : -1, j > 0 ? k - rw : -1, j < rh - 1 ? k + rw : -1];
    for (const q of nb) if (q >= 0 && cand[q] && !seen[q]) { seen[q] = 1; stack.push(q); }
  }
  const f = new Float32Array(rw * rh);
  for (let k = 0; k < f.length; k++) f[k] = seen[k]!;
  const closed = boxFilter(f, rw, rh, Math.max(1, 0.012 * w));
  for (let j = 0; j < rh; j++) {
    for (let i = 0; i < rw; i++) {
      const k = j * rw + i;
      if ((closed[k]! > 0.45 || seen[k]) && oval.data[k]! === 0) out.data[(y0 + j) * out.width + x0 + i] = 1;
    }
  }
}
