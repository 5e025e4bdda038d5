/**
 * @dewy/engine — local CPU image engine for portrait retouch + upscale and face edit (spec 001 §3/§5,
 * GUIDE §4). Pure functions on buffers: no HTTP, no database. Errors are plain `Error`s whose message
 * starts with a code: NO_IMAGE_DECODE, IMAGE_TOO_LARGE, INVALID_OPTIONS, MODEL_CHECKSUM_MISMATCH,
 * FACE_MODEL_LOAD, SR_FAILED; face edit adds NO_MASK_DECODE, EMPTY_MASK, INVALID_MASK and ABORTED
 * (name AbortError).
 */
export type { EngineConfig, ExcludeOptions, RetouchOptions, RetouchResult, FaceEditOptions, FaceEditResult, FaceEditMeta } from './engine-types';
export type { Box, DetectedFace, FaceAnalysis } from './face/face-analysis';
export type { FaceRegions, Point } from './face/face-regions';
export type { RetouchParams, FilterKind } from './retouch/retouch-params';
export type { EnginePool } from './pool/engine-pool';
export type { SrModelId } from './sr/model-registry';

/**
 * Retouch + resize one image in the calling thread.
 * @param input JPEG/PNG/WebP bytes, ≤ 50 MP; EXIF orientation applied, metadata stripped from the output.
 * @param opts see {@link RetouchOptions}; scaleFactor in (0, 2] → output round(w·f) × round(h·f) px.
 * @param config modelsDir (default ./data/models), sr (tiling; super-resolution always runs on the full input, decision 005 addendum) and onProgress(stage, 0..1).
 * @returns encoded bytes (JPEG q=outputQuality or PNG), size, and meta (faces, srModel, fallback, hairMask, timingsMs, faceFits, exclusions, sr).
 * @throws Error 'NO_IMAGE_DECODE: …' | 'IMAGE_TOO_LARGE: …' | 'INVALID_OPTIONS: …' | 'MODEL_CHECKSUM_MISMATCH: …' | 'FACE_MODEL_LOAD: …'
 * Spec 001 §5 (model index, filters, exclusions); GUIDE §4 (engines).
 */
export { retouchImage } from './retouch-pipeline';

/**
 * Worker-thread pool for servers: `createEnginePool({ modelsDir, threads })` →
 * `{ run(input, opts, signal?, onProgress?), faceEdit(input, mask, opts, signal?, onProgress?), destroy() }`.
 * `run` resolves like {@link retouchImage}, `faceEdit` like {@link faceEditImage}, on the same workers;
 * aborting `signal` rejects with an AbortError and kills the job's worker (a fresh one replaces it).
 */
export { createEnginePool } from './pool/engine-pool';

/**
 * Face analysis only: decodes `input` and returns faces (box, 478-point mesh, region polygons for lips,
 * eyebrows, eyes, nose, nostrils, face oval) in pixels of the EXIF-rotated image.
 * @throws Error 'NO_IMAGE_DECODE: …' | 'IMAGE_TOO_LARGE: …' | 'FACE_MODEL_LOAD: …'
 */
export { analyzeFaces } from './face/face-analysis';

/** Retouch parameter sets by model index 0..8 and the lookup that validates an index. */
export { RETOUCH_PARAMS, retouchParamsFor, filterKindOf } from './retouch/retouch-params';

/** Output size for an input size and scale factor: round(w·f) × round(h·f). */
export { outputSize } from './sr/super-resolution';

/** Rasterise polygons to a soft mask of any size (sigma px feather); `Plane` is { data: Float32Array; width; height }. */
export { rasterizeMask } from './mask/mask-raster';
export type { Plane } from './mask/mask-raster';

/** Decode bytes to RGB (EXIF-rotated) and the lanczos3 resize used for "original at output size". */
export { decodeImage, resizeRgb, MAX_INPUT_PIXELS } from './io/image-io';
export type { RgbImage } from './io/image-io';

