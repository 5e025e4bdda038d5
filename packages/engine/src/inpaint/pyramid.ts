/**
 * One level of the inpainting pyramid over the working window: the current RGB estimate (known pixels
 * are the photo, hole pixels the synthesis so far), the hole, where a source patch may sit, which patch
 * centres need a nearest neighbour, and the nearest-neighbour field itself. All typed arrays, indexed
 * by pixel (y · w + x); RGB interleaved.
 */
export interface Level {
  w: number;
  h: number;
  /** Patch radius (patch side 2r + 1). */
  r: number;
  img: Uint8Array;
  /**
   * What patch distances are computed on: `img` itself, or (where the level copies pixels) a lightly
   * blurred copy of it — see {@link refreshMatch}.
   */
  match: Uint8Array;
  /** Per-pixel RGB sums of `match` over the patch around it (for bias compensation). */
  sums: Int32Array;
  /** Weight of the patches' mean-colour difference in the distance: 1 = plain SSD, < 1 compensates. */
  meanWeight: number;
  /** Colour shift applied to each hole pixel's copied source at the last copy vote (RGB). */
  bias: Int16Array;
  /** 1 = unknown (to synthesise). */
  hole: Uint8Array;
  /** The hole's bounding box [x0, y0, x1, y1) (end exclusive). */
  box: Int32Array;
  /** Set once `match`/`sums` have been computed over the whole level. */
  ready: boolean;
  /** 1 = a patch centred here lies inside the window and holds no hole pixel (a legal source). */
  valid: Uint8Array;
  /** Pixel indices of the legal sources, for uniform random picks. */
  validList: Int32Array;
  /** Patch centres whose patch touches the hole (ascending pixel index: scanline order). */
  targets: Int32Array;
  /** Source centre per target pixel (−1 elsewhere). */
  nnf: Int32Array;
  /** Patch distance of each target to its source (RGB, 8-bit units², penalties included). */
  dist: Float64Array;
}

/** Box-sum of `m` over the (2r+1)² square around each pixel, clipped at the borders (separable). */
function squareCount(m: Uint8Array, w: number, h: number, r: number): Int32Array {
  const tmp = new Int32Array(w * h), out = new Int32Array(w * h);
  for (let y = 0; y < h; y++) {
    const row = y * w;
    let acc = 0;
    for (let x = 0; x <= Math.min(r, w - 1); x++) acc += m[row + x]!;
    for (let x = 0; x < w; x++) {
      tmp[row + x] = acc;
      if (x + r + 1 < w) acc += m[row + x + r + 1]!;
      if (x - r >= 0) acc -= m[row + x - r]!;
    }
  }
  for (let x = 0; x < w; x++) {
    let acc = 0;
    for (let y = 0; y <= Math.min(r, h - 1); y++) acc += tmp[y * w + x]!;
    for (let y = 0; y < h; y++) {
      out[y * w + x] = acc;
      if (y + r + 1 < h) acc += tmp[(y + r + 1) * w + x]!;
      if (y - r >= 0) acc -= tmp[(y - r) * w + x]!;
    }
  }
  return out;
}

/** Builds a level from an image and its hole: legal sources, targets and an empty NNF. */
export function makeLevel(img: Uint8Array, hole: Uint8Array, w: number, h: number, r: number): Level {
  const near = squareCount(hole, w, h, r);
  const valid = new Uint8Array(w * h);
  let nValid = 0, nTargets = 0;
  for (let y = r; y < h - r; y++) {
    for (let x = r; x < w - r; x++) {
      const i = y * w + x;
      if (near[i] === 0) { valid[i] = 1; nValid++; } else nTargets++;
    }
  }
  const validList = new Int32Array(nValid), targets = new Int32Array(nTargets);
  let a = 0, b = 0;
  for (let y = r; y < h - r; y++) {
    for (let x = r; x < w - r; x++) {
      const i = y * w + x;
      if (valid[i] === 1) validList[a++] = i; else targets[b++] = i;
    }
  }
  const nnf = new Int32Array(w * h).fill(-1);
  const box = Int32Array.of(w, h, 0, 0);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (!hole[y * w + x]) continue;
      if (x < box[0]!) box[0] = x;
      if (y < box[1]!) box[1] = y;
      if (x + 1 > box[2]!) box[2] = x + 1;
      if (y + 1 > box[3]!) box[3] = y + 1;
    }
  }
  return { w, h, r, img, match: img, sums: new Int32Array(0), meanWeight: 1, bias: new Int16Array(w * h * 3), hole, box, ready: false, valid, validList, targets, nnf, dist: new Float64Array(w * h) };
}

