import { z } from 'zod';
import { imageUrlText, safeText } from './text';

/**
 * Image edit on Seedream (spec 002 §2, §3, §5, §7, §8, §9; issue 16): the business constants, the wire
 * shapes of `/api/seedream/*` and the vendor's error codes, shared so that the page shows the price the
 * server charges and the server enforces every rule the page enforces.
 */
export const IMAGE_EDIT = {
  /** Credits per output image (002 §9). */
  costPerImage: 15,
  /** Credits of one auto-prompt call (charged by the AI route, 002 §9). */
  autoPromptCost: 5,
  /** Upload limit (bytes): 9 MB; the vendor's own limit is 10 MB (002 §9). */
  maxBytes: 9_437_184,
  /** Minimum pixels of a reference image (960 x 960, 002 §5). */
  minPixels: 921_600,
  /** Reference images (tiles) per run (002 §5). */
  maxImages: 8,
  /** Width and height are clamped to 1..4096, default 2048 (002 §5). */
  side: { min: 1, max: 4096, default: 2048 },
  /** Scale slider: 2^value, value -2..2 step 0.05 (002 §5). */
  scale: { min: -2, max: 2, step: 0.05, default: 0 },
  /** Num Images and Max Images, 1..4, default 1 (002 §5). */
  numImages: { min: 1, max: 4, default: 1 },
  maxImagesPerCall: { min: 1, max: 4, default: 1 },
  /** Seed range (002 §5); random by default. */
  seed: { min: 1, max: 100_000 },
  /** Results shown at most (002 §9: 4 per request, display up to 8). */
  maxDisplayed: 8,
  /** Brush 5..150, default 80; overlay opacity 0.35; mask colours (002 §9). */
  brush: { min: 5, max: 150, default: 80 },
  overlayOpacity: 0.35,
  maskColors: ['blue', 'red'] as const,
  /** Status polling every 3 s for 240 s; the HTTP 524 fallback polls history the same way (002 §4). */
  polling: { intervalMs: 3000, timeoutMs: 240_000 },
  /** Auto prompt: up to 3 tries, 1.5 s apart; at most 4 images sent (002 §4, §5). */
  autoPrompt: { tries: 3, delayMs: 1500, maxImages: 4 },
  /** History page sizes: 9 first, then 5 (002 §9). */
  historyPage: { first: 9, more: 5 },
  /** Result URLs kept per history item (002 §5). */
  historyUrlsPerItem: 4,
  /** Accepted upload types (002 §5: only jpg, png). */
  mimes: ['image/jpeg', 'image/png'] as const,
} as const;

/** Size presets of Additional Settings (002 §5), ratio → [width, height] in px. */
export const IMAGE_EDIT_PRESETS = {
  '21:9': [3024, 1296],
  '16:9': [2560, 1440],
  '3:2': [2496, 1664],
  '4:3': [2304, 1728],
  '1:1': [2048, 2048],
  '3:4': [1728, 2304],
  '2:3': [1664, 2496],
  '9:16': [1440, 2560],
} as const satisfies Record<string, readonly [number, number]>;
export type ImageEditPreset = keyof typeof IMAGE_EDIT_PRESETS;

/** Clamps a width or height to 1..4096 (002 §5); non-numbers give the default 2048. */
export function clampImageEditSide(v: number): number {
  if (!Number.isFinite(v)) return IMAGE_EDIT.side.default;
  return Math.min(IMAGE_EDIT.side.max, Math.max(IMAGE_EDIT.side.min, Math.round(v)));
}

/** Credits of a run: 15 per ordered image (002 §9). `numImages` 1..4. */
export function imageEditCost(numImages: number): number {
  return IMAGE_EDIT.costPerImage * numImages;
}

/** `WxH` with both sides 1..4096 (002 §3 `size`). */
const SizeSchema = z
  .string()
  .regex(/^\d{1,4}x\d{1,4}$/, 'size must be WxH')
  .refine((s) => s.split('x').every((p) => Number(p) >= IMAGE_EDIT.side.min && Number(p) <= IMAGE_EDIT.side.max), 'each side must be 1..4096');

/**
 * Body of POST /api/seedream/generate (002 §3 Generate payload). `images` are URLs the upload calls
 * returned (the caller's confirmed uploads of kind `seedream-ref`), image 1 first. `mask` (ours,
 * additive) is a white-on-black PNG upload of the mask editor for image 1; `mask_color` the colour the
 * customer painted with, used for the mask merge sent to the vendor (decision 023). `max_images` is the
 * vendor's sequential cap per call (002 §2 Max Images).
 */
export const SeedreamGenerateRequestSchema = z
  .object({
    prompt: safeText({ multiline: true }).trim().min(1).max(4000),
    images: z.array(imageUrlText(4096)).min(1).max(IMAGE_EDIT.maxImages),
    num_images: z.number().int().min(IMAGE_EDIT.numImages.min).max(IMAGE_EDIT.numImages.max).default(1),
    max_images: z.number().int().min(IMAGE_EDIT.maxImagesPerCall.min).max(IMAGE_EDIT.maxImagesPerCall.max).default(1),
    size: SizeSchema.default('2048x2048'),
    seed: z.number().int().min(IMAGE_EDIT.seed.min).max(IMAGE_EDIT.seed.max).optional(),
    seedream_task_id: safeText().max(120).optional(),
    auto_prompt_used: z.boolean().default(false),
    async: z.boolean().optional(),
    mask: imageUrlText(4096).nullable().optional(),
    mask_color: z.enum(IMAGE_EDIT.maskColors).default('blue'),
  })
  .strict();
