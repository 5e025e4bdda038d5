import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { HistorySource, JobErrorCode } from '@dewy/contracts';
import type { AppContext, AppServices } from '../../context';
import type { JobRow } from '../../db/schema';
import type { JobName } from '../../jobs/job-map';

/** The stored upload a tool reads: its real size as the server measured it (px). */
export interface ToolUpload {
  key: string;
  width: number;
  height: number;
}

/** What the kernel hands a tool's `run`: the job's row, its original, progress reporting, a logger. */
export interface ToolRunContext {
  app: AppServices;
  /** The job's row (owner, job id, original size…), status `processing`. */
  row: JobRow;
  /** Aborted on the job's timeout or a hard shutdown: stop and reject. */
  signal: AbortSignal;
  /** The stored original's bytes (JPEG/PNG, re-encoded at upload). @throws when the tool has no original. */
  readOriginal(): Promise<Buffer>;
  /** An absolute signed URL of the original, valid for the job's timeout (for remote workers). */
  originalUrl(): Promise<string>;
  /**
   * The bytes of another of the job owner's confirmed uploads that the input names (a mask, a reference
   * image; see `extraUploadsOf`). @throws AppError FORBIDDEN / NOT_FOUND for anything else.
   */
  readUpload(url: string): Promise<Buffer>;
  /** An absolute signed URL of such an upload, valid for the job's timeout (for remote workers). */
  signedUploadUrl(url: string): Promise<string>;
  /** Reports progress: `stage` (engine stage name), `fraction` 0..1 of the whole job. Throttled by the kernel. */
  progress(stage: string, fraction: number): void;
  log: FastifyBaseLogger;
}

/** One finished image (bytes; size in px). */
export interface ToolImage {
  bytes: Buffer;
  format: 'jpg' | 'png';
  width: number;
  height: number;
}

/** A tool's finished image; the kernel stores it as `u/<userId>/results/<jobId>.<ext>`. */
export interface ToolOutput {
  bytes: Buffer;
  format: 'jpg' | 'png';
  /** Output size (px). */
  width: number;
  height: number;
  /** Free-form facts kept on the row (model used, timings…). */
  meta: Record<string, unknown>;
  /**
   * Further images of a multi-image tool (image generation, image edit), stored as `<jobId>-<n>.<ext>`; every
   * result key of the job is kept in `jobs.result_keys` (decision 024).
   */
  more?: ToolImage[];
  /**
   * Credits to give back on completion for what was paid for but not delivered (a partial result:
   * the missing images). Refunded in the same transaction as the completion, once (decision 024).
   */
  refundCredits?: number;
}

/**
 * A paid tool (GUIDE §3): everything the kernel needs to charge, queue, run, store, complete or refund
 * and recover one kind of job. Nothing of the kernel knows a tool by name; `src/tools.ts` lists them.
 *
 * @typeParam S the zod schema of the request input (the wire shape of the spec); the worker parses the
 *   stored input with the same schema, so what runs is exactly what was validated and charged.
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  /** Tool name: logs, ledger reason, idempotency scope. */
  name: string;
  /** History source of its rows (spec 001 §3 `source`). */
  source: HistorySource;
  /** Queue job name, stored on each row so recovery asks the right queue. */
  jobName: JobName;
  /** Request input schema (contracts). */
  input: S;
  /** The image URL of the input that names the caller's stored upload, if the tool reads one. */
  imageUrlOf(input: z.infer<S>): string | undefined;
  /**
   * Further uploads the input names, by role (e.g. `{ mask: input.mask }`); null/undefined = none.
   * Each must be the caller's confirmed upload, checked before anything is charged, like the image.
   */
  extraUploadsOf?(input: z.infer<S>): Record<string, string | null | undefined>;
  /**
   * Server-side rules and price: checks what the page checks (throws AppError, e.g. UPSCALE_BLOCKED),
   * fills server-chosen fields (seed, rounded factor), and computes the cost in credits from the input
   * and the stored upload — never from anything the page computed.
   * @returns the input to store (must still parse with `input`) and its cost (credits, integer ≥ 0).
   */
  prepare(
    input: z.infer<S>,
    upload: ToolUpload | undefined,
    app: AppContext,
    extras: Readonly<Record<string, ToolUpload>>,
  ): { input: z.infer<S>; cost: number } | Promise<{ input: z.infer<S>; cost: number }>;
  /**
   * Jobs of this tool one worker process runs at once (a vendor's concurrency limit); default the
   * process-wide WORKER_CONCURRENCY.
   */
  concurrency?(app: AppServices): number;
  /** Name of the engine that will run the job (recorded on the row). */
  engineName(app: AppContext): string;
  /**
   * Runs the job to its image; rejects on failure (the kernel refunds). The job stores why it failed
   * (decision 034): an AppError's code or a JobFailure's `failureCode`, else JOB_FAILED.
   */
  run(ctx: ToolRunContext, input: z.infer<S>): Promise<ToolOutput>;
  /**
   * Generated images go through the content screen before they are stored (the same moderator as
   * uploads, 001 §8): a flagged image is dropped and its `creditsPerImage` refunded with the completion,
   * as a partial result; when every image is flagged the job fails with `failCode` (the code the tool's
   * page already explains for a vendor's own safety refusal) and is refunded in full. A screen that
   * cannot run fails the job (closed, as for uploads). Omit for tools whose output is the customer's own
   * photo retouched.
   */
  screenResults?: { creditsPerImage: number; failCode: JobErrorCode };
}

/** Identity helper that keeps a definition's input type inferred. */
export function defineTool<S extends z.ZodType>(tool: ToolDefinition<S>): ToolDefinition<S> {
  return tool;
}
