import {
  IMAGE_GENERATION,
  ImageGenerationFieldsSchema,
  ImageGenerationInputSchema,
  hasBannedKeyword,
  imageGenerationCost,
  klingAspectRatio,
  type ImageGenerationCreated,
  type ImageGenerationInput,
  type ToolJobCreated,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import type { JobRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { bannedKeywords } from '../settings';
import { defineTool, type ToolRequestFile } from '../tool-jobs';
import { webpToPng } from '../uploads';
import { isWebp, sniffImageType } from '../../lib/image-type';

/**
 * The prompt sent with a reference-only run. Kling requires a prompt; the page extracts one from the
 * reference first (002 §4 prompt lock), and this is what goes when it could not (decision 024).
 */
export const REFERENCE_ONLY_PROMPT = 'A high-quality photograph of the same subject as the reference image, keeping their identity, features and style.';

/** The multipart file field of the reference image (002 §3). */
export const REFERENCE_FIELD = 'character_reference_images';

/** Largest reference file read from the request (bytes); Kling's own limit is 10 MB. */
const MAX_REFERENCE_BYTES = 10 * 1024 * 1024;

/**
 * The rules of a generation request that need no stored file, in the order the page checks them: a
 * prompt or a reference (GENERATION_INPUT_REQUIRED), no banned keyword (NSFW_PROMPT_BLOCKED,
 * case-insensitive, the list of modules/settings).
 */
async function assertGenerationRules(input: ImageGenerationInput, hasReference: boolean, app: AppContext): Promise<void> {
  if (!input.prompt && !hasReference) throw new AppError('GENERATION_INPUT_REQUIRED');
  if (input.prompt && hasBannedKeyword(input.prompt, await bannedKeywords(app))) throw new AppError('NSFW_PROMPT_BLOCKED');
}

/**
 * The reference file as sent: its extension and bytes are jpg/jpeg/png/webp (GENERATION_IMAGE_TYPE);
 * WebP is converted to PNG (upright) for the upload pipeline, which takes JPEG and PNG.
 * @returns the bytes to store
 * @throws AppError GENERATION_IMAGE_TYPE, IMAGE_TOO_LARGE, IMAGE_TOO_MANY_PIXELS, IMAGE_CORRUPT
 */
async function referenceBytes(file: ToolRequestFile): Promise<Buffer> {
  const ext = file.filename.toLowerCase().split('.').pop() ?? '';
  const known = (IMAGE_GENERATION.extensions as readonly string[]).includes(ext);
  const webp = isWebp(file.bytes);
  if (!known || (!sniffImageType(file.bytes) && !webp)) throw new AppError('GENERATION_IMAGE_TYPE');
  return webpToPng(file.bytes);
}

/** Kling's task id of a row (history `kling_task_id`), kept in its meta by `run`. */
function klingTaskIdOf(row: JobRow): string | null {
  const id = (row.meta as { klingTaskId?: unknown } | null)?.klingTaskId;
  return typeof id === 'string' ? id : null;
}

/**
 * Image generation, the "consistency" tool (spec 002 §2–§9, issue 16), as a tool of the paid-job kernel,
 * on the engine registry's `image-generation` (Kling; NOT_CONFIGURED before anything when it is not).
 * `POST /api/kling/image-generation` is multipart (002 §7): the text fields prompt, num_images 1..4,
 * aspect_ratio of 002 §5 (VALIDATION_FAILED otherwise), and an optional reference file
 * (`character_reference_images`). Before anything is stored or charged: a prompt or a reference
 * (GENERATION_INPUT_REQUIRED), no banned keyword (NSFW_PROMPT_BLOCKED), the file's type
 * (GENERATION_IMAGE_TYPE), the balance covers the cost (INSUFFICIENT_CREDITS); then the kernel stores
 * the reference through the upload pipeline as a confirmed upload of kind `kling-ref` (re-encoded,
 * screened) and charges, records and queues the job in one transaction. A retry under the same
 * Idempotency-Key with the same reference file replays the first job (the file is fingerprinted by its
 * bytes). Cost: 15 per image (002 §9).
 * Run: Kling generates; every image is stored in our storage at once; a partial result (fewer images
 * than paid for) completes with the missing images' credits refunded in the same transaction; none at
 * all fails and refunds everything (decision 024). Presented with `taskId` = the job id, and Kling's
 * task id in history items.
 */
export const imageGenerationTool = defineTool({
  name: 'image-generation',
  source: 'kling',
  jobName: 'kling-generation',
  engine: 'image-generation',
  screenResults: { creditsPerImage: IMAGE_GENERATION.costPerImage, failCode: 'GENERATION_SAFETY_BLOCKED' },
  input: ImageGenerationInputSchema,
  imageUrlOf: (input) => input.reference ?? undefined,
  files: {
    fields: { [REFERENCE_FIELD]: 'reference' },
    form: ImageGenerationFieldsSchema,
    maxBytes: MAX_REFERENCE_BYTES,
    kind: 'kling-ref',
    async check(input, files, app) {
      const file = files[REFERENCE_FIELD];
      await assertGenerationRules(input, Boolean(file), app);
      const toStore: Record<string, Buffer> = {};
      if (file) toStore[REFERENCE_FIELD] = await referenceBytes(file);
      return toStore;
    },
    costBeforeFiles: (input) => imageGenerationCost(input.num_images),
  },
  async prepare(input, upload, app) {
    await assertGenerationRules(input, Boolean(upload), app);
    return { input, cost: imageGenerationCost(input.num_images) };
  },
  concurrency: (app) => app.config.vendors.kling?.concurrency ?? 1,
  present: {
    /** The answer of POST /api/kling/image-generation (002 §3): queued; the page polls `taskId` (the job id). */
    created: (job: ToolJobCreated): ImageGenerationCreated => ({ success: true, status: job.status, taskId: job.jobId, images: [], partial: false, cost: job.cost, credits: job.credits }),
    historyFields: (row: JobRow) => ({ kling_task_id: klingTaskIdOf(row) }),
  },
  async run(job, input) {
    const generator = job.engine;
    job.progress('submit', 0.05);
    const result = await generator.generate(
      {
        prompt: input.prompt || REFERENCE_ONLY_PROMPT,
        count: input.num_images,
        aspectRatio: klingAspectRatio(input.aspect_ratio),
        reference: input.reference ? await job.readOriginal() : null,
      },
      job.signal,
      (taskId) => {
        job.log.info({ klingTaskId: taskId }, 'kling task created');
        job.progress('generate', 0.2);
      },
    );
    const [first, ...more] = result.images;
    if (!first) throw new AppError('GENERATION_FAILED', { message: `kling task ${result.taskId}: succeeded without images` });
    const missing = input.num_images - result.images.length;
    job.progress('store', 0.95);
    return {
      bytes: first.bytes,
      format: first.format,
      width: first.width,
      height: first.height,
      more,
      refundCredits: missing > 0 ? missing * IMAGE_GENERATION.costPerImage : 0,
      meta: { klingTaskId: result.taskId, requested: input.num_images, delivered: result.images.length, partial: missing > 0, model: generator.name },
    };
  },
});
