import { z } from 'zod';
import { UpscaleInputSchema } from './images';
import { imageUrlText, safeText } from './text';

/** Batch retouch limits (issue 24, decision 040 §4). */
export const BATCH_LIMITS = {
  /** Photos in one batch. */
  maxPhotos: 50,
  /** A photo's original file name, in characters (shown on the page and used to name the zip's entries). */
  nameMax: 255,
  /** Batches listed on My Page / the history. */
  listMax: 20,
} as const;

/** One photo of a new batch: an upload of the account (`imageUrl` of `/api/upload`) and its original file name. */
export const BatchPhotoSchema = z.object({
  image: imageUrlText(4096),
  name: safeText().trim().min(1).max(BATCH_LIMITS.nameMax),
});

/**
 * `POST /api/batches`: one set of retouch options (the workspace's, without `image`) for up to 50
 * photos. Each photo becomes one job of the kernel under the batch's id, charged in order; once the
 * credits run out the rest are refused with INSUFFICIENT_CREDITS (nothing half-charged).
 */
export const BatchCreateRequestSchema = z.object({
  tool: z.literal('upscale'),
  options: UpscaleInputSchema.omit({ image: true, width: true, height: true, seed: true }),
  photos: z.array(BatchPhotoSchema).min(1).max(BATCH_LIMITS.maxPhotos),
});
export type BatchCreateRequest = z.infer<typeof BatchCreateRequestSchema>;
export type BatchCreateRequestRaw = z.input<typeof BatchCreateRequestSchema>;

/**
 * A photo's state in its batch: `processing` (queued or running), `completed`, `failed` (its job failed
 * or was cancelled, and was refunded: `error` says why), `refused` (never charged: `error` is the
 * reason, e.g. INSUFFICIENT_CREDITS or UPSCALE_BLOCKED), `pending` (not yet submitted).
 */
export const BATCH_PHOTO_STATUSES = ['pending', 'processing', 'completed', 'failed', 'refused'] as const;
export type BatchPhotoStatus = (typeof BATCH_PHOTO_STATUSES)[number];

export const BatchPhotoViewSchema = z.object({
  position: z.number().int(),
  name: z.string(),
  status: z.enum(BATCH_PHOTO_STATUSES),
  /** The photo's current job (its latest attempt), or null when none was started. */
  jobId: z.string().nullable(),
  /** Credits charged for the current job (0 when refused; refunded when failed). */
  cost: z.number().int(),
  /** An ErrorCode or JobErrorCode when failed or refused. */
  error: z.string().nullable(),
  originalUrl: z.string().nullable(),
  resultUrl: z.string().nullable(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  /** How many jobs this photo has had (a retry adds one). */
  attempts: z.number().int(),
});
export type BatchPhotoView = z.infer<typeof BatchPhotoViewSchema>;

export const BatchViewSchema = z.object({
  id: z.string(),
  tool: z.string(),
  createdAt: z.string(),
  photos: z.array(BatchPhotoViewSchema),
  counts: z.object({ pending: z.number().int(), processing: z.number().int(), completed: z.number().int(), failed: z.number().int(), refused: z.number().int() }),
  /** Credits charged and not refunded, over the batch's current jobs. */
  charged: z.number().int(),
});
export type BatchView = z.infer<typeof BatchViewSchema>;

/** Every batch answer: the batch, and the caller's balance after the call. */
export const BatchResponseSchema = z.object({ success: z.literal(true), batch: BatchViewSchema, credits: z.number().int() });
export type BatchResponse = z.infer<typeof BatchResponseSchema>;

/** `GET /api/batches`: the account's latest batches, newest first (without their photos' URLs). */
export const BatchListResponseSchema = z.object({
  success: z.literal(true),
  batches: z.array(BatchViewSchema.omit({ photos: true }).extend({ photoCount: z.number().int() })),
});
export type BatchListResponse = z.infer<typeof BatchListResponseSchema>;
