import { z } from 'zod';
import { AI_COSTS } from './ai';
import { JOB_STATUSES } from './images';
import { imageUrlText, safeText } from './text';

/**
 * Image generation, the "consistency" tool on Kling (spec 002 §2–§9, issue 16): constants, the run
 * input, and the answers of its calls, shared so that the page shows the price the server charges and
 * the server enforces every rule the page enforces.
 */
export const IMAGE_GENERATION = {
  /** 002 §9: 15 credits per image; the button shows 15 × count. */
  costPerImage: 15,
  /** 002 §9: the Edit tab's AI rewrite (charged by /api/ai/rewrite, issue 15). */
  rewriteCost: AI_COSTS.rewrite,
  /** 002 §5: aspect ratios as the page names them; 1x1 is the default. */
  aspectRatios: ['1x1', '3x4', '9x16', '4x3', '16x9', '2x3', '3x2'] as const,
  defaultAspectRatio: '1x1',
  /** 002 §5: image count 1 to 4, default 4. */
  count: { min: 1, max: 4, default: 4 },
  /** 002 §5: accepted reference extensions. */
  extensions: ['jpg', 'jpeg', 'png', 'webp'] as const,
  mimes: ['image/jpeg', 'image/png', 'image/webp'] as const,
  /** Longest prompt Kling accepts (its documented limit: 2500 characters). */
  promptMaxChars: 2500,
  /** 002 §9: the local history cap per user. */
  localHistoryCap: 50,
  /** 002 §7/§9: history pages: 10 first (25 on refresh), then 5 on Load more. */
  historyPage: { first: 10, refresh: 25, more: 5 },
  /** 002 §4/§9: polling 2 s, 4 s, 8 s, then a random 10–15 s, about 60 attempts (10 min). */
  polling: { firstDelaysMs: [2000, 4000, 8000], randomMinMs: 10_000, randomMaxMs: 15_000, maxAttempts: 60 },
  /** 002 §5: the page's own banned-keyword fallback when the server's list cannot be read. */
  fallbackBannedKeywords: ['nude', 'naked', 'nsfw', 'porn', 'sex'],
} as const;

export type GenerationAspectRatio = (typeof IMAGE_GENERATION.aspectRatios)[number];

/** Cost in credits of generating `count` images (002 §9). */
export function imageGenerationCost(count: number): number {
  return IMAGE_GENERATION.costPerImage * count;
}

/** The Kling aspect ratio (`W:H`) of the page's `WxH` name. */
export function klingAspectRatio(r: GenerationAspectRatio): string {
  return r.replace('x', ':');
}

/** True when `prompt` contains one of `keywords`, case-insensitively (002 §5). */
export function hasBannedKeyword(prompt: string, keywords: readonly string[]): boolean {
  const p = prompt.toLowerCase();
  return keywords.some((k) => k.trim() !== '' && p.includes(k.trim().toLowerCase()));
}

/**
 * The stored input of a generation job (what the multipart request becomes on the server): the prompt,
 * the count, the aspect ratio, and the reference image as the caller's confirmed upload URL (or null).
 */
export const ImageGenerationInputSchema = z
  .object({
    prompt: safeText({ multiline: true }).trim().max(IMAGE_GENERATION.promptMaxChars),
    num_images: z.number().int().min(IMAGE_GENERATION.count.min).max(IMAGE_GENERATION.count.max),
    aspect_ratio: z.enum(IMAGE_GENERATION.aspectRatios),
    reference: z.string().min(1).max(2048).nullable(),
  })
  .strict();
export type ImageGenerationInput = z.infer<typeof ImageGenerationInputSchema>;

/** The text fields of POST /api/kling/image-generation (multipart; the file is `character_reference_images`). */
export const ImageGenerationFieldsSchema = z.object({
  prompt: safeText({ multiline: true }).trim().max(IMAGE_GENERATION.promptMaxChars).default(''),
  num_images: z.coerce.number().int().min(IMAGE_GENERATION.count.min).max(IMAGE_GENERATION.count.max).default(IMAGE_GENERATION.count.default),
  aspect_ratio: z.enum(IMAGE_GENERATION.aspectRatios).default(IMAGE_GENERATION.defaultAspectRatio),
});

/** Answer of POST /api/kling/image-generation (002 §3): the job is queued; the page polls `taskId`. */
export const ImageGenerationCreatedSchema = z.object({
  success: z.literal(true),
  status: z.enum(JOB_STATUSES),
  taskId: z.string(),
  images: z.array(z.string()),
  partial: z.boolean(),
  cost: z.number().int(),
  credits: z.number().int(),
});
export type ImageGenerationCreated = z.infer<typeof ImageGenerationCreatedSchema>;

/** GET /api/image/history/{userId}?source=kling&grouped=1&group_limit=&group_offset=&q= (002 §7). */
export const GroupedHistoryQuerySchema = z.object({
  grouped: z.enum(['1', 'true']).optional(),
  group_limit: z.coerce.number().int().min(1).max(100).optional(),
  group_offset: z.coerce.number().int().min(0).optional(),
  q: safeText().trim().max(200).optional(),
});
export type GroupedHistoryQuery = z.infer<typeof GroupedHistoryQuerySchema>;

/** POST /api/image/result-to-upload: one of the caller's results copied into a new confirmed upload (send-to-upscale). */
export const ResultToUploadRequestSchema = z.object({ url: imageUrlText(4096) }).strict();
