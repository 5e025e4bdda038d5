import type { Level } from './pyramid';
import type { Rng } from './rng';

/**
 * PatchMatch (Barnes, Shechtman, Finkelstein, Goldman 2009, "PatchMatch: a randomized correspondence
 * algorithm for structural image editing") on one pyramid level: a nearest-neighbour field from every
 * target patch (touching the hole) to a legal source patch (all known pixels), improved by propagation
 * from scanline neighbours and by random search at exponentially shrinking radii. Integer SSD over RGB
 * with early termination; no allocation per pixel.
 *
 * Bias compensation (the "gain and bias" of Darabi et al. 2012, "Image melding", bias only): on levels
 * with `meanWeight` < 1 the difference of the two patches' mean colours counts only that much, and votes
 * shift each source by it, so a source is picked for its texture and shape and pasted at the colour
 * the target already has. Colour then comes from the coarse levels (where the hole is small and its
 * colours follow the border) instead of drifting with whatever sources the fine levels pick.
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

/**
 * Patch distance on `lv.match`: SSD, minus (1 − meanWeight) of the part explained by the mean-colour
 * difference (n·|Δμ|² per channel) when the level compensates bias. Stops early past `limit`.
 */
function distance(lv: Level, t: number, s: number, limit: number): number {
  if (lv.meanWeight >= 1) return patchSsd(lv.match, lv.w, lv.r, t, s, limit);
  const sums = lv.sums, n = (2 * lv.r + 1) * (2 * lv.r + 1);
  const d0 = sums[t * 3]! - sums[s * 3]!, d1 = sums[t * 3 + 1]! - sums[s * 3 + 1]!, d2 = sums[t * 3 + 2]! - sums[s * 3 + 2]!;
  const corr = ((1 - lv.meanWeight) * (d0 * d0 + d1 * d1 + d2 * d2)) / n;
  return patchSsd(lv.match, lv.w, lv.r, t, s, limit + corr) - corr;
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

/**
 * Recomputes every target's distance (the image changed since the field was found). With `coherence`
 * > 0, a target whose source continues no neighbour's source is charged that fraction of the mean
 * distance extra; returns that penalty (0 without coherence) for the sweeps to use.
 */
export function refreshDistances(lv: Level, coherence = 0): number {
  const { w, targets, nnf, dist } = lv;
  let sum = 0;
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    const d = distance(lv, t, nnf[t]!, Infinity);
    dist[t] = d;
    sum += d;
  }
  if (coherence <= 0 || targets.length === 0) return 0;
  const penalty = Math.round((coherence * sum) / targets.length);
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    if (!coherent(nnf, w, t, nnf[t]!)) dist[t] = dist[t]! + penalty;
  }
  return penalty;
}

/**
 * One PatchMatch sweep: scanline order when `forward`, reverse otherwise. Each target tries its
 * neighbours' sources shifted by one pixel (propagation), then random sources around its best within a
 * radius that starts at the window size and halves down to 1 (random search). With `penalty` > 0 a
 * random candidate that continues no neighbour's source costs that much more (coherence).
 */
export function patchMatchSweep(lv: Level, rng: Rng, forward: boolean, penalty = 0): void {
  const { w, h, r, targets, valid, nnf, dist } = lv;
  const n = targets.length, step = forward ? 1 : -1, dn = forward ? -1 : 1;
  const maxRadius = Math.max(w, h);
  for (let k = forward ? 0 : n - 1; k >= 0 && k < n; k += step) {
    const t = targets[k]!;
    const tx = t % w;
    let best = nnf[t]!, bd = dist[t]!;
    // propagation from the left/right and upper/lower neighbour (coherent by construction)
    if (tx + dn >= 0 && tx + dn < w) {
      const q = nnf[t + dn]!;
      if (q >= 0) {
        const c = q - dn, cx = c % w;
        if (cx >= r && cx < w - r && valid[c] && c !== best) {
          const d = distance(lv, t, c, bd);
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
          const d = distance(lv, t, c, bd);
          if (d < bd) { bd = d; best = c; }
        }
      }
    }
    // random search around the current best
    const bx = best % w, by = (best - bx) / w;
    for (let rad = maxRadius; rad >= 1; rad >>= 1) {
      let sx = bx + rng.int(2 * rad + 1) - rad, sy = by + rng.int(2 * rad + 1) - rad;
      sx = sx < r ? r : sx >= w - r ? w - r - 1 : sx;
      sy = sy < r ? r : sy >= h - r ? h - r - 1 : sy;
      const c = sy * w + sx;
      if (c === best || !valid[c]) continue;
      const pen = penalty > 0 && !coherent(nnf, w, t, c) ? penalty : 0;
      if (pen >= bd) continue;
      const d = distance(lv, t, c, bd - pen) + pen;
      if (d < bd) { bd = d; best = c; }
    }
    nnf[t] = best; dist[t] = bd;
  }
}

