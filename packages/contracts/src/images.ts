import { z } from 'zod';
import { ACCEPTED_IMAGE_MIME, UPLOAD_LIMITS } from './constants';
import { FILTERS, LORA_INDICES, SCALE_FACTOR } from './upscale';
import { imageUrlText, safeText } from './text';

/** POST /api/image/upload-s3 answer (001 §7). */
export const UploadResponseSchema = z.object({
  success: z.literal(true),
  imageUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type UploadResponse = z.infer<typeof UploadResponseSchema>;

export const UPLOAD_KINDS = ['upscale-original', 'face-edit-original', 'face-edit-mask', 'seedream-ref', 'image-edit-original'] as const;

/** POST /api/image/presign-upload (001 §3). checksumSha256 is the base64 SHA-256 of the bytes. */
export const PresignUploadRequestSchema = z.object({
  filename: safeText().min(1).max(255),
  mime: z.enum(ACCEPTED_IMAGE_MIME),
  kind: z.enum(UPLOAD_KINDS).default('upscale-original'),
  contentLength: z.number().int().positive().max(UPLOAD_LIMITS.maxBytes),
  checksumSha256: z.string().regex(/^[A-Za-z0-9+/]{43}=$/, 'base64 SHA-256'),
});
export type PresignUploadRequest = z.infer<typeof PresignUploadRequestSchema>;

export const PresignUploadResponseSchema = z.object({
  success: z.literal(true),
  url: z.string(),
  key: z.string(),
  requiredHeaders: z.record(z.string(), z.string()),
});
export type PresignUploadResponse = z.infer<typeof PresignUploadResponseSchema>;

export const ConfirmUploadRequestSchema = z.object({ key: safeText().min(1).max(512) });
export const ConfirmUploadResponseSchema = UploadResponseSchema;

export const PresignDownloadRequestSchema = z.object({ url: imageUrlText(4096) });

/** Most history items one delete call takes (My Page's bulk delete sends the selection in one call). */
export const HISTORY_DELETE_MAX = 100;
/**
 * POST /api/image/history/delete (issue 28, point 12): history items (their `id`s) of the caller to
 * delete for good — results, and originals no other item uses, removed from storage; nothing refunded.
 */
export const HistoryDeleteRequestSchema = z.object({ ids: z.array(z.number().int().positive()).min(1).max(HISTORY_DELETE_MAX) }).strict();
export type HistoryDeleteRequest = z.infer<typeof HistoryDeleteRequestSchema>;
export const HistoryDeleteResponseSchema = z.object({ success: z.literal(true), deleted: z.array(z.number().int()) });
export type HistoryDeleteResponse = z.infer<typeof HistoryDeleteResponseSchema>;
/** Query of GET /api/image/download (the download proxy): `url`, an image URL handed out by the server. */
export const ImageDownloadQuerySchema = z.object({ url: imageUrlText(4096) });
export const PresignDownloadResponseSchema = z.object({
  success: z.literal(true),
  downloadUrl: z.string(),
  filename: z.string(),
});
export type PresignDownloadResponse = z.infer<typeof PresignDownloadResponseSchema>;

/**
 * The upscale request input of 001 §3. `image` is a URL returned by an upload call (the server
 * resolves it to a stored object of the caller's own; any other URL is refused). `width`/`height`
 * are informative: the server reads the stored image's real size for the cost.
 */
export const UpscaleInputSchema = z.object({
  image: imageUrlText(4096),
  seed: z.number().int().min(1).max(1_000_000).optional(),
  prompt: safeText({ multiline: true }).max(500).default(''),
  output_format: z.enum(['jpg', 'png']).default('jpg'),
  output_quality: z.number().int().min(1).max(100).default(100),
  lora_index: z.number().int().refine((v) => (LORA_INDICES as readonly number[]).includes(v), 'unknown lora_index').default(2),
  numImages: z.literal(1).default(1),
  width: z.number().int().positive().max(UPLOAD_LIMITS.maxSide).optional(),
  height: z.number().int().positive().max(UPLOAD_LIMITS.maxSide).optional(),
  scale_factor: z.number().min(SCALE_FACTOR.min).max(SCALE_FACTOR.max).default(SCALE_FACTOR.default),
  upper_lip: z.boolean().default(false),
  lower_lip: z.boolean().default(false),
  filter_strength: z.number().min(0).max(1).default(0.01),
  filter_index: z.union([z.literal(0), z.literal(1)]).default(0),
  filter_prompt: safeText().max(100).default(''),
  left_eyebrow: z.boolean().default(false),
  right_eyebrow: z.boolean().default(false),
  nose: z.boolean().default(false),
  hair: z.boolean().default(false),
});
export type UpscaleInput = z.infer<typeof UpscaleInputSchema>;
export type UpscaleInputRaw = z.input<typeof UpscaleInputSchema>;

export const CreateUpscaleRequestSchema = z.object({ input: UpscaleInputSchema });
/** Headers of POST /api/runpod-upscale: an optional `Idempotency-Key` (8–200 characters); other headers pass. */
export const CreateUpscaleHeadersSchema = z.object({ 'idempotency-key': safeText().min(8).max(200).optional() }).passthrough();
export type CreateUpscaleRequest = z.infer<typeof CreateUpscaleRequestSchema>;

export const JOB_STATUSES = ['processing', 'completed', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

/** Answer of every paid tool's create call: the job, its cost and the balance left (credits). */
export const ToolJobCreatedSchema = z.object({
  success: z.literal(true),
  jobId: z.string(),
  imageId: z.number().int(),
  status: z.enum(JOB_STATUSES),
  cost: z.number().int(),
  credits: z.number().int(),
});
export type ToolJobCreated = z.infer<typeof ToolJobCreatedSchema>;
/** POST /api/runpod-upscale answer (001 §3). */
export const CreateUpscaleResponseSchema = ToolJobCreatedSchema;
export type CreateUpscaleResponse = ToolJobCreated;

/** GET /api/image/status/{jobId} (001 §3). URLs are signed and expire. */
export const JobStatusResponseSchema = z.object({
  status: z.enum(JOB_STATUSES),
  imageUrl: z.string().nullable(),
  originalImageUrl: z.string().nullable(),
  images: z.array(z.string()).optional(),
  /** A completed multi-image job that delivered fewer images than paid for; the rest was refunded (002 §3, decision 024). */
  partial: z.boolean().optional(),
  /** A failed job's reason as an error code (e.g. GENERATION_SAFETY_BLOCKED), else JOB_FAILED. */
  error: z.string().nullable().optional(),
});
export type JobStatusResponse = z.infer<typeof JobStatusResponseSchema>;

export const HISTORY_SOURCES = ['upscale', 'product_try', 'clothes', 'kling', 'seedream', 'face_edit', 'consistency'] as const;
export type HistorySource = (typeof HISTORY_SOURCES)[number];

/**
 * GET /api/image/status/{jobId}?source= (001 §7: "face edit adds ?source=face_edit"). The answer does
 * not depend on it (the job id names the job); declared so that the contract and the page agree on it.
 */
export const JobStatusQuerySchema = z.object({ source: z.enum(HISTORY_SOURCES).optional() });

/** A history item (001 §3). */
export const HistoryImageSchema = z.object({
  id: z.number().int(),
  image_url: z.string().nullable(),
  original_image_url: z.string().nullable(),
  thumbnail_url: z.string().nullable(),
  all_image_urls: z.array(z.string()),
  status: z.enum(JOB_STATUSES),
  source: z.enum(HISTORY_SOURCES),
  runpod_job_id: z.string().nullable(),
  prompt: z.string().nullable(),
  seed: z.number().int().nullable(),
  cost: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  original_width: z.number().int().nullable(),
  original_height: z.number().int().nullable(),
  kling_task_id: z.string().nullable(),
  seedream_task_id: z.string().nullable(),
  /**
   * The request input the job was made with, as its tool's wire schema parsed it (for upscale:
   * `UpscaleInput` with the server's `scale_factor` and `seed`), so a page can show the options of a
   * past result. Not in the original product's answer; additive.
   */
  input: z.record(z.string(), z.unknown()).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** Set when the files were deleted 30 days after processing (002 §9): the page shows 'expired', not a broken image. */
  expired_at: z.string().nullable().optional(),
  /** The batch the job belongs to (issue 24): the page shows a batch's jobs as one expandable entry. Additive. */
  batch_id: z.string().nullable().optional(),
});
export type HistoryImage = z.infer<typeof HistoryImageSchema>;

export const HistoryQuerySchema = z.object({
  source: z.enum(HISTORY_SOURCES).optional(),
  /** Only rows in this state (My Page lists completed items only, 001 §4). */
  status: z.enum(JOB_STATUSES).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});
export const HistoryResponseSchema = z.object({
  images: z.array(HistoryImageSchema),
  pagination: z.object({
    hasMore: z.boolean(),
    nextOffset: z.number().int().nullable(),
    /** Grouped reads (002 §7 `grouped=1`): one item per generation; these page the groups. */
    groupHasMore: z.boolean().optional(),
    nextGroupOffset: z.number().int().nullable().optional(),
    grouped: z.boolean().optional(),
  }),
});
export type HistoryResponse = z.infer<typeof HistoryResponseSchema>;

export { FILTERS };
