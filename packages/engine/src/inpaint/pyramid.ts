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
  /** 1 = unknown (to synthesise). */
  hole: Uint8Array;
  /** 1 = a patch centred here lies inside the window and holds no hole pixel (a legal source). */
  valid: Uint8Array;
  /** Pixel indices of the legal sources, for uniform random picks. */
  validList: Int32Array;
  /** Patch centres whose patch touches the hole (ascending pixel index: scanline order). */
  targets: Int32Array;
  /** Source centre per target pixel (−1 elsewhere). */
  nnf: Int32Array;
  /** Patch SSD of each target to its source (integer, RGB, 8-bit units²). */
  dist: Int32Array;
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
  return { w, h, r, img, hole, valid, validList, targets, nnf, dist: new Int32Array(w * h) };
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
