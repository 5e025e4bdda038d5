import { resizeRgb, type RgbImage } from '../io/image-io';
import { upscaleEsrganSlim } from './esrgan-fallback';
import { locateModel, type SrModelId } from './model-registry';
import { upscaleOnnx } from './onnx-upscaler';

export interface ResizeOutcome {
  image: RgbImage;
  /** Model that produced the pixels: an SrModelId, 'esrgan-slim' (fallback) or 'lanczos3' (no SR). */
  srModel: string;
  /** True when the requested ONNX model was absent and esrgan-slim ran instead. */
  fallback: boolean;
}

/** Output size for a scale factor: round(w·f) × round(h·f), at least 1 px (spec 001 §5 resize slider). */
export function outputSize(width: number, height: number, factor: number): { width: number; height: number } {
  return { width: Math.max(1, Math.round(width * factor)), height: Math.max(1, Math.round(height * factor)) };
}

/**
 * Largest input (pixels) the ×4 model is run on. A larger photo is first reduced with lanczos3 — never
 * below factor/4, so the model still enlarges — because the model's cost grows with its input (about
 * 12 s per megapixel on 2 cores) while a photo that large already carries most of the detail the
 * output needs. 500k px keeps a 1024×1024 ×2 job under 8 s here; small photos, which need SR most, are
 * untouched. Callers override it through `EngineConfig.srMaxInputPixels` (the server's SR_MAX_INPUT_PIXELS).
 */
export const SR_MAX_INPUT_PIXELS = 500_000;

/** The scale (≤ 1) applied to the input before a ×4 model so it stays within the pixel budget. */
export function srInputScale(width: number, height: number, factor: number, maxPixels = SR_MAX_INPUT_PIXELS): number {
  const pixels = width * height;
  if (pixels <= maxPixels) return 1;
  return Math.min(1, Math.max(factor / 4, Math.sqrt(maxPixels / pixels)));
}

/**
 * Brings the original to output size. f ≤ 1: lanczos3 only. f > 1: ×4 ONNX SR (tiled; input first
 * reduced to the SR pixel budget, see SR_MAX_INPUT_PIXELS) then lanczos3 down to the target; without the ONNX file, esrgan-slim ×2 on tfjs-wasm (f ≤ 2) then lanczos3.
 * Throws `INVALID_OPTIONS` for f outside (0, 2], `MODEL_CHECKSUM_MISMATCH` for a bad model file.
 */
export async function resizeToOutput(
  img: RgbImage,
  factor: number,
  model: SrModelId,
  modelsDir: string | undefined,
  onProgress?: (fraction: number) => void,
  maxInputPixels: number = SR_MAX_INPUT_PIXELS,
): Promise<ResizeOutcome> {
  if (!(factor > 0 && factor <= 2)) throw new Error(`INVALID_OPTIONS: scaleFactor must be in (0, 2], got ${factor}`);
  const { width, height } = outputSize(img.width, img.height, factor);
  if (factor <= 1) return { image: await resizeRgb(img, width, height), srModel: 'lanczos3', fallback: false };
  const tick = (d: number, t: number): void => onProgress?.(d / t);
  const located = await locateModel(model, modelsDir);
  if (located) {
    const s = srInputScale(img.width, img.height, factor, maxInputPixels);
    const input = s < 1 ? await resizeRgb(img, Math.round(img.width * s), Math.round(img.height * s)) : img;
    const x4 = await upscaleOnnx(input, located.path, located.entry, tick);
    return { image: await resizeRgb(x4, width, height), srModel: model, fallback: false };
  }
  const x2 = await upscaleEsrganSlim(img, 2, tick);
  return { image: await resizeRgb(x2, width, height), srModel: 'esrgan-slim', fallback: true };
}
