import type { RgbImage } from '../io/image-io';
import type { ManifestEntry } from './model-registry';
import { defaultSrWorkers, srTilePool } from './sr-tile-pool';

/**
 * Largest tile core (input px) and its context on each side. 16 px of context is what the model needs
 * (receptive field 18 px; 16 px of cropped context leave no visible seam, MODELS.md). 448 with the
 * onnxruntime memory arena on (decision 005, addendum of 2026-11-24): onnxruntime's first run of every
 * new tile shape was ~35 % slower with the arena off, and since every photo has its own size, nearly every
 * customer's job was such a first run; with the arena on there is no such penalty, and 448 (not 512)
 * keeps the arena's peak near the arena-off figure (SR peak RSS ≈ 790 MB against 700; 1.38 GB at 512).
 */
export const SR_TILE = 448;
export const SR_OVERLAP = 16;

/** How the tiled ONNX pass runs; every field has the measured default. */
export interface SrRunOptions {
  /** Largest tile core, input px (default {@link SR_TILE}). */
  tile?: number;
  /** Context each side, input px (default {@link SR_OVERLAP}). */
  overlap?: number;
  /** Tile workers (default one per core, at most 2). */
  workers?: number;
  /** onnxruntime intra-op threads per worker (default 1: parallelism comes from the workers). */
  threadsPerWorker?: number;
  /** 2: return ×scale/2 (2×2 means of the model's output, made in the workers); 1: the full ×scale. */
  reduce?: 1 | 2;
  /** onnxruntime's CPU memory arena in the workers (default on: without it each new tile shape's first run is ~35 % slower; see SR_TILE). */
  arena?: boolean;
}

/** Timing and work of one SR pass, for the bench's FLOP/s figures. */
export interface SrRunStats {
  tiles: number;
  /** Input pixels the model ran on, overlap included (× the model's FLOP per pixel = FLOP executed). */
  modelPixels: number;
  /** Wall time of the tiled pass, ms. */
  ms: number;
  /** Sum over tiles of the model's own run time, ms (both workers together). */
  modelMs: number;
  /** Process CPU time during the model runs and during whole tile tasks, ms — exact only with one worker. */
  modelCpuMs: number;
  taskCpuMs: number;
}

/** Tile cores covering W×H in about equal parts of at most `maxCore` px, their count a multiple of `workers` when that is cheap. */
export function planTiles(W: number, H: number, maxCore: number, workers: number): Array<{ x0: number; y0: number; x1: number; y1: number }> {
  let nx = Math.ceil(W / maxCore), ny = Math.ceil(H / maxCore);
  // an odd tile out leaves a core idle at the end; split one more way when tiles stay ≥ 64 px
  if (workers > 1 && (nx * ny) % workers !== 0 && W * H >= 2 * 64 * 64) {
    if (W / nx >= H / ny) nx++;
    else ny++;
  }
  const out: Array<{ x0: number; y0: number; x1: number; y1: number }> = [];
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) out.push({ x0: Math.round((i * W) / nx), y0: Math.round((j * H) / ny), x1: Math.round(((i + 1) * W) / nx), y1: Math.round(((j + 1) * H) / ny) });
  }
  return out;
}

/**
 * Runs a ×scale ONNX SR model over `img` in overlapping tiles spread over worker threads (each with its
 * own single-threaded onnxruntime session), context cropped away so no seams, outputs clamped to 0..1
 * before 8-bit (realesr-general-x4v3 overshoots on ~1.4 % of pixels, which shows as speckles). Returns
 * the ×scale image (×scale/2 with `reduce: 2`) and the pass's statistics.
 * @throws Error `SR_FAILED: …` when the model cannot run.
 */
export async function upscaleOnnx(img: RgbImage, file: string, entry: ManifestEntry, onTile?: (done: number, total: number) => void, o: SrRunOptions = {}): Promise<RgbImage & { stats: SrRunStats }> {
  const workers = o.workers ?? defaultSrWorkers();
  const pool = srTilePool(workers);
  const overlap = o.overlap ?? SR_OVERLAP, reduce = o.reduce ?? 1;
  const s = entry.scale, f = s / reduce;
  const W = img.width, H = img.height, OW = W * f, OH = H * f;
  const out = new Uint8Array(OW * OH * 3);
  const cores = planTiles(W, H, o.tile ?? SR_TILE, workers);
  let done = 0, modelPixels = 0, modelMs = 0, modelCpuMs = 0, taskCpuMs = 0;
  const t0 = performance.now();
  await Promise.all(cores.map(async (c) => {
    const rx0 = Math.max(0, c.x0 - overlap), ry0 = Math.max(0, c.y0 - overlap);
    const rx1 = Math.min(W, c.x1 + overlap), ry1 = Math.min(H, c.y1 + overlap);
    const tw = rx1 - rx0, th = ry1 - ry0;
    const rgb = new Uint8Array(tw * th * 3);
    for (let y = 0; y < th; y++) rgb.set(img.data.subarray(((ry0 + y) * W + rx0) * 3, ((ry0 + y) * W + rx1) * 3), y * tw * 3);
    const r = await pool.run({
      file, threads: o.threadsPerWorker ?? 1, arena: o.arena ?? true, input: entry.input, output: entry.output, dtype: entry.dtype, scale: s, reduce, rgb, tw, th,
      core: { x0: c.x0 - rx0, y0: c.y0 - ry0, w: c.x1 - c.x0, h: c.y1 - c.y0 },
    });
    modelPixels += tw * th;
    modelMs += r.runMs;
    modelCpuMs += r.runCpuMs;
    taskCpuMs += r.allCpuMs;
    for (let y = 0; y < r.h; y++) out.set(r.rgb.subarray(y * r.w * 3, (y + 1) * r.w * 3), ((c.y0 * f + y) * OW + c.x0 * f) * 3);
    onTile?.(++done, cores.length);
  }));
  return { data: out, width: OW, height: OH, stats: { tiles: cores.length, modelPixels, ms: Math.round(performance.now() - t0), modelMs: Math.round(modelMs), modelCpuMs: Math.round(modelCpuMs), taskCpuMs: Math.round(taskCpuMs) } };
}
