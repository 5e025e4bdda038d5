import { dilateDisc } from './mask-input';

/**
 * Texture-level matching of the fill to its surroundings (the "match grain" step of retouching tools):
 * patch synthesis still leans towards flatter sources than the skin around the hole, so the fill's
 * high-pass (f − binomial-blurred f) is scaled by the ratio of the texture amplitude in a ring of known
 * pixels around the hole to the same measure inside the fill, clamped to [0.5, 1.8]. The amplitude is
 * the RMS of the luminance Laplacian with the top 5 % dropped, so an edge or a hair strand in the ring
 * does not count as texture.
 */
export const GRAIN_GAIN_RANGE = [0.5, 1.8] as const;

function blurPlane(src: Float32Array, w: number, h: number, ch: number): Float32Array {
  const tmp = new Float32Array(src.length), out = new Float32Array(src.length);
  const k0 = 1 / 16, k1 = 4 / 16, k2 = 6 / 16;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const a = y * w + (x < 2 ? 0 : x - 2), b = y * w + (x < 1 ? 0 : x - 1), c = y * w + x;
      const d = y * w + (x + 1 >= w ? w - 1 : x + 1), e = y * w + (x + 2 >= w ? w - 1 : x + 2);
      for (let k = 0; k < ch; k++) tmp[c * ch + k] = k0 * (src[a * ch + k]! + src[e * ch + k]!) + k1 * (src[b * ch + k]! + src[d * ch + k]!) + k2 * src[c * ch + k]!;
    }
  }
  for (let y = 0; y < h; y++) {
    const ra = (y < 2 ? 0 : y - 2) * w, rb = (y < 1 ? 0 : y - 1) * w, rc = y * w, rd = (y + 1 >= h ? h - 1 : y + 1) * w, re = (y + 2 >= h ? h - 1 : y + 2) * w;
    for (let x = 0; x < w; x++) {
      for (let k = 0; k < ch; k++) {
        out[(rc + x) * ch + k] = k0 * (tmp[(ra + x) * ch + k]! + tmp[(re + x) * ch + k]!) + k1 * (tmp[(rb + x) * ch + k]! + tmp[(rd + x) * ch + k]!) + k2 * tmp[(rc + x) * ch + k]!;
      }
    }
  }
  return out;
}

/** Trimmed RMS of the 4-neighbour Laplacian of `y` over `region` (interior pixels only). */
function laplacianScale(y: Float32Array, w: number, h: number, region: Uint8Array): number {
  let n = 0;
  for (let yy = 1; yy < h - 1; yy++) for (let x = 1; x < w - 1; x++) if (region[yy * w + x]) n++;
  if (n === 0) return 0;
  const v = new Float32Array(n);
  let k = 0;
  for (let yy = 1; yy < h - 1; yy++) {
    for (let x = 1; x < w - 1; x++) {
      const i = yy * w + x;
      if (region[i]) v[k++] = Math.abs(4 * y[i]! - y[i - 1]! - y[i + 1]! - y[i - w]! - y[i + w]!);
    }
  }
  v.sort();
  // RMS of the lower 95 %: the scale of the texture, without the few edges and strands in the region
  const m = Math.max(1, Math.floor(n * 0.95));
  let s = 0;
  for (let k = 0; k < m; k++) s += v[k]! * v[k]!;
  return Math.sqrt(s / m);
}

/**
 * Scales the fill's high frequencies towards the surroundings' (see {@link GRAIN_GAIN_RANGE}).
 * Works on the hole's bounding box grown by the ring, so its cost follows the hole.
 * @param fill W·H·3 floats, valid inside `hole` (modified there); @param photo W·H·3 window pixels.
 * @returns the gain applied (1 = unchanged).
 */
export function matchGrain(fill: Float32Array, photo: Uint8Array, hole: Uint8Array, holePixels: number, W: number, H: number): number {
  const rEq = Math.sqrt(holePixels / Math.PI);
  const ringWidth = Math.max(4, Math.min(24, Math.round(0.3 * rEq)));
  // work on the hole's bounding box grown by the ring (+ the blur's reach), not the whole window
  let bx0 = W, by0 = H, bx1 = 0, by1 = 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      if (!hole[y * W + x]) continue;
      if (x < bx0) bx0 = x;
      if (x >= bx1) bx1 = x + 1;
      if (y < by0) by0 = y;
      if (y >= by1) by1 = y + 1;
    }
  }
  if (bx1 <= bx0) return 1;
  const pad = ringWidth + 3;
  const ox = Math.max(0, bx0 - pad), oy = Math.max(0, by0 - pad), w = Math.min(W, bx1 + pad) - ox, h = Math.min(H, by1 + pad) - oy;
  const at = (i: number): number => (oy + Math.floor(i / w)) * W + ox + (i % w); // sub-window index → window index
  const sub = new Uint8Array(w * h);
  for (let i = 0; i < sub.length; i++) sub[i] = hole[at(i)]!;
  return grainOnBox(fill, photo, sub, w, h, ringWidth, at);
}

function grainOnBox(fill: Float32Array, photo: Uint8Array, hole: Uint8Array, w: number, h: number, ringWidth: number, at: (i: number) => number): number {
  const grown = dilateDisc(hole, w, h, ringWidth);
  const known = new Uint8Array(w * h);
  for (let i = 0; i < known.length; i++) known[i] = hole[i] ? 0 : 1;
  const nearKnown = dilateDisc(known, w, h, 2);
  const ring = new Uint8Array(w * h), inner = new Uint8Array(w * h);
  for (let i = 0; i < ring.length; i++) {
    ring[i] = grown[i] && !hole[i] ? 1 : 0;
    inner[i] = hole[i] && !nearKnown[i] ? 1 : 0;
  }
  // luminance of the photo around, of the fill inside (photo outside so the blur sees real neighbours)
  const yp = new Float32Array(w * h), yf = new Float32Array(w * h);
  for (let i = 0; i < yp.length; i++) {
    const j = at(i) * 3;
    yp[i] = 0.299 * photo[j]! + 0.587 * photo[j + 1]! + 0.114 * photo[j + 2]!;
    yf[i] = hole[i] ? 0.299 * fill[j]! + 0.587 * fill[j + 1]! + 0.114 * fill[j + 2]! : yp[i]!;
  }
  const around = laplacianScale(yp, w, h, ring);
  const inside = laplacianScale(yf, w, h, inner);
  const gain = Math.min(GRAIN_GAIN_RANGE[1], Math.max(GRAIN_GAIN_RANGE[0], inside > 0 ? around / inside : GRAIN_GAIN_RANGE[1]));
  if (Math.abs(gain - 1) < 0.05) return 1;
  const f3 = new Float32Array(w * h * 3);
  for (let i = 0; i < w * h; i++) {
    const j = at(i) * 3;
    for (let k = 0; k < 3; k++) f3[i * 3 + k] = hole[i] ? fill[j + k]! : photo[j + k]!;
  }
  const fb = blurPlane(f3, w, h, 3);
  for (let i = 0; i < w * h; i++) {
    if (!hole[i]) continue;
    const j = at(i) * 3;
    for (let k = 0; k < 3; k++) fill[j + k] = fill[j + k]! + (gain - 1) * (f3[i * 3 + k]! - fb[i * 3 + k]!);
  }
  return gain;
}