export type SeedreamGenerateRequest = z.infer<typeof SeedreamGenerateRequestSchema>;
export type SeedreamGenerateRequestRaw = z.input<typeof SeedreamGenerateRequestSchema>;

export const SeedreamGenerateQuerySchema = z.object({ async: z.enum(['0', '1']).optional() });

/** Answer of POST /api/seedream/generate (002 §7): `urls` empty while processing. */
export const SeedreamGenerateResponseSchema = z.object({
  success: z.literal(true),
  status: z.enum(['processing', 'completed', 'failed']),
  seedream_task_id: z.string(),
  urls: z.array(z.string()),
  cost: z.number().int(),
  credits: z.number().int(),
});
export type SeedreamGenerateResponse = z.infer<typeof SeedreamGenerateResponseSchema>;

/** The vendor's error codes the page maps to the 002 §8 catalogue, plus our own fallback. */
export const SEEDREAM_ERROR_CODES = [
  'InvalidParameter.OversizeImage',
  'InvalidParameter.AspectRatio',
  'InvalidParameter',
  'InputImageSensitiveContentDetected',
  'OutputImageSensitiveContentDetected',
  'InternalServiceError',
  'GenerationFailed',
] as const;
/** One of {@link SEEDREAM_ERROR_CODES}: the code an image-edit failure carries on the wire (002 §8). */
export type SeedreamErrorCode = (typeof SEEDREAM_ERROR_CODES)[number];

/** GET /api/seedream/status/{id} (002 §7). `error` is set when failed (credits were refunded). */
export const SeedreamStatusResponseSchema = z.object({
  success: z.literal(true),
  status: z.enum(['processing', 'completed', 'failed']),
  urls: z.array(z.string()),
  partial: z.boolean(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
});
export type SeedreamStatusResponse = z.infer<typeof SeedreamStatusResponseSchema>;

export const SeedreamHistoryQuerySchema = z.object({
  grouped: z.enum(['0', '1']).optional(),
  status: z.enum(['processing', 'completed', 'failed']).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(IMAGE_EDIT.historyPage.first),
  offset: z.coerce.number().int().min(0).default(0),
  q: safeText().trim().max(200).optional(),
});

/** An image-edit history item (002 §3). */
export const SeedreamHistoryItemSchema = z.object({
  id: z.number().int(),
  seedream_task_id: z.string(),
  run_id: z.string(),
  status: z.enum(['processing', 'completed', 'failed']),
  run_status: z.string(),
  state: z.string(),
  all_image_urls: z.array(z.string()),
  image_urls: z.array(z.string()),
  image_url: z.string().nullable(),
  prompt: z.string().nullable(),
  seed: z.number().int().nullable(),
  size: z.string().nullable(),
  num_images: z.number().int(),
  ref_image_urls: z.array(z.string()),
  original_image_url: z.string().nullable(),
  error_code: z.string().nullable(),
  cost: z.number().int(),
  created_at: z.string(),
});
export type SeedreamHistoryItem = z.infer<typeof SeedreamHistoryItemSchema>;

export const SeedreamHistoryResponseSchema = z.object({
  success: z.literal(true),
  items: z.array(SeedreamHistoryItemSchema),
  pagination: z.object({ nextOffset: z.number().int().nullable(), hasMore: z.boolean() }),
});
export type SeedreamHistoryResponse = z.infer<typeof SeedreamHistoryResponseSchema>;

/** GET /api/seedream/config (ours): whether the vendor is configured, and the prices (credits). */
export const SeedreamConfigResponseSchema = z.object({
  success: z.literal(true),
  configured: z.boolean(),
  costPerImage: z.number().int(),
  autoPromptCost: z.number().int(),
});
export type SeedreamConfigResponse = z.infer<typeof SeedreamConfigResponseSchema>;

/**
 * The task id the page knows an image-edit job by (002 §3 `seedream_task_id`; the 524 fallback looks
 * for it in the history, 002 §4) is the kernel's job id with this prefix; the job event stream names
 * the bare job id.
 */
export const SEEDREAM_TASK_PREFIX = 'seedream-';

/** `seedream-<jobId>` of a kernel job id. */
export function toSeedreamTaskId(jobId: string): string {
  return `${SEEDREAM_TASK_PREFIX}${jobId}`;
}

/** The kernel job id of a `seedream-<jobId>` task id (an id without the prefix is returned as it is). */
export function fromSeedreamTaskId(taskId: string): string {
  return taskId.startsWith(SEEDREAM_TASK_PREFIX) ? taskId.slice(SEEDREAM_TASK_PREFIX.length) : taskId;
}
