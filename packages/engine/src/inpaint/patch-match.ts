import type { Level } from './pyramid';
import type { Rng } from './rng';

/**
 * PatchMatch (Barnes, Shechtman, Finkelstein, Goldman 2009, "PatchMatch: a randomized correspondence
 * algorithm for structural image editing") on one pyramid level: a nearest-neighbour field from every
 * target patch (touching the hole) to a legal source patch (all known pixels), improved by propagation
 * from scanline neighbours and by random search at exponentially shrinking radii. Integer SSD over RGB
 * with early termination; no allocation per pixel.
 */

/** SSD between the patches centred at t and s (pixel indices), stopping once it reaches `limit`. */
export function patchSsd(img: Uint8Array, w: number, r: number, t: number, s: number, limit: number): number {
  const side3 = (2 * r + 1) * 3, stride = w * 3;
  let ti = (t - r * w - r) * 3, si = (s - r * w - r) * 3, sum = 0;
  for (let dy = -r; dy <= r; dy++) {
    for (let k = 0; k < side3; k++) {
      const d = img[ti + k]! - img[si + k]!;
      sum += d * d;
    }
    if (sum >= limit) return sum;
    ti += stride; si += stride;
  }
  return sum;
}

/** True when source `c` for target `t` continues a 4-neighbour's source (same offset: a coherent copy). */
function coherent(nnf: Int32Array, w: number, t: number, c: number): boolean {
  return nnf[t - 1] === c - 1 || nnf[t + 1] === c + 1 || nnf[t - w] === c - w || nnf[t + w] === c + w;
}

/** Every target gets a uniformly random legal source. */
export function randomNnf(lv: Level, rng: Rng): void {
  const { targets, validList, nnf } = lv;
  for (let k = 0; k < targets.length; k++) nnf[targets[k]!] = validList[rng.int(validList.length)]!;
}

/**
 * Seeds a level's field from the coarser one (coordinates doubled, sub-pixel parity kept), falling back to
 * the even-aligned position and then to a random legal source where the doubled one is not legal.
 */
export function upsampleNnf(coarse: Level, fine: Level, rng: Rng): void {
  const { w, h, r, targets, valid, validList, nnf } = fine;
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    const x = t % w, y = (t - x) / w;
    const cx = Math.min(coarse.w - 1, x >> 1), cy = Math.min(coarse.h - 1, y >> 1);
    const cs = coarse.nnf[cy * coarse.w + cx]!;
    let s = -1;
    if (cs >= 0) {
      const sx0 = (cs % coarse.w) * 2, sy0 = Math.floor(cs / coarse.w) * 2;
      const sx = sx0 + (x & 1), sy = sy0 + (y & 1);
      if (sx >= r && sx < w - r && sy >= r && sy < h - r && valid[sy * w + sx]) s = sy * w + sx;
      else if (sx0 >= r && sx0 < w - r && sy0 >= r && sy0 < h - r && valid[sy0 * w + sx0]) s = sy0 * w + sx0;
    }
    nnf[t] = s >= 0 ? s : validList[rng.int(validList.length)]!;
  }
}

/** Recomputes every target's distance (the image changed since the field was found). */
export function refreshDistances(lv: Level, penalty = 0): void {
  const { img, w, r, targets, nnf, dist } = lv;
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    const s = nnf[t]!;
    dist[t] = patchSsd(img, w, r, t, s, 0x7fffffff) + (penalty > 0 && !coherent(nnf, w, t, s) ? penalty : 0);
  }
}

/** Mean patch distance of the current field (the scale for the coherence penalty). */
export function meanDistance(lv: Level): number {
  let s = 0;
  for (let k = 0; k < lv.targets.length; k++) s += lv.dist[lv.targets[k]!]!;
  return lv.targets.length > 0 ? s / lv.targets.length : 0;
}

/**
 * One PatchMatch sweep: scanline order when `forward`, reverse otherwise. Each target tries its
 * neighbours' sources shifted by one pixel (propagation), then random sources around its best within a
 * radius that starts at the window size and halves down to 1 (random search).
 */