/**
 * Halves an image and its hole (ceil sizes). A coarse pixel is a hole when any of its (up to 4) children
 * is, so coarse known pixels average known fine pixels only (Wexler et al. 2007 pyramid).
 */
export function downsample(img: Uint8Array, hole: Uint8Array, w: number, h: number): { img: Uint8Array; hole: Uint8Array; w: number; h: number } {
  const cw = (w + 1) >> 1, ch = (h + 1) >> 1;
  const cimg = new Uint8Array(cw * ch * 3), chole = new Uint8Array(cw * ch);
  for (let y = 0; y < ch; y++) {
    const y0 = 2 * y, y1 = Math.min(h - 1, y0 + 1);
    for (let x = 0; x < cw; x++) {
      const x0 = 2 * x, x1 = Math.min(w - 1, x0 + 1);
      const a = y0 * w + x0, b = y0 * w + x1, c = y1 * w + x0, d = y1 * w + x1;
      const o = y * cw + x;
      if (hole[a] || hole[b] || hole[c] || hole[d]) { chole[o] = 1; continue; }
      for (let k = 0; k < 3; k++) cimg[o * 3 + k] = (img[a * 3 + k]! + img[b * 3 + k]! + img[c * 3 + k]! + img[d * 3 + k]! + 2) >> 2;
    }
  }
  return { img: cimg, hole: chole, w: cw, h: ch };
}

/**
 * Smooth first guess for the coarsest hole ("onion peel"): layer by layer from the edge inwards, each
 * hole pixel takes the mean of its already known 8-neighbours.
 */
export function onionFill(img: Uint8Array, hole: Uint8Array, w: number, h: number): void {
  const known = new Uint8Array(w * h);
  let left = 0;
  for (let i = 0; i < known.length; i++) { known[i] = hole[i] ? 0 : 1; if (hole[i]) left++; }
  const layer: number[] = [];
  while (left > 0) {
    layer.length = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        if (known[i]) continue;
        let n = 0, s0 = 0, s1 = 0, s2 = 0;
        for (let dy = -1; dy <= 1; dy++) {
          const yy = y + dy;
          if (yy < 0 || yy >= h) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            if (xx < 0 || xx >= w || (dx === 0 && dy === 0)) continue;
            const j = yy * w + xx;
            if (known[j] !== 1) continue;
            n++; s0 += img[j * 3]!; s1 += img[j * 3 + 1]!; s2 += img[j * 3 + 2]!;
          }
        }
        if (n === 0) continue;
        img[i * 3] = Math.round(s0 / n); img[i * 3 + 1] = Math.round(s1 / n); img[i * 3 + 2] = Math.round(s2 / n);
        layer.push(i);
      }
    }
    if (layer.length === 0) break; // a hole pixel with no known pixel anywhere: cannot happen with a margin
    for (const i of layer) known[i] = 1; // known from the next layer on, not within this one
    left -= layer.length;
  }
}

/**
 * Sets `lv.match` to `lv.img` blurred by a 5-tap binomial kernel (σ ≈ 1 px), or to `img` itself, and
 * updates the patch sums. SSD between two patches of independent skin texture is about twice the
 * texture's variance, between textured and flat only once, so matching on sharp pixels steadily prefers
 * flat sources and the fill loses its pores (the known bias of patch-SSD synthesis). Matching on the
 * blurred image compares shape and colour, while the copy still takes the sharp pixels.
 * The first call covers the level; later calls only the hole's bounding box grown by what the blur and
 * the patch sums reach (known pixels never change).
 */
export function refreshMatch(lv: Level, blur: boolean): void {
  const { w, h, r, img } = lv;
  const first = !lv.ready;
  const x0 = first ? 0 : Math.max(0, lv.box[0]! - 2), y0 = first ? 0 : Math.max(0, lv.box[1]! - 2);
  const x1 = first ? w : Math.min(w, lv.box[2]! + 2), y1 = first ? h : Math.min(h, lv.box[3]! + 2);
  if (!blur) lv.match = img;
  else {
    if (lv.match === img) lv.match = new Uint8Array(img.length);
    blurRect(img, lv.match, w, h, x0, y0, x1, y1);
  }
  if (lv.meanWeight < 1) {
    if (lv.sums.length !== w * h * 3) lv.sums = new Int32Array(w * h * 3);
    sumsRect(lv.match, lv.sums, w, h, r, Math.max(r, x0 - r), Math.max(r, y0 - r), Math.min(w - r, x1 + r), Math.min(h - r, y1 + r));
  }
  lv.ready = true;
}

