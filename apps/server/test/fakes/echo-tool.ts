import sharp from 'sharp';
import { z } from 'zod';
import { ToolJobPayloadSchema, type ToolJobPayload } from '../../src/jobs/job-map';
import { JOB_SCHEMAS } from '../../src/jobs/job-map';
import { AppError } from '../../src/lib/app-error';
import { defineTool } from '../../src/modules/tool-jobs/tool-definition';
import { TOOLS } from '../../src/tools';

declare module '../../src/jobs/job-map' {
  interface JobMap {
    /** The test-only tool's queue. */
    'test-echo': ToolJobPayload;
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
  input: EchoInputSchema,
  imageUrlOf: (input) => input.image,
  extraUploadsOf: (input) => ({ mask: input.mask }),
  prepare: (input, _upload, _app, extras) => ({ input, cost: input.price + (extras.mask ? 1 : 0) }),
  engineName: () => 'echo',
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

/** Context overrides that add the echo tool beside the real ones. */
export const withEchoTool = {
  tools: [...TOOLS, echoTool],
  jobSchemas: { ...JOB_SCHEMAS, 'test-echo': ToolJobPayloadSchema },
};
