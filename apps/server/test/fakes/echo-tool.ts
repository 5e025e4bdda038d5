import sharp from 'sharp';
import { z } from 'zod';
import { ToolJobPayloadSchema, type ToolJobPayload } from '../../src/jobs/job-map';
import { JOB_SCHEMAS } from '../../src/jobs/job-map';
import { defineTool } from '../../src/modules/tool-jobs/tool-definition';
import { TOOLS } from '../../src/tools';

declare module '../../src/jobs/job-map' {
  interface JobMap {
    /** The test-only tool's queue. */
    'test-echo': ToolJobPayload;
  }
}

declare module '../../src/providers/engine-registry' {
  interface EngineMap {
    /** The echo tool's engine: a name only (the tool echoes the original itself). */
    echo: { readonly name: string };
  }
}

/** Input of the echo tool: an uploaded image, the price to charge, and how the run should end. */
export const EchoInputSchema = z.object({
  image: z.string(),
  price: z.number().int().min(0),
  mode: z.enum(['ok', 'fail', 'hang']).default('ok'),
  /** A second upload of the caller (as a mask would be), checked by the kernel via extraUploadsOf. */
  mask: z.string().nullable().optional(),
});

/**
 * A second, minimal tool used only in tests: proves that the kernel charges, runs, completes, refunds
 * and recovers a job of any definition. It returns the original as a PNG; `fail` throws; `hang` waits
 * until aborted.
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
    if (input.mode === 'fail') throw new Error('ECHO_FAILED: asked to fail');
    if (input.mode === 'hang') {
      await new Promise((_, reject) => job.signal.addEventListener('abort', () => reject(job.signal.reason)));
    }
    const img = sharp(await job.readOriginal());
    const meta = await img.metadata();
    const maskBytes = input.mask ? (await job.readUpload(input.mask)).length : 0;
    return { bytes: await img.png().toBuffer(), format: 'png', width: meta.width!, height: meta.height!, meta: { echoed: true, ...(maskBytes ? { maskBytes } : {}) } };
  },
});

/** Context overrides that add the echo tool (its queue and its engine) beside the real ones. */
export const withEchoTool = {
  tools: [...TOOLS, echoTool],
  jobSchemas: { ...JOB_SCHEMAS, 'test-echo': ToolJobPayloadSchema },
  engines: { echo: { name: 'echo' } },
};
