import sharp from 'sharp';
import { z } from 'zod';
import { JOB_SCHEMAS, ToolJobPayloadSchema, type ToolJobPayload } from '../../src/jobs/job-map';
import { defineTool } from '../../src/modules/tool-jobs';
import { TOOLS } from '../../src/tools';

declare module '../../src/jobs/job-map' {
  interface JobMap {
    /** The latch tool's queue (fair-queueing tests). */
    'test-latch': ToolJobPayload;
  }
}

declare module '../../src/providers/engine-registry' {
  interface EngineMap {
    /** The latch tool's engine: each job blocks until the test releases it. */
    latch: LatchEngine;
  }
}

/** A job the latch engine is running: whose, which, and how to let it finish. */
export interface HeldJob {
  userId: number;
  jobId: string;
}

/**
 * An engine whose jobs start, say so, and block until the test releases them (no timing: the test
 * decides when each job ends). `started` lists every job in the order it started.
 */
export interface LatchEngine {
  readonly name: string;
  readonly started: HeldJob[];
  /** Resolves once at least `n` jobs have started (rejects after `deadlineMs`: a deadline, no verdict). */
  startedCount(n: number, deadlineMs?: number): Promise<HeldJob[]>;
  /** Lets the oldest blocked job finish. @throws Error when none is blocked */
  releaseOne(): void;
  /** Lets every blocked job finish, and every later one run straight through until `close`. */
  releaseAll(): void;
  /** Makes later jobs block again (after `releaseAll`). */
  close(): void;
  /** Blocks the calling job until released, or rejects when `signal` aborts (the tool's run). */
  hold(job: HeldJob, signal: AbortSignal): Promise<void>;
}

/** A new latch engine (one per test app). */
export function createLatchEngine(): LatchEngine {
  const started: HeldJob[] = [];
  const blocked: (() => void)[] = [];
  const waiters: { n: number; resolve: (v: HeldJob[]) => void }[] = [];
  let open = false;
  const notify = () => {
    for (const w of [...waiters]) {
      if (started.length >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(started.slice());
      }
    }
  };
  return {
    name: 'latch',
    started,
    startedCount(n, deadlineMs = 60_000) {
      if (started.length >= n) return Promise.resolve(started.slice());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`only ${started.length} of ${n} jobs started`)), deadlineMs);
        waiters.push({ n, resolve: (v) => (clearTimeout(timer), resolve(v)) });
      });
    },
    releaseOne() {
      const next = blocked.shift();
      if (!next) throw new Error('no job is blocked');
      next();
    },
    releaseAll() {
      open = true;
      while (blocked.length) blocked.shift()!();
    },
    close() {
      open = false;
    },
    hold(job, signal) {
      started.push(job);
      notify();
      if (open) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        blocked.push(resolve);
        signal.addEventListener('abort', () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted')), { once: true });
      });
    },
  };
}

const ONE_PIXEL = sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer();

/**
 * A test-only tool that costs 1 credit, reads no upload, and runs on the `latch` capability: its job
 * holds on the latch, then returns a 1×1 PNG. For tests of the queue's order.
 */
export const latchTool = defineTool({
  name: 'latch',
  source: 'product_try',
  jobName: 'test-latch',
  engine: 'latch',
  input: z.object({ n: z.number().int() }),
  imageUrlOf: () => undefined,
  prepare: (input) => ({ input, cost: 1 }),
  async run(job) {
    await job.engine.hold({ userId: job.row.userId, jobId: job.row.jobId }, job.signal);
    return { bytes: await ONE_PIXEL, format: 'png', width: 1, height: 1, meta: {} };
  },
});

/** Context overrides that add the latch tool (its queue and the given engine) beside the real tools. */
export function withLatchTool(engine: LatchEngine) {
  return {
    tools: [...TOOLS, latchTool],
    jobSchemas: { ...JOB_SCHEMAS, 'test-latch': ToolJobPayloadSchema },
    engines: { latch: engine },
  };
}
