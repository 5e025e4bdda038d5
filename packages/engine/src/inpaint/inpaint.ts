import type { RgbImage } from '../io/image-io';
import { dilateDisc, maskBounds, type Rect } from './mask-input';
import { patchMatchSweep, randomNnf, refreshDistances, upsampleNnf, vote } from './patch-match';
import { poissonFill } from './poisson';
import { matchGrain } from './texture';
import { downsample, makeLevel, onionFill, refreshMatch, upsampleHole, type Level } from './pyramid';
import { createRng } from './rng';

/** Patch side 7 (radius 3), as in the PatchMatch paper's experiments. */
export const PATCH_RADIUS = 3;

/**
 * Knobs of the synthesis, in one place (chosen by looking at fills on the fixture portraits and timing
 * the 1500² bench; see the README):
 * - `coarseEm`/`coarseSweeps`: EM iterations and PatchMatch sweeps per iteration at the coarsest level,
 *   where the random field starts; `midEm`/`midSweeps` between; `nearEm`/`nearSweeps` at the level just
 *   below full size (a quarter of its pixels, so the most expensive mid level); `fineEm`/`fineSweeps`
 *   at full size, which starts from the upsampled field and needs little search.
 * - `copyLevels`: levels ≤ this rebuild the image by copying each pixel from its own patch's source
 *   (centre vote) instead of averaging all covering patches: averaging blurs skin texture away.
 * - `coherence`: at those levels a source that does not continue a neighbour's source costs this
 *   fraction of the mean patch distance extra, so copies come in larger coherent pieces.
 * - `blurMatch`: at those levels patches are compared on a lightly blurred image (see refreshMatch).
 * - `meanWeight`: below the coarsest level, the weight of the mean-colour difference in the patch
 *   distance; votes shift sources by it (bias compensation, see patch-match.ts).
 * - `marginFactor`/`minMargin`: the window is the grown mask's bounding box plus
 *   max(minMargin, marginFactor × its larger side) on each side.
 * - `poissonLowPass`: radius of the low-pass on the gradient-domain correction (0 = raw Poisson).
 */
export const INPAINT_TUNING = {
  coarseEm: 8, coarseSweeps: 4,
  midEm: 3, midSweeps: 2,
  nearEm: 2, nearSweeps: 1,
  fineEm: 2, fineSweeps: 1,
  copyLevels: 0,
  coherence: 1,
  blurMatch: true,
  meanWeight: 0.5,
  marginFactor: 1, minMargin: 32,
  poissonLowPass: 1,
} as const;

/**
 * How far the painted mask is grown before filling, in pixels: max(2, round(0.0015 · (w + h))), i.e.
 * 2 px at 1000, 5 px at 3000. A brush stroke rarely covers a blemish's soft edge; the grown mask does.
 * Pixels farther than this from every painted pixel are never changed.
 */
export function holeDilation(width: number, height: number): number {
  return Math.max(2, Math.round(0.0015 * (width + height)));
}

export interface InpaintOptions {
  /** Seeds the random field initialisation and search; same seed, same pixels. */
  seed: number;
  /** 0..1: 0 keeps the photo, 1 is the full fill (spec `easy_value`). */
  strength: number;
  signal?: AbortSignal;
  /** Stages 'inpaint' (0..1 over the pyramid) and 'blend'. */
  onProgress?: (stage: string, fraction: number) => void;
}

export interface InpaintStats {
  /** The working window in image pixels (hole bounding box + margin, clipped to the image). */
  window: Rect;
  /** Pixels filled (the grown mask). */
  holePixels: number;
  /** Pyramid levels used (1 = no coarser level). */
  levels: number;
  /** Gain the texture-matching step applied to the fill's high frequencies (1 = none). */
  grainGain: number;
  timingsMs: Record<string, number>;
}

/** Yields to the event loop (so an abort can land) and throws if the signal fired. */
export function checkpoint(signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    setImmediate(() => {
      if (!signal?.aborted) { resolve(); return; }
      const err = new Error('ABORTED: face edit was aborted', { cause: signal.reason });
      err.name = 'AbortError';
      reject(err);
    });
  });
}