/** Binomial [1 4 6 4 1]² blur of `src` into `dst` for output pixels in [x0, x1) × [y0, y1), edges clamped. */
function blurRect(src: Uint8Array, dst: Uint8Array, w: number, h: number, x0: number, y0: number, x1: number, y1: number): void {
  const rw = x1 - x0, ry0 = Math.max(0, y0 - 2), ry1 = Math.min(h, y1 + 2);
  const tmp = new Uint16Array((ry1 - ry0) * rw * 3);
  for (let y = ry0; y < ry1; y++) {
    const row = y * w, trow = (y - ry0) * rw;
    for (let x = x0; x < x1; x++) {
      const a = row + (x < 2 ? 0 : x - 2), b = row + (x < 1 ? 0 : x - 1), c = row + x;
      const d = row + (x + 1 >= w ? w - 1 : x + 1), e = row + (x + 2 >= w ? w - 1 : x + 2);
      const o = (trow + x - x0) * 3;
      for (let k = 0; k < 3; k++) {
        tmp[o + k] = src[a * 3 + k]! + 4 * src[b * 3 + k]! + 6 * src[c * 3 + k]! + 4 * src[d * 3 + k]! + src[e * 3 + k]!;
      }
    }
  }
  const clampRow = (y: number): number => ((y < 0 ? 0 : y >= h ? h - 1 : y) - ry0) * rw;
  for (let y = y0; y < y1; y++) {
    const ra = clampRow(y - 2), rb = clampRow(y - 1), rc = clampRow(y), rd = clampRow(y + 1), re = clampRow(y + 2);
    for (let x = x0; x < x1; x++) {
      const xo = x - x0, o = (y * w + x) * 3;
      for (let k = 0; k < 3; k++) {
        const v = tmp[(ra + xo) * 3 + k]! + 4 * tmp[(rb + xo) * 3 + k]! + 6 * tmp[(rc + xo) * 3 + k]! + 4 * tmp[(rd + xo) * 3 + k]! + tmp[(re + xo) * 3 + k]!;
        dst[o + k] = (v + 128) >> 8;
      }
    }
  }
}

/** Patch (2r+1)² RGB sums of `src` for centres in [x0, x1) × [y0, y1) (all at least r from the edges). */
function sumsRect(src: Uint8Array, out: Int32Array, w: number, h: number, r: number, x0: number, y0: number, x1: number, y1: number): void {
  if (x1 <= x0 || y1 <= y0) return;
  const rw = x1 - x0, ry0 = y0 - r, ry1 = y1 + r;
  const tmp = new Int32Array((ry1 - ry0) * rw * 3);
  for (let y = ry0; y < ry1; y++) {
    const row = y * w, trow = (y - ry0) * rw;
    for (let k = 0; k < 3; k++) {
      let acc = 0;
      for (let x = x0 - r; x <= x0 + r; x++) acc += src[(row + x) * 3 + k]!;
      for (let x = x0; x < x1; x++) {
        tmp[(trow + x - x0) * 3 + k] = acc;
        if (x + 1 < x1) acc += src[(row + x + r + 1) * 3 + k]! - src[(row + x - r) * 3 + k]!;
      }
    }
  }
  for (let xo = 0; xo < rw; xo++) {
    for (let k = 0; k < 3; k++) {
      let acc = 0;
      for (let y = 0; y <= 2 * r; y++) acc += tmp[(y * rw + xo) * 3 + k]!;
      for (let y = y0; y < y1; y++) {
        out[(y * w + x0 + xo) * 3 + k] = acc;
        const ty = y - y0; // tmp row 0 is image row y0 − r
        if (y + 1 < y1) acc += tmp[((ty + 2 * r + 1) * rw + xo) * 3 + k]! - tmp[(ty * rw + xo) * 3 + k]!;
      }
    }
  }
  void h;
}

/** Fills a level's hole with its coarser level's estimate (nearest parent), before its first vote. */
export function upsampleHole(coarse: Level, fine: Level): void {
  const { w, h, hole, img } = fine;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!hole[i]) continue;
      const p = (Math.min(coarse.h - 1, y >> 1) * coarse.w + Math.min(coarse.w - 1, x >> 1)) * 3;
      img[i * 3] = coarse.img[p]!; img[i * 3 + 1] = coarse.img[p + 1]!; img[i * 3 + 2] = coarse.img[p + 2]!;
    }
  }
}
