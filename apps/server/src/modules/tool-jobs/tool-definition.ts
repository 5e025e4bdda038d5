import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { HistoryImage, HistorySource, JobErrorCode, ToolJobCreated } from '@dewy/contracts';
import type { AppContext, AppServices } from '../../context';
import type { JobRow } from '../../db/schema';
import type { JobName } from '../../jobs/job-map';
import type { Capability, EngineMap } from '../../providers/engine-registry';

/** The stored upload a tool reads: its real size as the server measured it (px). */
export interface ToolUpload {
  key: string;
  width: number;
  height: number;
}

/** What the kernel hands a tool's `run`: the job's row, its engine, its original, progress reporting, a logger. */
export interface ToolRunContext<C extends Capability = Capability> {
  app: AppServices;
  /** The engine of the tool's capability, from the context's engine registry. */
  engine: EngineMap[C];
  /** The job's history row (owner, job id, original size…), status `processing`. */
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

/** A file sent with a request (a multipart part), as received. */
export interface ToolRequestFile {
  filename: string;
  bytes: Buffer;
}

/**
 * How a tool accepts files sent with the request (multipart) before anything is charged (decision 035).
 * The kernel, in this order: asks `check` (nothing stored yet); fingerprints each file by its bytes for
 * the Idempotency-Key; answers a replay; refuses a caller whose balance is below `costBeforeFiles`;
 * stores each file through the upload pipeline as a confirmed upload of `kind` (re-encoded, screened,
 * quota) and puts its URL into the input under `fields[field]`; then prices and charges as for any
 * input. When the charge or anything after it fails, or a parallel request under the same key made the
 * job, the stored files are discarded: nothing is left behind.
 */
export interface ToolFiles<S extends z.ZodType = z.ZodType> {
  /** Multipart file field → the input key that carries the stored upload's URL (null when not sent). */
  fields: Readonly<Record<string, string>>;
  /** The form's text fields (strings as sent) → the input without its file keys. VALIDATION_FAILED otherwise. */
  form: z.ZodType<Record<string, unknown>>;
  /** Largest file read from the request (bytes); IMAGE_TOO_LARGE over it. */
  maxBytes: number;
  /** Upload kind of the stored files (uploads.kind). */
  kind: string;
  /**
   * Checks the request and its files before anything is stored (type by extension and bytes, rules
   * that depend on whether a file came); throws AppError.
   * @param files the non-empty files sent, by multipart field
   * @returns the bytes to store for each field (e.g. WebP converted to PNG)
   */
  check(input: z.infer<S>, files: Readonly<Record<string, ToolRequestFile>>, app: AppContext): Promise<Record<string, Buffer>>;
  /**
   * Credits the request costs, known before its files are stored (credits, integer): a caller whose
   * balance is lower is refused INSUFFICIENT_CREDITS before anything is stored and screened. The charge
   * itself is `prepare`'s cost, under the balance lock.
   */
  costBeforeFiles?(input: z.infer<S>): number;
}

/** The fields of the generic history item (001 §3) that only some tools fill: their task ids. */
export type ToolHistoryFields = Partial<Pick<HistoryImage, 'kling_task_id' | 'seedream_task_id'>>;

/**
 * How a tool's rows appear to the page (decision 035), in the spec's shapes. The generic presenters
 * (`/api/image/status`, `/api/image/history`) ask the tool for its parts; a tool with its own endpoints
 * (image edit's `/api/seedream/status/:id` and `/api/seedream/history`) declares their shapes here too,
 * and its routes serve them through the kernel's `findToolJob` / `toolJobsPage`. Every part is optional.
 */
export interface ToolPresenter {
  /** The answer of the tool's start route for a created (or replayed) job; default the kernel's `ToolJobCreated`. */
  created?(job: ToolJobCreated): unknown;
  /** Whether a completed row delivered less than was paid for (the rest refunded); default `meta.partial === true`. */
  partial?(row: JobRow): boolean;
  /** The tool's own fields of a history item (its vendor task id); default none (null). */
  historyFields?(row: JobRow): ToolHistoryFields;
  /** The public id of a job when it is not the bare job id (image edit: `seedream-<jobId>`), and back (null: not one of ours). */
  taskId?: { of(jobId: string): string; jobIdOf(taskId: string): string | null };
  /** The tool's own status answer for one of the caller's rows. */
  status?(ctx: AppContext, row: JobRow): Promise<unknown>;
  /** The tool's own history answer for a page of the caller's rows. */
  history?(ctx: AppContext, page: ToolJobsPage, query: { status?: string; limit: number; offset: number }): Promise<unknown>;
}

/** A page of one caller's job rows, newest first (see the kernel's `toolJobsPage`). */
export interface ToolJobsPage {
  rows: JobRow[];
  hasMore: boolean;
  /** The offset of the next page, null on the last. */
  nextOffset: number | null;
}

/**
 * A paid tool (GUIDE §3): everything the kernel needs to charge, queue, run, store, complete or refund,
 * recover and present one kind of job — its input, its price, the files it accepts, the engine it runs
 * on, and how its rows look to the page. Nothing of the kernel knows a tool by name; `src/tools.ts`
 * lists them.
 *
 * @typeParam S the zod schema of the request input (the wire shape of the spec); the worker parses the
 *   stored input with the same schema, so what runs is exactly what was validated and charged.
 * @typeParam C the capability of the engine registry it runs on
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType, C extends Capability = Capability> {
  /** Tool name: logs, ledger reason, idempotency scope. */
  name: string;
  /** History source of its rows (spec 001 §3 `source`). */
  source: HistorySource;
  /** Queue job name, stored on each row so recovery asks the right queue. */
  jobName: JobName;
  /**
   * The capability it runs on (decision 035): the kernel answers NOT_CONFIGURED before anything is
   * stored or charged when the registry has no engine for it, records the engine's name on the row,
   * and hands the engine to `run` (and `prepare`).
   */
  engine: C;
  /** Request input schema (contracts). */
  input: S;
  /** The image URL of the input that names the caller's stored upload, if the tool reads one. */
  imageUrlOf(input: z.infer<S>): string | undefined;
  /**
   * Further uploads the input names, by role (e.g. `{ mask: input.mask }`); null/undefined = none.
   * Each must be the caller's confirmed upload, checked before anything is charged, like the image.
   */
  extraUploadsOf?(input: z.infer<S>): Record<string, string | null | undefined>;
  /** Files the request itself carries (multipart), accepted before charging; see {@link ToolFiles}. */
  files?: ToolFiles<S>;
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
    engine: EngineMap[C],
  ): { input: z.infer<S>; cost: number } | Promise<{ input: z.infer<S>; cost: number }>;
  /**
   * Jobs of this tool one worker process runs at once (a vendor's concurrency limit); default the
   * process-wide WORKER_CONCURRENCY.
   */
  concurrency?(app: AppServices): number;
  /**
   * Runs the job to its image; rejects on failure (the kernel refunds). The job stores why it failed
   * (decision 034): an AppError's code or a JobFailure's `failureCode`, else JOB_FAILED.
   */
  run(ctx: ToolRunContext<C>, input: z.infer<S>): Promise<ToolOutput>;
  /**
   * Generated images go through the content screen before they are stored (the same moderator as
   * uploads, 001 §8): a flagged image is dropped and its `creditsPerImage` refunded with the completion,
   * as a partial result; when every image is flagged the job fails with `failCode` (the code the tool's
   * page already explains for a vendor's own safety refusal) and is refunded in full. A screen that
   * cannot run fails the job (closed, as for uploads). Omit for tools whose output is the customer's own
   * photo retouched.
   */
  screenResults?: { creditsPerImage: number; failCode: JobErrorCode };
  /** How its rows appear to the page; see {@link ToolPresenter}. */
  present?: ToolPresenter;
}

/**
 * Identity helper that keeps a definition's input type, capability and presenter inferred (the
 * presenter's own answer types reach the tool's routes; an omitted presenter is `{}`).
 */
export function defineTool<S extends z.ZodType, C extends Capability, P extends ToolPresenter = Record<never, never>>(
  tool: Omit<ToolDefinition<S, C>, 'present'> & { present?: P },
): Omit<ToolDefinition<S, C>, 'present'> & { present: P } {
  return { ...tool, present: tool.present ?? ({} as P) };
}