export function patchMatchSweep(lv: Level, rng: Rng, forward: boolean, penalty = 0, maxRadiusCap = Infinity): void {
  const { img, w, h, r, targets, valid, nnf, dist } = lv;
  const n = targets.length, step = forward ? 1 : -1, dn = forward ? -1 : 1;
  const maxRadius = Math.min(maxRadiusCap, Math.max(w, h));
  for (let k = forward ? 0 : n - 1; k >= 0 && k < n; k += step) {
    const t = targets[k]!;
    const tx = t % w;
    let best = nnf[t]!, bd = dist[t]!;
    // propagation from the left/right and upper/lower neighbour
    if (tx + dn >= 0 && tx + dn < w) {
      const q = nnf[t + dn]!;
      if (q >= 0) {
        const c = q - dn, cx = c % w;
        if (cx >= r && cx < w - r && valid[c] && c !== best) {
          const d = patchSsd(img, w, r, t, c, bd);
          if (d < bd) { bd = d; best = c; }
        }
      }
    }
    const tv = t + dn * w;
    if (tv >= 0 && tv < w * h) {
      const q = nnf[tv]!;
      if (q >= 0) {
        const c = q - dn * w;
        if (c >= 0 && c < w * h && valid[c] && c !== best) {
          const d = patchSsd(img, w, r, t, c, bd);
          if (d < bd) { bd = d; best = c; }
        }
      }
    }
    // random search around the current best
    const bx = best % w, by = (best - bx) / w;
    for (let rad = maxRadius; rad >= 1; rad >>= 1) {
      if (penalty > 0 && bd <= penalty) break;
      let sx = bx + rng.int(2 * rad + 1) - rad, sy = by + rng.int(2 * rad + 1) - rad;
      sx = sx < r ? r : sx >= w - r ? w - r - 1 : sx;
      sy = sy < r ? r : sy >= h - r ? h - r - 1 : sy;
      const c = sy * w + sx;
      if (c === best || !valid[c]) continue;
      const pen = penalty > 0 && !coherent(nnf, w, t, c) ? penalty : 0;
      if (pen >= bd) continue;
      const d = patchSsd(img, w, r, t, c, bd - pen) + pen;
      if (d < bd) { bd = d; best = c; }
    }
    nnf[t] = best; dist[t] = bd;
  }
}

/**
 * Voting (Wexler, Shechtman, Irani 2007, "Space-time completion of video"): each hole pixel becomes the
 * mean of the pixels that the sources of all target patches covering it put there. With a coherent
 * field the votes agree and texture is copied unblurred. `acc` (w·h·3) and `cnt` (w·h) are scratch.
 * With `copy` each hole pixel instead takes the centre pixel of its own patch's source (no averaging),
 * which keeps texture where the field is incoherent; seams are left to the gradient-domain step.
 */
export function vote(lv: Level, acc: Int32Array, cnt: Int32Array, copy = false): void {
  const { img, w, r, targets, nnf, hole } = lv;
  acc.fill(0); cnt.fill(0);
  const side3 = (2 * r + 1) * 3, side = 2 * r + 1, stride = w * 3;
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    const s = nnf[t]!;
    let ti = (t - r * w - r) * 3, si = (s - r * w - r) * 3, ci = t - r * w - r;
    for (let dy = 0; dy < side; dy++) {
      for (let q = 0; q < side3; q++) acc[ti + q]! += img[si + q]!;
      for (let q = 0; q < side; q++) cnt[ci + q]!++;
      ti += stride; si += stride; ci += w;
    }
  }
  for (let i = 0; i < cnt.length; i++) {
    const c = cnt[i]!;
    if (c === 0) continue;
    if (!hole[i]) continue;
    if (copy && nnf[i]! >= 0) {
      const s = nnf[i]! * 3;
      img[i * 3] = img[s]!; img[i * 3 + 1] = img[s + 1]!; img[i * 3 + 2] = img[s + 2]!;
      continue;
    }
    const half = c >> 1;
    img[i * 3] = ((acc[i * 3]! + half) / c) | 0;
    img[i * 3 + 1] = ((acc[i * 3 + 1]! + half) / c) | 0;
    img[i * 3 + 2] = ((acc[i * 3 + 2]! + half) / c) | 0;
  }
}
