import sharp from 'sharp';
import { z } from 'zod';
import { ToolJobPayloadSchema, type ToolJobPayload } from '../../src/jobs/job-map';
import { JOB_SCHEMAS } from '../../src/jobs/job-map';
import { AppError } from '../../src/lib/app-error';
import { defineTool } from '../../src/modules/tool-jobs';
import { TOOLS } from '../../src/tools';

declare module '../../src/jobs/job-map' {
  interface JobMap {
    /** The test-only tool's queue. */
    'test-echo': ToolJobPayload;
    /** The test-only file-taking tool's queue. */
    'test-echo-file': ToolJobPayload;
  }
}

declare module '../../src/providers/engine-registry' {
  interface EngineMap {
    /** The echo tool's engine: a name only (the tool echoes the original itself). */
    echo: { readonly name: string };
  }
}

/**
 * Input of the echo tool: an uploaded image, the price to charge, and how the run should end (`refuse`:
 * a typed failure, AppError VENDOR_BUSY).
 */
export const EchoInputSchema = z.object({
  image: z.string(),
  price: z.number().int().min(0),
  mode: z.enum(['ok', 'fail', 'refuse', 'hang']).default('ok'),
  /** A second upload of the caller (as a mask would be), checked by the kernel via extraUploadsOf. */
  mask: z.string().nullable().optional(),
});

/**
 * A second, minimal tool used only in tests: proves that the kernel charges, runs, completes, refunds
 * and recovers a job of any definition. It returns the original as a PNG; `fail` throws a plain Error;
 * `refuse` an AppError (VENDOR_BUSY); `hang` waits until aborted, then rejects with an AbortError.
 */
export const echoTool = defineTool({
  name: 'echo',
  source: 'product_try',
  jobName: 'test-echo',
  engine: 'echo',
  input: EchoInputSchema,
  imageUrlOf: (input) => input.image,
  extraUploadsOf: (input) => ({ mask: input.mask }),
  prepare: (input, _upload, _app, extras) => ({ input, cost: input.price + (extras.mask ? 1 : 0) }),
  async run(job, input) {
    job.progress('echo', 0.5);
    if (input.mode === 'fail') throw new Error('asked to fail (ECHO_FAILED)');
    if (input.mode === 'refuse') throw new AppError('VENDOR_BUSY', { message: 'the echo vendor is busy' });
    if (input.mode === 'hang') {
      // As a fetch does: an AbortError of its own, not the signal's reason.
      await new Promise((_, reject) => job.signal.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError'))));
    }
    const img = sharp(await job.readOriginal());
    const meta = await img.metadata();
    const maskBytes = input.mask ? (await job.readUpload(input.mask)).length : 0;
    return { bytes: await img.png().toBuffer(), format: 'png', width: meta.width!, height: meta.height!, meta: { echoed: true, ...(maskBytes ? { maskBytes } : {}) } };
  },
});

/** Input of the file-taking echo tool: the stored photo's URL (null until the kernel stores the file), price, mode. */
export const EchoFileInputSchema = z.object({
  photo: z.string().nullable(),
  price: z.number().int().min(0),
  mode: z.enum(['ok', 'refuse']).default('ok'),
});

/**
 * A second test-only tool that takes its photo as a file of the request (multipart field `file`), as
 * image generation takes its reference: proves the kernel's file acceptance for any definition. Its
 * `check` refuses anything but a PNG/JPEG by magic bytes (ECHO: VALIDATION_FAILED); `prepare` in mode
 * `refuse` refuses after the file was stored (the kernel must discard it); the run echoes the stored
 * photo. No `costBeforeFiles`: a caller short of credits is refused by the charge itself.
 */
export const echoFileTool = defineTool({
  name: 'echo-file',
  source: 'product_try',
  jobName: 'test-echo-file',
  engine: 'echo',
  input: EchoFileInputSchema,
  imageUrlOf: (input) => input.photo ?? undefined,
  files: {
    fields: { file: 'photo' },
    form: z.object({ price: z.coerce.number().int().min(0), mode: z.enum(['ok', 'refuse']).default('ok') }),
    maxBytes: 2 * 1024 * 1024,
    kind: 'echo-file',
    async check(_input, files) {
      const file = files.file;
      if (!file) throw new AppError('VALIDATION_FAILED', { message: 'a file is required' });
      const head = file.bytes.subarray(0, 4).toString('hex');
      if (!head.startsWith('89504e47') && !head.startsWith('ffd8ff')) throw new AppError('VALIDATION_FAILED', { message: 'not an image' });
      return { file: file.bytes };
    },
  },
  prepare(input, upload) {
    if (input.mode === 'refuse') throw new AppError('UPSCALE_BLOCKED');
    if (!upload) throw new AppError('INTERNAL', { message: 'the kernel did not resolve the stored file' });
    return { input, cost: input.price };
  },
  async run(job) {
    const img = sharp(await job.readOriginal());
    const meta = await img.metadata();
    return { bytes: await img.png().toBuffer(), format: 'png', width: meta.width!, height: meta.height!, meta: { echoed: true } };
  },
});

/** Context overrides that add the echo tools (their queues and their engine) beside the real ones. */
export const withEchoTool = {
  tools: [...TOOLS, echoTool, echoFileTool],
  jobSchemas: { ...JOB_SCHEMAS, 'test-echo': ToolJobPayloadSchema, 'test-echo-file': ToolJobPayloadSchema },
  engines: { echo: { name: 'echo' } },
};