/**
 * Voting (Wexler, Shechtman, Irani 2007, "Space-time completion of video"): each hole pixel becomes the
 * mean of the pixels that the sources of all target patches covering it put there (each source shifted
 * by its bias on compensating levels). `acc` (w·h·3) and `cnt` (w·h) are scratch.
 * With `copy` each hole pixel instead takes the centre pixel of its own patch's source (no averaging),
 * which keeps texture where the field is incoherent; seams are left to the gradient-domain step. The
 * bias used for each hole pixel is kept in `lv.bias` for that step.
 */
export function vote(lv: Level, acc: Int32Array, cnt: Int32Array, copy = false): void {
  const { img, w, r, targets, nnf, hole, sums, bias } = lv;
  const side3 = (2 * r + 1) * 3, side = 2 * r + 1, stride = w * 3, n = side * side;
  const compensate = lv.meanWeight < 1;
  if (copy) {
    for (let k = 0; k < targets.length; k++) {
      const p = targets[k]!;
      if (!hole[p]) continue;
      const s = nnf[p]!;
      for (let c = 0; c < 3; c++) {
        const b = compensate ? Math.round((sums[p * 3 + c]! - sums[s * 3 + c]!) / n) : 0;
        const v = img[s * 3 + c]! + b;
        // written to a scratch first: later targets' biases must see this iteration's estimate
        acc[p * 3 + c] = v < 0 ? 0 : v > 255 ? 255 : v;
        bias[p * 3 + c] = b;
      }
    }
    for (let k = 0; k < targets.length; k++) {
      const p = targets[k]!;
      if (!hole[p]) continue;
      img[p * 3] = acc[p * 3]!; img[p * 3 + 1] = acc[p * 3 + 1]!; img[p * 3 + 2] = acc[p * 3 + 2]!;
    }
    return;
  }
  acc.fill(0); cnt.fill(0);
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    const s = nnf[t]!;
    const b0 = compensate ? Math.round((sums[t * 3]! - sums[s * 3]!) / n) : 0;
    const b1 = compensate ? Math.round((sums[t * 3 + 1]! - sums[s * 3 + 1]!) / n) : 0;
    const b2 = compensate ? Math.round((sums[t * 3 + 2]! - sums[s * 3 + 2]!) / n) : 0;
    let ti = (t - r * w - r) * 3, si = (s - r * w - r) * 3, ci = t - r * w - r;
    for (let dy = 0; dy < side; dy++) {
      for (let q = 0; q < side3; q += 3) {
        acc[ti + q]! += img[si + q]! + b0;
        acc[ti + q + 1]! += img[si + q + 1]! + b1;
        acc[ti + q + 2]! += img[si + q + 2]! + b2;
      }
      for (let q = 0; q < side; q++) cnt[ci + q]!++;
      ti += stride; si += stride; ci += w;
    }
  }
  for (let i = 0; i < cnt.length; i++) {
    const c = cnt[i]!;
    if (c === 0 || !hole[i]) continue;
    for (let k = 0; k < 3; k++) {
      const v = Math.round(acc[i * 3 + k]! / c);
      img[i * 3 + k] = v < 0 ? 0 : v > 255 ? 255 : v;
      bias[i * 3 + k] = 0;
    }
  }
}