/**
 * Face edit on the local engine (spec 001 §3 run input, §5 face edit, GUIDE §4 inpainting):
 * `faceEditImage(input, mask, { seed, strength, resizeFactor, maxSum?, outputFormat?, signal?, onProgress? })`
 * → `{ buffer, width, height, mime, meta }`. Repaints the mask (any size, white/opaque paint = change;
 * resized to the image, thresholded at 128, grown by holeDilation px) by exemplar-based synthesis —
 * PatchMatch (Barnes et al. 2009) with Wexler et al. (2007) coarse-to-fine EM over a window around the
 * mask — with a gradient-domain (Poisson, Pérez et al. 2003) blend, then mixes it over the photo at
 * `strength` (0..1). Deterministic per `seed`. Output: faceEditSize(w, h, resizeFactor), JPEG q92 by
 * default. Pixels outside the grown mask equal the (resized) input before encoding.
 * @throws Error 'INVALID_OPTIONS: …' | 'NO_IMAGE_DECODE: …' | 'IMAGE_TOO_LARGE: …' | 'NO_MASK_DECODE: …' |
 *   'EMPTY_MASK: mask is empty' | 'INVALID_MASK: …' | 'ABORTED: face edit was aborted' (name AbortError).
 */
export { faceEditImage, FACE_EDIT_JPEG_QUALITY } from './inpaint/face-edit';
export type { FaceEditProgress } from './inpaint/face-edit';

/**
 * Face-edit sizes and cost (spec 001 §5, §9), pure: `faceEditBaseSize(w, h, maxSum = 3000)` is the upload
 * rule (downscale to width + height = 3000 unless within 2 %, never upscale); `faceEditSize(w, h, f)`
 * applies it and then resize_factor f (2 decimals, 0.1..4) with round() per side; `faceEditCost(w, h, f)`
 * = 85 credits when that size's width + height ≤ 3000, else 85 + 10 · floor((sum − 3000) / 200).
 * Sizes in pixels; throw 'INVALID_OPTIONS: …' for a bad size or factor.
 */
export {
  faceEditBaseSize,
  faceEditSize,
  faceEditCost,
  normalizeResizeFactor,
  FACE_EDIT_MAX_SUM,
  FACE_EDIT_SUM_TOLERANCE,
  FACE_EDIT_MIN_FACTOR,
  FACE_EDIT_MAX_FACTOR,
  FACE_EDIT_BASE_COST,
  FACE_EDIT_STEP_COST,
  FACE_EDIT_STEP_PX,
} from './inpaint/face-edit-size';

/**
 * The inpainting core on decoded RGB: `inpaintRgb(img, mask (w·h bytes, non-zero = repaint), { seed,
 * strength, signal?, onProgress? })` → `{ image, stats }` (a new image, bit-identical outside the mask
 * grown by `holeDilation(w, h)` px), and the mask decoder `decodeMask(bytes, w, h)` used by faceEditImage.
 */
export { inpaintRgb, holeDilation, PATCH_RADIUS, INPAINT_TUNING } from './inpaint/inpaint';
export type { InpaintOptions, InpaintStats } from './inpaint/inpaint';
export { decodeMask } from './inpaint/mask-input';

/**
 * Moderation (issue 13): `classifyNsfw(image)` → NSFWJS MobileNetV2 class probabilities
 * `{drawing, hentai, neutral, porn, sexy}` (tfjs-wasm, model inside the nsfwjs package); the pool's
 * `classifyNsfw` runs it on the engine workers.
 */
export { classifyNsfw, warmUpNsfw, type NsfwScores } from './nsfw/nsfw-classifier';

/** Per-face fit verdicts (issue 12): `meta.faceFits` entries, and the analysis's own `DetectedFace.fit`. */
export type { FaceFitMeta } from './engine-types';
export type { FaceFit, FitSignals, FitVerdict } from './face/face-fit';
