import { z } from 'zod';
import { imageUrlText } from './text';

/**
 * Face edit (spec 001 §2, §3, §5, §9): the run input, the size rule and the cost, shared so that the
 * page shows the price the server charges and the server enforces every rule the page enforces.
 */

export const FACE_EDIT = {
  /** Width + height the upload is brought to (001 §5). */
  targetSum: 3000,
  /** Already within this share of `targetSum`: left as it is (001 §5). */
  tolerance: 0.02,
  /** Output scale (001 §3: 2 decimals, default 1); the range a customer can choose. */
  resizeFactor: { min: 0.5, max: 2, default: 1, step: 0.01 },
  /** Strength (`easy_value`), 3 decimals; the slider steps 0.1 (001 §5). */
  strength: { min: 0, max: 1, step: 0.1, default: 0.5 },
  seed: { min: 1, max: 1_000_000 },
  brush: { min: 5, max: 150, default: 40 },
  overlayOpacity: 0.35,
  /** Polling fallback (001 §4): first wait, first interval, growth, cap, attempts. */
  polling: { firstDelayMs: 1000, intervalMs: 2000, growth: 1.25, maxIntervalMs: 10_000, maxAttempts: 120 },
  /** History page sizes (001 §7). */
  historyPage: { first: 10, reload: 15 },
} as const;

/**
 * The working size of a face-edit upload (001 §5): a photo whose width + height exceeds 3000 by more
 * than 2 % is scaled so that the sum is 3000 (proportionally, rounded per side); otherwise it is kept.
 */
export function faceEditBaseSize(width: number, height: number): { width: number; height: number } {
  const sum = width + height;
  if (sum <= FACE_EDIT.targetSum * (1 + FACE_EDIT.tolerance)) return { width, height };
  const k = FACE_EDIT.targetSum / sum;
  return { width: Math.max(1, Math.round(width * k)), height: Math.max(1, Math.round(height * k)) };
}

/** Output size of a face edit: the working size times the resize factor, rounded per side (px). */
export function faceEditOutputSize(width: number, height: number, resizeFactor: number): { width: number; height: number } {
  const base = faceEditBaseSize(width, height);
  return { width: Math.max(1, Math.round(base.width * resizeFactor)), height: Math.max(1, Math.round(base.height * resizeFactor)) };
}

/**
 * Face-edit cost in credits (001 §9): sum = round(w·factor) + round(h·factor) of the working size;
 * 85 up to 3000, else 85 + 10 per full 200 above 3000.
 */
export function faceEditCost(width: number, height: number, resizeFactor: number): number {
  const out = faceEditOutputSize(width, height, resizeFactor);
  const sum = out.width + out.height;
  return sum <= FACE_EDIT.targetSum ? 85 : 85 + 10 * Math.floor((sum - FACE_EDIT.targetSum) / 200);
}

const round = (digits: number) => (v: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Face-edit run input (001 §3): image and mask are the caller's confirmed uploads (the mask: PNG, white = change). */
export const FaceEditInputSchema = z
  .object({
    image: imageUrlText(2048),
    mask: imageUrlText(2048).nullable(),
    seed: z.number().int().min(FACE_EDIT.seed.min).max(FACE_EDIT.seed.max).optional(),
    resize_factor: z.number().min(FACE_EDIT.resizeFactor.min).max(FACE_EDIT.resizeFactor.max).default(1).transform(round(2)),
    easy_value: z.number().min(FACE_EDIT.strength.min).max(FACE_EDIT.strength.max).transform(round(3)),
  })
  .strict();
export type FaceEditInput = z.infer<typeof FaceEditInputSchema>;

/** POST /api/runpod-face-edit `{input}` (001 §7). */
export const CreateFaceEditRequestSchema = z.object({ input: FaceEditInputSchema }).strict();
