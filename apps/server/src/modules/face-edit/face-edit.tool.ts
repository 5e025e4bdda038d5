import { randomInt } from 'node:crypto';
import { FACE_EDIT, FaceEditInputSchema, faceEditCost } from '@dewy/contracts';
import { AppError } from '../../lib/app-error';
import { defineTool } from '../tool-jobs';
import { maskHasPaint } from '../uploads';

/**
 * Face edit (spec 001 §2–§9, issue 11) as a tool of the kernel: `POST /api/runpod-face-edit {input}`.
 * The image and the mask must be the caller's confirmed uploads; the cost is the spec's formula on the
 * stored photo's real size (brought to width + height = 3000 unless within 2 %) times the resize
 * factor; the seed is the server's when the page sent none. The engine (local inpainting or RunPod,
 * FACE_EDIT_ENGINE: the engine registry's `face-edit`) gets the photo and the mask.
 */
export const faceEditTool = defineTool({
  name: 'face-edit',
  source: 'face_edit',
  jobName: 'face-edit',
  engine: 'face-edit',
  input: FaceEditInputSchema,
  imageUrlOf: (input) => input.image,
  extraUploadsOf: (input) => ({ mask: input.mask }),
  async prepare(input, upload, app, extras, engine) {
    if (!upload) throw new AppError('VALIDATION_FAILED', { message: 'face edit needs an image' });
    if (!extras.mask && engine.needsMask) throw new AppError('MASK_REQUIRED');
    if (extras.mask && !(await maskHasPaint(await app.storage.get(extras.mask.key)))) throw new AppError('MASK_EMPTY');
    return {
      input: { ...input, seed: input.seed ?? randomInt(FACE_EDIT.seed.min, FACE_EDIT.seed.max + 1) },
      cost: faceEditCost(upload.width, upload.height, input.resize_factor),
    };
  },
  async run(job, input) {
    const { row } = job;
    return job.engine.run(
      {
        imageBytes: await job.readOriginal(),
        imageUrl: await job.originalUrl(),
        maskBytes: input.mask ? await job.readUpload(input.mask) : null,
        maskUrl: input.mask ? await job.signedUploadUrl(input.mask) : null,
        width: row.originalWidth!,
        height: row.originalHeight!,
        input: { ...input, seed: input.seed ?? row.seed ?? 1 },
      },
      job.signal,
      (stage, f) => job.progress(stage, Math.min(0.99, Math.max(0, f))),
    );
  },
});
