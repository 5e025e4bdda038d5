import { randomInt } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import { IMAGE_EDIT, SeedreamGenerateRequestSchema, imageEditCost } from '@dewy/contracts';
import { uploads } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { SeedreamError, type SeedreamImage } from '../../providers/seedream/seedream.client';
import { maskHasPaint } from '../uploads';
import { defineTool, type ToolImage } from '../tool-jobs';
import { imageEditPresenter } from './image-edit.presenter';
import { compositeOutsideMask, vendorReference } from './mask-merge';

/** The stored input of an image-edit job: the request without the transport-only `async` flag. */
export const ImageEditInputSchema = SeedreamGenerateRequestSchema.omit({ async: true });

/** Image 1's size brought within 4096 px on its longest side (`WxH`), the output size of a masked edit. */
export function maskedSize(width: number, height: number): string {
  const k = Math.min(1, IMAGE_EDIT.side.max / Math.max(width, height));
  return `${Math.max(1, Math.round(width * k))}x${Math.max(1, Math.round(height * k))}`;
}

/**
 * Image edit (spec 002 §2–§9, issue 16, decision 023) as a tool of the kernel: `POST
 * /api/seedream/generate`. Every reference (1–8) and the mask must be the caller's confirmed uploads;
 * each reference has at least 921 600 pixels (IMAGE_EDIT_TOO_SMALL otherwise; the 9 MB cap is checked
 * at upload); a mask must have paint (MASK_EMPTY). Cost 15 credits per ordered image (`num_images`),
 * nothing charged while the vendor is not configured (the `image-edit` capability of the engine
 * registry, SEEDREAM_API_KEY: NOT_CONFIGURED). The seed is the server's when the page sent none. With a
 * mask, the output size is image 1's (see `maskedSize`). Its rows are presented by `imageEditPresenter`
 * (the `seedream-<jobId>` task id, its own status and history shapes).
 *
 * The run asks the vendor for images until `num_images` are made, at most `num_images` calls of up to
 * `max_images` each (sequential generation when > 1). No image at all fails the job (refund, with the
 * vendor's code); fewer than ordered completes it and returns 15 credits per missing image.
 */
export const imageEditTool = defineTool({
  name: 'image-edit',
  source: 'seedream',
  jobName: 'image-edit',
  engine: 'image-edit',
  screenResults: { creditsPerImage: IMAGE_EDIT.costPerImage, failCode: 'OutputImageSensitiveContentDetected' },
  input: ImageEditInputSchema,
  imageUrlOf: (input) => input.images[0],
  extraUploadsOf: (input) => {
    const extra: Record<string, string | null | undefined> = { mask: input.mask };
    input.images.slice(1).forEach((url, i) => (extra[`ref${i + 2}`] = url));
    return extra;
  },
  async prepare(input, upload, app, extras) {
    if (!upload) throw new AppError('VALIDATION_FAILED', { message: 'image edit needs an image' });
    const refs = [upload, ...Object.entries(extras).filter(([role]) => role.startsWith('ref')).map(([, u]) => u)];
    for (const [i, ref] of refs.entries()) {
      if (ref.width * ref.height < IMAGE_EDIT.minPixels) {
        throw new AppError('IMAGE_EDIT_TOO_SMALL', { details: { index: i, width: ref.width, height: ref.height, minPixels: IMAGE_EDIT.minPixels } });
      }
    }
    // Uploads made before the 9 MB rule (or by another path) are held to it here as well.
    const rows = await app.database.db.select({ key: uploads.key, bytes: uploads.bytes }).from(uploads).where(inArray(uploads.key, refs.map((r) => r.key)));
    if (rows.some((r) => r.bytes > IMAGE_EDIT.maxBytes)) throw new AppError('IMAGE_EDIT_FILE_TOO_LARGE');
    if (extras.mask && !(await maskHasPaint(await app.storage.get(extras.mask.key)))) throw new AppError('MASK_EMPTY');
    return {
      input: {
        ...input,
        // With a mask the result is image 1 with only the painted area changed: it keeps image 1's frame
        // (decision 023), so the vendor is asked for image 1's size (longest side at most 4096).
        size: extras.mask ? maskedSize(upload.width, upload.height) : input.size,
        seed: input.seed ?? randomInt(IMAGE_EDIT.seed.min, IMAGE_EDIT.seed.max + 1),
      },
      cost: imageEditCost(input.num_images),
    };
  },
  concurrency: (app) => app.config.seedream.concurrency,
  present: imageEditPresenter,
  async run(job, input) {
    const client = job.engine;
    const first = await job.readOriginal();
    const mask = input.mask ? await job.readUpload(input.mask) : null;
    const references = [await vendorReference(first, mask ? { bytes: mask, color: input.mask_color } : undefined)];
    for (const url of input.images.slice(1)) references.push(await vendorReference(await job.readUpload(url)));
    job.progress('vendor', 0.1);

    const ordered = input.num_images;
    const made: SeedreamImage[] = [];
    const failures: { code: string; message: string }[] = [];
    let calls = 0;
    while (made.length < ordered && calls < ordered) {
      calls++;
      try {
        const res = await client.generate({ prompt: input.prompt, images: references, size: input.size, maxImages: Math.min(input.max_images, ordered - made.length), seed: input.seed }, job.signal);
        made.push(...res.images);
        failures.push(...res.failures);
      } catch (err) {
        if (made.length === 0 || job.signal.aborted) throw err;
        failures.push({ code: err instanceof SeedreamError ? err.code : 'GenerationFailed', message: err instanceof Error ? err.message : String(err) });
        break;
      }
      job.progress('vendor', 0.1 + 0.8 * Math.min(1, made.length / ordered));
    }
    if (made.length === 0) {
      const f = failures[0] ?? { code: 'GenerationFailed', message: 'the vendor returned no image' };
      throw new SeedreamError(f.code, f.message);
    }

    const delivered: ToolImage[] = [];
    for (const img of made.slice(0, ordered)) {
      if (mask) {
        const c = await compositeOutsideMask(img.bytes, first, mask);
        delivered.push({ bytes: c.bytes, format: 'jpg', width: c.width, height: c.height });
      } else {
        delivered.push(img);
      }
    }
    job.progress('store', 0.95);
    const [head, ...rest] = delivered;
    return {
      ...head!,
      more: rest,
      refundCredits: (ordered - delivered.length) * IMAGE_EDIT.costPerImage,
      meta: { model: client.model, ordered, delivered: delivered.length, vendorCalls: calls, masked: Boolean(mask), failures: failures.slice(0, 8) },
    };
  },
});
