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
 * Brings the original to output size. f ≤ 1: lanczos3 only. f > 1: ×4 ONNX SR (tiled) then lanczos3
 * down to the target; without the ONNX file, esrgan-slim ×2 on tfjs-wasm (f ≤ 2) then lanczos3.
 * Throws `INVALID_OPTIONS` for f outside (0, 2], `MODEL_CHECKSUM_MISMATCH` for a bad model file.
 */
export async function resizeToOutput(img: RgbImage, factor: number, model: SrModelId, modelsDir: string | undefined, onProgress?: (fraction: number) => void): Promise<ResizeOutcome> {
  if (!(factor > 0 && factor <= 2)) throw new Error(`INVALID_OPTIONS: scaleFactor must be in (0, 2], got ${factor}`);
  const { width, height } = outputSize(img.width, img.height, factor);
  if (factor <= 1) return { image: await resizeRgb(img, width, height), srModel: 'lanczos3', fallback: false };
  const tick = (d: number, t: number): void => onProgress?.(d / t);
  const located = await locateModel(model, modelsDir);
  if (located) {
    const x4 = await upscaleOnnx(img, located.path, located.entry, tick);
    return { image: await resizeRgb(x4, width, height), srModel: model, fallback: false };
  }
  const x2 = await upscaleEsrganSlim(img, 2, tick);
  return { image: await resizeRgb(x2, width, height), srModel: 'esrgan-slim', fallback: true };
}
