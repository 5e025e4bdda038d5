import { readFile } from 'node:fs/promises';
import { resizeRgb, type RgbImage } from '../io/image-io';
import { upscaleEsrganSlim } from './esrgan-fallback';
import { locateModel, type SrModelId } from './model-registry';
import { convFlopsPerPixel } from './onnx-flops';
import { SR_TILE, upscaleOnnx, type SrRunOptions, type SrRunStats } from './onnx-upscaler';
import { defaultSrWorkers } from './sr-tile-pool';

export interface ResizeOutcome {
  image: RgbImage;
  /** Model that produced the pixels: an SrModelId, 'esrgan-slim' (fallback) or 'lanczos3' (no SR). */
  srModel: string;
  /** True when the requested ONNX model was absent and esrgan-slim ran instead. */
  fallback: boolean;
  /** The ONNX pass's work and time (absent for lanczos3 and the fallback), with the model's FLOP per input pixel. */
  stats?: SrRunStats & { flopPerPixel: number };
}

/** Output size for a scale factor: round(w·f) × round(h·f), at least 1 px (spec 001 §5 resize slider). */
export function outputSize(width: number, height: number, factor: number): { width: number; height: number } {
  return { width: Math.max(1, Math.round(width * factor)), height: Math.max(1, Math.round(height * factor)) };
}

/**
 * Brings the original to output size. f ≤ 1: lanczos3 only. f > 1: the ×4 ONNX model at FULL detail
 * (no input reduction since issue 12; decision 005 addendum) in tiles on worker threads; for f ≤ 2 the
 * workers reduce the ×4 output to ×2 by 2×2 means (`srOptions.reduce`, default 2), then lanczos3 takes it
 * to round(w·f) × round(h·f). Without the ONNX file: esrgan-slim ×2 on tfjs-wasm, then lanczos3.
 * Throws `INVALID_OPTIONS` for f outside (0, 2], `MODEL_CHECKSUM_MISMATCH` for a bad model file,
 * `SR_FAILED` when the model cannot run.
 */
export async function resizeToOutput(
  img: RgbImage,
  factor: number,
  model: SrModelId,
  modelsDir: string | undefined,
  onProgress?: (fraction: number) => void,
  srOptions: SrRunOptions = {},
): Promise<ResizeOutcome> {
  if (!(factor > 0 && factor <= 2)) throw new Error(`INVALID_OPTIONS: scaleFactor must be in (0, 2], got ${factor}`);
  const { width, height } = outputSize(img.width, img.height, factor);
  if (factor <= 1) return { image: await resizeRgb(img, width, height), srModel: 'lanczos3', fallback: false };
  const tick = (d: number, t: number): void => onProgress?.(d / t);
  const located = await locateModel(model, modelsDir);
  if (located) {
    const up = await upscaleOnnx(img, located.path, located.entry, tick, { reduce: 2, ...srOptions });
    const { stats, ...image } = up;
    return { image: await resizeRgb(image, width, height), srModel: model, fallback: false, stats: { ...stats, flopPerPixel: await modelFlopPerPixel(located.path) } };
  }
  const x2 = await upscaleEsrganSlim(img, 2, tick);
  return { image: await resizeRgb(x2, width, height), srModel: 'esrgan-slim', fallback: true };
}

const flops = new Map<string, Promise<number>>();

/** Convolution FLOP per input pixel of a model file (onnx-flops.ts), read once per file. */
export function modelFlopPerPixel(file: string): Promise<number> {
  let f = flops.get(file);
  if (!f) {
    f = readFile(file).then((b) => convFlopsPerPixel(b).flopPerPixel);
    flops.set(file, f);
  }
  return f;
}

/**
 * Readies super-resolution ahead of the first job (decision 019 "Open", done): starts every SR tile
 * worker and runs one full-size tile (SR_TILE² core, with its context) on each, so each worker's
 * onnxruntime session is built and its memory arena holds a full tile's buffers before a customer's job
 * (the first full-size job after start paid about 2.3 s more without it, decision 019). Costs one tile of
 * model time per worker (≈ 1–2 s on each core of the target machine). Never throws.
 * @param modelsDir where the ONNX models are (as for jobs)
 * @returns true when the ONNX model ran; false when it is absent (the esrgan-slim fallback needs no warm-up here) or failed
 */
export async function warmUpSuperResolution(modelsDir: string | undefined, model: SrModelId = 'lsdir-compact-c3', srOptions: SrRunOptions = {}): Promise<boolean> {
  try {
    const located = await locateModel(model, modelsDir);
    if (!located) return false;
    const workers = srOptions.workers ?? defaultSrWorkers();
    const tile = srOptions.tile ?? SR_TILE;
    // workers × 1 tiles of a full core each (planTiles splits W×H this way)
    const img: RgbImage = { data: new Uint8Array(tile * workers * tile * 3).fill(128), width: tile * workers, height: tile };
    await upscaleOnnx(img, located.path, located.entry, undefined, { reduce: 2, ...srOptions });
    await modelFlopPerPixel(located.path);
    return true;
  } catch {
    return false;
  }
}
