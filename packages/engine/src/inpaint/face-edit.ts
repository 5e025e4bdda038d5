import { decodeImage, encodeImage, resizeRgb, type RgbImage } from '../io/image-io';
import { faceEditBaseSize, faceEditSize, FACE_EDIT_MAX_SUM, normalizeResizeFactor } from './face-edit-size';
import type { FaceEditOptions, FaceEditResult } from '../engine-types';
import { inpaintRgb } from './inpaint';
import { decodeMask } from './mask-input';

export type { FaceEditOptions, FaceEditResult };

/** Progress callback: stage name and 0..1 within it. */
export type FaceEditProgress = (stage: string, fraction: number) => void;

/** JPEG quality of the result: the page's 0.92 (spec 001 §5). */
export const FACE_EDIT_JPEG_QUALITY = 92;

function validate(opts: FaceEditOptions): void {
  const bad = (m: string): never => { throw new Error(`INVALID_OPTIONS: ${m}`); };
  if (!opts || typeof opts !== 'object') bad('options missing');
  if (!Number.isSafeInteger(opts.seed)) bad(`seed must be an integer, got ${opts.seed}`);
  if (!(typeof opts.strength === 'number' && opts.strength >= 0 && opts.strength <= 1)) bad(`strength must be in [0, 1], got ${opts.strength}`);
  normalizeResizeFactor(opts.resizeFactor);
  if (opts.maxSum !== undefined && !(Number.isInteger(opts.maxSum) && opts.maxSum >= 2)) bad(`maxSum must be an integer ≥ 2, got ${opts.maxSum}`);
  if (opts.outputFormat !== undefined && opts.outputFormat !== 'jpg' && opts.outputFormat !== 'png') bad(`outputFormat must be jpg or png, got ${String(opts.outputFormat)}`);
}

function abortError(signal: AbortSignal): Error {
  const err = new Error('ABORTED: face edit was aborted', { cause: signal.reason });
  err.name = 'AbortError';
  return err;
}

/**
 * Face edit with the local engine (spec 001 §3 run input, §5 face edit; GUIDE §4 inpainting): repaints
 * the masked region by exemplar-based synthesis ({@link inpaintRgb}: PatchMatch + Wexler voting on a
 * pyramid of a window around the mask, gradient-domain seam removal) and blends it at `strength`.
 *
 * Sizes: the image is first brought to the upload rule ({@link faceEditBaseSize}: width + height = 3000
 * unless within 2 %), then scaled by `resizeFactor` to {@link faceEditSize}. For factors ≤ 1 the image is
 * resized (lanczos3) once to the output size and filled there; above 1 it is filled at the rule's size
 * and then enlarged, so the synthesis never costs more than at 3000 px of width + height. Outside the
 * grown mask the output equals the (resized) input exactly, before encoding.
 *
 * @param input JPEG/PNG/WebP bytes, ≤ 50 MP (EXIF orientation applied, metadata dropped).
 * @param mask image bytes of any size, white (or any bright/opaque paint) = change; resized to the
 *   image and thresholded (see decodeMask).
 * @returns the encoded image (JPEG q92 by default), its size and MIME type, and stats.
 * @throws Error 'INVALID_OPTIONS: …' | 'NO_IMAGE_DECODE: …' | 'IMAGE_TOO_LARGE: …' | 'NO_MASK_DECODE: …' |
 *   'EMPTY_MASK: mask is empty' | 'INVALID_MASK: …' | 'ABORTED: face edit was aborted' (name AbortError).
 */
export async function faceEditImage(
  input: Buffer,
  mask: Buffer,
  opts: FaceEditOptions & { signal?: AbortSignal; onProgress?: FaceEditProgress },
): Promise<FaceEditResult> {
  validate(opts);
  const { signal } = opts;
  const progress = opts.onProgress ?? (() => undefined);
  const t0 = performance.now();
  if (signal?.aborted) throw abortError(signal);
  progress('decode', 0);
  const decoded = await decodeImage(input);
  const f = normalizeResizeFactor(opts.resizeFactor);
  const maxSum = opts.maxSum ?? FACE_EDIT_MAX_SUM;
  const out = faceEditSize(decoded.width, decoded.height, f, maxSum);
  const work = f <= 1 ? out : faceEditBaseSize(decoded.width, decoded.height, maxSum);
  const tDecode = performance.now();
  const img: RgbImage = work.width === decoded.width && work.height === decoded.height ? decoded : await resizeRgb(decoded, work.width, work.height);
  const bits = await decodeMask(mask, work.width, work.height);
  if (signal?.aborted) throw abortError(signal);
  const tPrep = performance.now();

  const { image, stats } = await inpaintRgb(img, bits, { seed: opts.seed, strength: opts.strength, signal, onProgress: progress });
  const tFill = performance.now();
  const final = out.width === work.width && out.height === work.height ? image : await resizeRgb(image, out.width, out.height);
  progress('encode', 0);
  const format = opts.outputFormat ?? 'jpg';
  const buffer = await encodeImage(final, format, FACE_EDIT_JPEG_QUALITY);
  const tEnd = performance.now();
  progress('done', 1);
  const timingsMs = { decode: Math.round(tDecode - t0), prepare: Math.round(tPrep - tDecode), ...stats.timingsMs, inpaint: Math.round(tFill - tPrep), encode: Math.round(tEnd - tFill), total: Math.round(tEnd - t0) };
  return {
    buffer,
    width: final.width,
    height: final.height,
    mime: format === 'png' ? 'image/png' : 'image/jpeg',
    meta: { ...stats, timingsMs, workWidth: work.width, workHeight: work.height },
  };
}
