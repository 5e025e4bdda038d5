import { FACE_EDIT, faceEditBaseSize, type FaceEditInput } from '@dewy/contracts';

/** JPEG quality of a face-edit upload the page downscaled (001 §5). */
export const FACE_EDIT_JPEG_QUALITY = 0.92;

/** The resize factor the page runs with (001 §3/§9: default 1; the page offers no other). */
export const FACE_EDIT_RESIZE_FACTOR = FACE_EDIT.resizeFactor.default;

/**
 * Where the page downscales a picked photo before upload (001 §5): to width + height = 3000 when the
 * sum is over 3000 by more than 2 %; null (upload as it is) otherwise.
 */
export function faceEditResizeTarget(width: number, height: number): { width: number; height: number } | null {
  const base = faceEditBaseSize(width, height);
  return base.width === width && base.height === height ? null : base;
}

/** A random seed, an integer 1 to 1,000,000 (001 §3). @param random a number in [0, 1) */
export function faceEditSeed(random: number = Math.random()): number {
  return FACE_EDIT.seed.min + Math.floor(random * (FACE_EDIT.seed.max - FACE_EDIT.seed.min + 1));
}

/** Strength as sent: within 0..1, 3 decimals (001 §3 `easy_value`). */
export function easyValue(strength: number): number {
  return Math.round(Math.min(FACE_EDIT.strength.max, Math.max(FACE_EDIT.strength.min, strength)) * 1000) / 1000;
}

/** The run input of 001 §3 from the uploaded photo, the saved mask and the strength. */
export function buildFaceEditInput(imageUrl: string, maskUrl: string, strength: number, seed: number): FaceEditInput {
  return { image: imageUrl, mask: maskUrl, seed, resize_factor: FACE_EDIT_RESIZE_FACTOR, easy_value: easyValue(strength) };
}
