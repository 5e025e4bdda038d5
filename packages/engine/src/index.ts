/**
 * @dewy/engine — local CPU image engine for portrait retouch + upscale (spec 001 §3/§5, GUIDE §4).
 * Pure functions on buffers: no HTTP, no database. Errors are plain `Error`s whose message starts with a
 * code: NO_IMAGE_DECODE, IMAGE_TOO_LARGE, INVALID_OPTIONS, MODEL_CHECKSUM_MISMATCH, FACE_MODEL_LOAD, SR_FAILED.
 */
export type { EngineConfig, ExcludeOptions, RetouchOptions, RetouchResult } from './engine-types';
export type { Box, DetectedFace, FaceAnalysis } from './face/face-analysis';
export type { FaceRegions, Point } from './face/face-regions';
export type { RetouchParams, FilterKind } from './retouch/retouch-params';
export type { EnginePool } from './pool/engine-pool';
export type { SrModelId } from './sr/model-registry';

/**
 * Retouch + resize one image in the calling thread.
 * @param input JPEG/PNG/WebP bytes, ≤ 50 MP; EXIF orientation applied, metadata stripped from the output.
 * @param opts see {@link RetouchOptions}; scaleFactor in (0, 2] → output round(w·f) × round(h·f) px.
 * @param config modelsDir (default ./data/models), sr (tiling; srMaxInputPixels is deprecated and ignored) and onProgress(stage, 0..1).
 * @returns encoded bytes (JPEG q=outputQuality or PNG), size, and meta (faces, srModel, fallback, hairMask, timingsMs, faceFits, exclusions, sr).
 * @throws Error 'NO_IMAGE_DECODE: …' | 'IMAGE_TOO_LARGE: …' | 'INVALID_OPTIONS: …' | 'MODEL_CHECKSUM_MISMATCH: …' | 'FACE_MODEL_LOAD: …'
 * Spec 001 §5 (model index, filters, exclusions); GUIDE §4 (engines).
 */
export { retouchImage } from './retouch-pipeline';

/**
 * Worker-thread pool for servers: `createEnginePool({ modelsDir, threads, srMaxInputPixels })` → `{ run(input, opts, signal?, onProgress?), destroy() }`.
 * `run` resolves like {@link retouchImage}; aborting `signal` rejects with an AbortError and kills the job's worker.
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

/** Per-face fit verdicts (issue 12): `meta.faceFits` entries, and the analysis's own `DetectedFace.fit`. */
export type { FaceFitMeta } from './engine-types';
export type { FaceFit, FitSignals, FitVerdict } from './face/face-fit';
