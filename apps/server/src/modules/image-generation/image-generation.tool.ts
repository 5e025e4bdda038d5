import { IMAGE_GENERATION, ImageGenerationInputSchema, hasBannedKeyword, imageGenerationCost, klingAspectRatio } from '@dewy/contracts';
import type { AppServices } from '../../context';
import type { KlingConfig } from '../../config';
import { AppError } from '../../lib/app-error';
import type { ImageGenerator } from '../../providers/kling/image-generator';
import { createKlingGenerator } from '../../providers/kling/kling.generator';
import { bannedKeywords } from '../settings/settings.service';
import { defineTool } from '../tool-jobs/tool-definition';

/**
 * The prompt sent with a reference-only run. Kling requires a prompt; the page extracts one from the
 * reference first (002 §4 prompt lock), and this is what goes when it could not (decision 024).
 */
export const REFERENCE_ONLY_PROMPT = 'A high-quality photograph of the same subject as the reference image, keeping their identity, features and style.';

const generators = new WeakMap<KlingConfig, ImageGenerator>();

/**
 * The generator of this process's configuration (one per KLING_* settings, so its token is reused).
 * @throws AppError NOT_CONFIGURED when Kling is not configured.
 */
export function imageGeneratorOf(app: AppServices): ImageGenerator {
  const cfg = app.config.vendors.kling;
  if (!cfg) throw new AppError('NOT_CONFIGURED', { message: 'KLING_ACCESS_KEY / KLING_SECRET_KEY not set' });
  let g = generators.get(cfg);
  if (!g) {
    g = createKlingGenerator(cfg);
    generators.set(cfg, g);
  }
  return g;
}

/**
 * Image generation, the "consistency" tool (spec 002 §2–§9, issue 16), as a tool of the paid-job kernel.
 * Input: prompt, num_images 1..4, aspect_ratio of 002 §5, and the reference image as the caller's
 * confirmed upload (or null). Rules checked on the server before anything is charged: Kling configured
 * (NOT_CONFIGURED), a prompt or a reference (GENERATION_INPUT_REQUIRED), no banned keyword
 * (NSFW_PROMPT_BLOCKED, case-insensitive, the list of modules/settings). Cost: 15 per image (002 §9).
 * Run: Kling generates; every image is stored in our storage at once; a partial result (fewer images
 * than paid for) completes with the missing images' credits refunded in the same transaction; none at
 * all fails and refunds everything (decision 024).
 */
export const imageGenerationTool = defineTool({
  name: 'image-generation',
  source: 'kling',
  jobName: 'kling-generation',
  screenResults: { creditsPerImage: IMAGE_GENERATION.costPerImage, failCode: 'GENERATION_SAFETY_BLOCKED' },
  input: ImageGenerationInputSchema,
  imageUrlOf: (input) => input.reference ?? undefined,
  async prepare(input, upload, app) {
    if (!app.config.vendors.kling) throw new AppError('NOT_CONFIGURED');
    if (!input.prompt && !upload) throw new AppError('GENERATION_INPUT_REQUIRED');
    if (input.prompt && hasBannedKeyword(input.prompt, await bannedKeywords(app))) throw new AppError('NSFW_PROMPT_BLOCKED');
    return { input, cost: imageGenerationCost(input.num_images) };
  },
  concurrency: (app) => app.config.vendors.kling?.concurrency ?? 1,
  engineName: (app) => (app.config.vendors.kling ? `kling:${app.config.vendors.kling.model}` : 'kling'),
  async run(job, input) {
    const generator = imageGeneratorOf(job.app);
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