/** Cuts the window out of the image: its pixels and the grown mask inside it. */
function extractWindow(img: RgbImage, grown: Uint8Array, win: Rect): { pix: Uint8Array; hole: Uint8Array; holePixels: number } {
  const w = win.x1 - win.x0, h = win.y1 - win.y0;
  const pix = new Uint8Array(w * h * 3), hole = new Uint8Array(w * h);
  let holePixels = 0;
  for (let y = 0; y < h; y++) {
    const src = (win.y0 + y) * img.width + win.x0;
    pix.set(img.data.subarray(src * 3, (src + w) * 3), y * w * 3);
    for (let x = 0; x < w; x++) if (grown[src + x]) { hole[y * w + x] = 1; holePixels++; }
  }
  return { pix, hole, holePixels };
}

/**
 * Pyramid over the window: halve while the hole is still more than 4 patches across, the level stays at
 * least 4 patches wide, and it keeps more legal sources than targets (else the coarse search has
 * nothing to choose from).
 */
function buildPyramid(pix: Uint8Array, hole: Uint8Array, w: number, h: number, extent: number): Level[] {
  const r = PATCH_RADIUS, side = 2 * r + 1;
  const levels: Level[] = [makeLevel(pix.slice(), hole, w, h, r)];
  if (levels[0]!.validList.length === 0) throw new Error('INVALID_MASK: the mask leaves no unmasked area to copy from');
  for (let ext = extent; ext > 4 * side; ext /= 2) {
    const f = levels[levels.length - 1]!;
    const d = downsample(f.img, f.hole, f.w, f.h);
    if (Math.min(d.w, d.h) < 4 * side) break;
    const c = makeLevel(d.img, d.hole, d.w, d.h, r);
    if (c.validList.length < Math.max(64, c.targets.length)) break;
    levels.push(c);
  }
  return levels;
}

/**
 * Fills the masked region of `img` by exemplar-based synthesis: a PatchMatch nearest-neighbour field
 * (Barnes et al. 2009) refined coarse-to-fine with Wexler et al. (2007) EM voting over a pyramid of the
 * working window only (grown mask's bounding box + a margin), so the cost follows the mask, not the
 * photo. Sources are patches made only of known pixels inside the window. The finest levels copy pixels
 * from coherent sources (no averaging: skin texture survives), then a gradient-domain solve
 * ({@link poissonFill}) evens out colour towards the border and between copied pieces, the fill's
 * texture amplitude is matched to the ring around it ({@link matchGrain}), and the result is blended
 * over the photo at `strength`.
 *
 * @param img 8-bit RGB, not modified; @param mask w·h, non-zero = repaint (grown by {@link holeDilation}).
 * @returns a new image equal to `img` bit for bit outside the grown mask, and stats.
 * @throws Error 'EMPTY_MASK: mask is empty' | 'INVALID_MASK: …' (nothing left to copy from) |
 *   'ABORTED: …' (name AbortError) when `signal` fires.
 */
