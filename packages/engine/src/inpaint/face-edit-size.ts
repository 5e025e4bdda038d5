/**
 * Face-edit sizes and cost (spec 001 §5 "Face edit", §9 "Face-edit cost"). Pure functions shared by the
 * engine (what it renders) and the server (what it charges), so the two cannot disagree.
 */

/** Spec 001 §9: maximum dimension sum (width + height) of a face-edit upload. */
export const FACE_EDIT_MAX_SUM = 3000;
/** Spec 001 §5: an upload already within 2 % of the target sum is left as it is. */
export const FACE_EDIT_SUM_TOLERANCE = 0.02;
/**
 * Accepted `resize_factor` range after rounding to 2 decimals. The spec gives only "number, 2 decimals,
 * default 1" (001 §3); 0.1 keeps outputs meaningful and 4 bounds the output at 4 × 3000 = 12000 px of
 * width + height (≤ 36 MP), inside the decoder's 50 MP cap.
 */
export const FACE_EDIT_MIN_FACTOR = 0.1;
export const FACE_EDIT_MAX_FACTOR = 4;
/** Spec 001 §9: 85 credits up to a size sum of 3000, then +10 per full 200 px above it. */
export const FACE_EDIT_BASE_COST = 85;
export const FACE_EDIT_STEP_COST = 10;
export const FACE_EDIT_STEP_PX = 200;

export interface Size {
  width: number;
  height: number;
}

/**
 * `resize_factor` rounded to 2 decimals (spec 001 §3) and validated.
 * @throws Error 'INVALID_OPTIONS: …' when not a finite number in [0.1, 4] after rounding.
 */
export function normalizeResizeFactor(resizeFactor: number): number {
  const f = Math.round(resizeFactor * 100) / 100;
  if (!Number.isFinite(f) || f < FACE_EDIT_MIN_FACTOR || f > FACE_EDIT_MAX_FACTOR) {
    throw new Error(`INVALID_OPTIONS: resizeFactor must be in [${FACE_EDIT_MIN_FACTOR}, ${FACE_EDIT_MAX_FACTOR}] (2 decimals), got ${resizeFactor}`);
  }
  return f;
}

/**
 * The upload rule of spec 001 §5: an image whose width + height exceeds `maxSum` by more than 2 % is
 * downscaled proportionally so that width + height = maxSum (each side rounded, so the sum may land
 * 1 px off); anything else (smaller, or within 2 %: sum ≤ 3060 for 3000) is kept. Never upscales.
 * @param width, height input size in pixels (≥ 1).
 */
export function faceEditBaseSize(width: number, height: number, maxSum = FACE_EDIT_MAX_SUM): Size {
  if (!(Number.isInteger(width) && Number.isInteger(height) && width >= 1 && height >= 1)) {
    throw new Error(`INVALID_OPTIONS: image size must be positive integers, got ${width}×${height}`);
  }
  const sum = width + height;
  if (sum <= maxSum * (1 + FACE_EDIT_SUM_TOLERANCE)) return { width, height };
  const s = maxSum / sum;
  return { width: Math.max(1, Math.round(width * s)), height: Math.max(1, Math.round(height * s)) };
}

/**
 * Output size of a face edit: the upload rule ({@link faceEditBaseSize}) and then `resize_factor`
 * (rounded to 2 decimals): round(w·f) × round(h·f) pixels, each at least 1.
 * @throws Error 'INVALID_OPTIONS: …' for a bad size or a factor outside [0.1, 4].
 */
export function faceEditSize(width: number, height: number, resizeFactor: number, maxSum = FACE_EDIT_MAX_SUM): Size {
  const f = normalizeResizeFactor(resizeFactor);
  const base = faceEditBaseSize(width, height, maxSum);
  return { width: Math.max(1, Math.round(base.width * f)), height: Math.max(1, Math.round(base.height * f)) };
}

/**
 * Credits for a face edit (spec 001 §9): with sum = round(w·f) + round(h·f) of the size after the upload
 * rule ({@link faceEditSize}), 85 when sum ≤ 3000, else 85 + 10 · floor((sum − 3000) / 200).
 * @param width, height upload size in pixels; @param resizeFactor `resize_factor` (default 1 in the spec).
 * @throws Error 'INVALID_OPTIONS: …' like {@link faceEditSize}.
 */
export function faceEditCost(width: number, height: number, resizeFactor = 1): number {
  const out = faceEditSize(width, height, resizeFactor);
  const sum = out.width + out.height;
  if (sum <= FACE_EDIT_MAX_SUM) return FACE_EDIT_BASE_COST;
  return FACE_EDIT_BASE_COST + FACE_EDIT_STEP_COST * Math.floor((sum - FACE_EDIT_MAX_SUM) / FACE_EDIT_STEP_PX);
}