export async function inpaintRgb(img: RgbImage, mask: Uint8Array, opts: InpaintOptions): Promise<{ image: RgbImage; stats: InpaintStats }> {
  const { width: W, height: H } = img;
  const T = INPAINT_TUNING;
  const progress = opts.onProgress ?? (() => undefined);
  const timings: Record<string, number> = {};
  let mark = performance.now();
  const lap = (stage: string): void => { const now = performance.now(); timings[stage] = Math.round(now - mark); mark = now; };

  if (mask.length !== W * H) throw new Error(`INVALID_MASK: mask has ${mask.length} pixels, image ${W * H}`);
  if (!maskBounds(mask, W, H)) throw new Error('EMPTY_MASK: mask is empty');
  const grown = dilateDisc(mask, W, H, holeDilation(W, H));
  const bb = maskBounds(grown, W, H)!;
  const extent = Math.max(bb.x1 - bb.x0, bb.y1 - bb.y0);
  const margin = Math.max(T.minMargin, Math.round(T.marginFactor * extent));
  const win: Rect = { x0: Math.max(0, bb.x0 - margin), y0: Math.max(0, bb.y0 - margin), x1: Math.min(W, bb.x1 + margin), y1: Math.min(H, bb.y1 + margin) };
  const w = win.x1 - win.x0, h = win.y1 - win.y0;
  const { pix, hole, holePixels } = extractWindow(img, grown, win);
  lap('window');
  const levels = buildPyramid(pix, hole, w, h, extent);
  const L = levels.length - 1;
  lap('pyramid');

  const rng = createRng(opts.seed);
  const coarsest = levels[L]!;
  onionFill(coarsest.img, coarsest.hole, coarsest.w, coarsest.h);
  randomNnf(coarsest, rng);
  let acc = new Int32Array(0), cnt = new Int32Array(0);
  const totalWork = levels.reduce((s, lv) => s + lv.targets.length, 0);
  let done = 0;
  progress('inpaint', 0);
  for (let l = L; l >= 0; l--) {
    const lv = levels[l]!;
    const tLevel = performance.now();
    const copy = l <= T.copyLevels && (l < L || L === 0);
    lv.meanWeight = l < L ? T.meanWeight : 1;
    if (acc.length !== lv.w * lv.h * 3) { acc = new Int32Array(lv.w * lv.h * 3); cnt = new Int32Array(lv.w * lv.h); }
    // a copying level only needs sources for hole pixels (the ring's targets feed averaging votes)
    if (copy && l < L) lv.targets = lv.targets.filter((t) => lv.hole[t] === 1);
    if (l < L) {
      const coarse = levels[l + 1]!;
      upsampleNnf(coarse, lv, rng);
      upsampleHole(coarse, lv);
      refreshMatch(lv, copy && T.blurMatch);
      vote(lv, acc, cnt, copy);
    }
    const near = l === 1 && L > 1;
    const em = l === L ? T.coarseEm : l === 0 ? T.fineEm : near ? T.nearEm : T.midEm;
    const sweeps = l === L ? T.coarseSweeps : l === 0 ? T.fineSweeps : near ? T.nearSweeps : T.midSweeps;
    for (let e = 0; e < em; e++) {
      refreshMatch(lv, copy && T.blurMatch);
      const penalty = refreshDistances(lv, copy ? T.coherence : 0);
      for (let s = 0; s < sweeps; s++) patchMatchSweep(lv, rng, (e * sweeps + s) % 2 === 0, penalty);
      vote(lv, acc, cnt, copy);
      progress('inpaint', (done + (lv.targets.length * (e + 1)) / em) / totalWork);
      await checkpoint(opts.signal);
    }
    done += lv.targets.length;
    timings[`level${l}`] = Math.round(performance.now() - tLevel);
  }
  lap('synthesis');

  progress('blend', 0);
  const lv0 = levels[0]!;
  const fill = poissonFill(lv0.img, hole, lv0.nnf, lv0.bias, w, h, T.poissonLowPass);
  lap('poisson');
  const grainGain = matchGrain(fill, pix, hole, holePixels, w, h);
  lap('grain');
  await checkpoint(opts.signal);

  // write back: only hole pixels change; strength blends the fill over the photo
  const out = new Uint8Array(img.data);
  const s = Math.min(1, Math.max(0, opts.strength));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      if (!hole[i]) continue;
      const o = ((win.y0 + y) * W + win.x0 + x) * 3;
      for (let k = 0; k < 3; k++) {
        const orig = pix[i * 3 + k]!;
        const v = Math.min(255, Math.max(0, fill[i * 3 + k]!));
        out[o + k] = Math.round(orig + s * (v - orig));
      }
    }
  }
  lap('composite');
  progress('blend', 1);
  return { image: { data: out, width: W, height: H }, stats: { window: win, holePixels, levels: L + 1, grainGain, timingsMs: timings } };
}
