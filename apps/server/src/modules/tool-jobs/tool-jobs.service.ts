import { createHash, randomUUID } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { z } from 'zod';
import type { HistorySource, JobStatus, ToolJobCreated } from '@dewy/contracts';
import type { AppContext } from '../../context';
import type { JobRow } from '../../db/schema';
import type { DbOrTx } from '../../db/client';
import { jobs } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import type { StoredFailure } from '../../lib/job-failure';
import { getBalance, refund, spend } from '../credits';
import { ownedKeyFromUrl, getConfirmedUpload } from '../uploads';
import { assertNotInMaintenance } from '../settings';
import type { Capability } from '../../providers/engine-registry';
import type { ToolDefinition, ToolRequestFile, ToolUpload } from './tool-definition';
import { acceptFiles, fingerprintedInput, sentFiles } from './tool-jobs.files';
import { recordJobWebhook } from './job-webhooks';

/** JSON with object keys sorted, so the same input always hashes the same. */
function canonicalJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonicalJson(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

const sha256Hex = (s: string) => createHash('sha256').update(s).digest('hex');

/** The answer for a job that already exists under an idempotency key; 422 when the body differs. */
function replayAnswer(prior: JobRow, requestHash: string, credits: number): ToolJobCreated {
  // Rows made before request hashes were recorded (null) keep answering their first job.
  if (prior.requestHash !== null && prior.requestHash !== requestHash) throw new AppError('IDEMPOTENCY_KEY_REUSED');
  return { success: true, jobId: prior.jobId, imageId: prior.id, status: prior.status, cost: prior.cost, credits };
}

/** The key a tool's spend and job row carry for the caller's Idempotency-Key (scoped to tool and user). */
function idempotentSpendKey(tool: { jobName: string }, userId: number, idempotencyKey: string): string {
  return `${tool.jobName}:${userId}:${sha256Hex(idempotencyKey).slice(0, 32)}`;
}

/**
 * A request's fingerprint for idempotency (sha256 hex of its canonical JSON: key order does not
 * matter). A tool whose request carries a file fingerprints the file's bytes (their sha256), not where
 * it was stored, so that a retry of the same request matches.
 */
export function requestFingerprint(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}

/**
 * The answer to a retried request: when the caller's Idempotency-Key already started a job of this
 * tool, that job (nothing charged again), else null. Call it before any work that a retry must not
 * repeat (storing a file, checking the balance that the first request already spent).
 * @param requestHash the request's {@link requestFingerprint}
 * @throws AppError IDEMPOTENCY_KEY_REUSED when the key started a job with another request
 */
async function replayIdempotentJob(ctx: AppContext, tool: { jobName: string }, userId: number, idempotencyKey: string | undefined, requestHash: string): Promise<ToolJobCreated | null> {
  if (!idempotencyKey) return null;
  const db = ctx.database.db;
  const prior = (await db.select().from(jobs).where(eq(jobs.spendKey, idempotentSpendKey(tool, userId, idempotencyKey))))[0];
  return prior ? replayAnswer(prior, requestHash, (await getBalance(db, userId)).total) : null;
}

/** The caller a job is queued for, for fair queueing (decision 035): one key per user today; an API key later. */
export function fairKeyOf(userId: number): string {
  return `user:${userId}`;
}

/**
 * Who starts a job (decision 034): the signed-in user today; an API key of the user once issue 24 adds
 * them. The job is always the user's (`jobs.user_id`): the credits and the history are the user's.
 */
export type JobActor = { kind: 'user'; userId: number } | { kind: 'api_key'; userId: number; apiKeyId: number };

/** The actor of a job the signed-in user starts. */
export const userActor = (userId: number): JobActor => ({ kind: 'user', userId });

/**
 * Starts a paid job of any tool (GUIDE §3): the kernel's one path from a validated request to a queued
 * job, in this order (decision 035):
 * 1. the tool's engine capability is configured (NOT_CONFIGURED otherwise, nothing stored or charged);
 * 2. the request's files, if the tool takes any, are checked as sent (`tool.files.check`);
 * 3. a retry under the same Idempotency-Key answers the first job (files fingerprinted by their bytes);
 * 4. maintenance; a balance below the tool's `costBeforeFiles` is refused before any file is stored;
 * 5. the files are accepted: stored as confirmed uploads of the caller, their URLs put into the input;
 * 6. the input's image and further uploads resolve to confirmed uploads of the caller (FORBIDDEN /
 *    NOT_FOUND otherwise), and the tool checks and prices the input on the server (`tool.prepare`);
 * 7. ONE transaction debits the ledger (one-time credits first), inserts the history row (status
 *    `processing`, the tool's job name, the engine's name) and enqueues the job with a fair priority
 *    for its caller (`fairKeyOf`) — all or nothing.
 * Files stored in step 5 are discarded when anything after fails, or when a parallel request under the
 * same key made the job.
 *
 * Idempotency-Key (optional): the key is scoped to the user and the tool and remembered for as long
 * as the job's row and ledger entry exist (today: for good). The same key with the same body answers
 * the first job without charging again; with another body it answers 422 IDEMPOTENCY_KEY_REUSED [Stripe].
 *
 * @param actor who starts the job ({@link userActor} for the signed-in user); the job is `actor.userId`'s
 * @param input the request input as the tool's schema parsed it (for a tool with files: without their URLs, null)
 * @param opts.files the non-empty files of the request by multipart field (tools with `files` only)
 * @param opts.batchId the batch the job belongs to (`jobs.batch_id`, decision 040 §4)
 * @param opts.webhookUrl where the job's end is POSTed, signed (an API key's jobs only; checked by the caller, decision 040 §3)
 * @throws AppError NOT_CONFIGURED, FORBIDDEN, NOT_FOUND, INSUFFICIENT_CREDITS, IDEMPOTENCY_KEY_REUSED, the upload pipeline's codes and the tool's own codes
 */
export async function createToolJob<S extends z.ZodType, C extends Capability>(
  ctx: AppContext,
  tool: ToolDefinition<S, C>,
  actor: JobActor,
  input: z.infer<S>,
  opts: { idempotencyKey?: string; files?: Readonly<Record<string, ToolRequestFile>>; webhookUrl?: string; batchId?: string } = {},
): Promise<ToolJobCreated> {
  const db = ctx.database.db;
  const userId = actor.userId;
  const engine = ctx.engines.get(tool.engine);
  const sent = tool.files ? sentFiles(tool.files, opts.files) : {};
  const toStore = tool.files ? await tool.files.check(input, sent, ctx) : {};
  const fingerprinted = tool.files ? fingerprintedInput(tool.files, input, sent) : input;
  // The webhook address is part of the request: the same Idempotency-Key with another one is another body.
  const requestHash = requestFingerprint(opts.webhookUrl ? { input: fingerprinted, webhookUrl: opts.webhookUrl } : fingerprinted);
  const spendKey = opts.idempotencyKey ? idempotentSpendKey(tool, userId, opts.idempotencyKey) : `${tool.jobName}:${userId}:${randomUUID()}`;
  const replay = await replayIdempotentJob(ctx, tool, userId, opts.idempotencyKey, requestHash);
  if (replay) return replay;

  await assertNotInMaintenance(ctx);
  const minimum = Object.keys(toStore).length ? (tool.files?.costBeforeFiles?.(input) ?? 0) : 0;
  if (minimum > 0 && (await getBalance(db, userId)).total < minimum) {
    // A parallel request under the same key may have charged since the replay check above: answer its job.
    const late = await replayIdempotentJob(ctx, tool, userId, opts.idempotencyKey, requestHash);
    if (late) return late;
    throw new AppError('INSUFFICIENT_CREDITS');
  }
  const accepted = await acceptFiles(ctx, tool.files, userId, toStore);
  let keepFiles = false;
  try {
    const full = { ...(input as Record<string, unknown>), ...accepted.inputFields } as z.infer<S>;
    const imageUrl = tool.imageUrlOf(full);
    let upload: ToolUpload | undefined;
    if (imageUrl !== undefined) {
      const key = ownedKeyFromUrl(ctx, userId, imageUrl);
      const found = await getConfirmedUpload(ctx, userId, key);
      upload = { key, width: found.width, height: found.height };
    }
    const extras: Record<string, ToolUpload> = {};
    for (const [role, url] of Object.entries(tool.extraUploadsOf?.(full) ?? {})) {
      if (!url) continue;
      const key = ownedKeyFromUrl(ctx, userId, url);
      const found = await getConfirmedUpload(ctx, userId, key);
      extras[role] = { key, width: found.width, height: found.height };
    }
    const prepared = await tool.prepare(full, upload, ctx, extras, engine);
    const stored = tool.input.parse(prepared.input) as Record<string, unknown>;

    const made = await inTransaction(db, async (tx) => {
      const charged = await spend(tx, { userId, amount: prepared.cost, reason: { code: 'tool_job', source: tool.source }, idempotencyKey: spendKey });
      if (charged.replayed) {
        // A parallel request under the same key made the job: answer it (its files are not ours).
        const prior = (await tx.select().from(jobs).where(eq(jobs.spendKey, spendKey)))[0];
        if (!prior) throw new AppError('INTERNAL', { message: 'replayed spend without its job' });
        return { answer: replayAnswer(prior, requestHash, charged.balance.total), created: false };
      }
      const jobId = randomUUID();
      const [row] = await tx
        .insert(jobs)
        .values({
          userId,
          actorKind: actor.kind,
          apiKeyId: actor.kind === 'api_key' ? actor.apiKeyId : null,
          // Webhooks are signed with an API key's secret: only a key's jobs have one.
          webhookUrl: actor.kind === 'api_key' ? (opts.webhookUrl ?? null) : null,
          batchId: opts.batchId ?? null,
          source: tool.source,
          status: 'processing',
          jobId,
          jobName: tool.jobName,
          originalKey: upload?.key ?? null,
          input: stored,
          prompt: typeof stored.prompt === 'string' && stored.prompt ? stored.prompt : null,
          seed: typeof stored.seed === 'number' ? stored.seed : null,
          cost: prepared.cost,
          spendKey,
          requestHash,
          originalWidth: upload?.width ?? null,
          originalHeight: upload?.height ?? null,
          engine: ctx.engines.nameOf(tool.engine),
        })
        .returning();
      const queueJobId = await ctx.queue.enqueue(tool.jobName, { imageId: row!.id }, { tx, fairKey: fairKeyOf(userId) });
      await tx.update(jobs).set({ queueJobId }).where(eq(jobs.id, row!.id));
      const answer = { success: true as const, jobId, imageId: row!.id, status: 'processing' as JobStatus, cost: prepared.cost, credits: charged.balance.total };
      return { answer, created: true };
    });
    keepFiles = made.created;
    // Committed: an idle in-process worker starts it now rather than at its next poll.
    if (made.created) ctx.queue.wake(tool.jobName);
    return made.answer;
  } finally {
    if (!keepFiles) await accepted.discard();
  }
}

/**
 * Marks a processing job failed and refunds its credits, in one transaction. Only the first caller
 * that flips the status refunds; completion and failure are both conditional on `status =
 * 'processing'`, so a job ends completed or failed-and-refunded, never both and never neither.
 * @param failure why (`error_code`, a JobErrorCode) and a free-text detail for the logs (`error`, cut to 500 characters)
 * @returns the failed row's owner and job id when this call failed the job, else null.
 */
export async function failAndRefund(db: DbOrTx, jobRowId: number, failure: StoredFailure): Promise<{ userId: number; jobId: string; source: string } | null> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(jobs)
      .set({ status: 'failed', errorCode: failure.code, error: failure.detail.slice(0, 500), updatedAt: new Date() })
      .where(and(eq(jobs.id, jobRowId), eq(jobs.status, 'processing')))
      .returning({ spendKey: jobs.spendKey, userId: jobs.userId, jobId: jobs.jobId, source: jobs.source });
    if (!row) return null;
    await refund(tx, { spendKey: row.spendKey, reason: { code: 'job_refund', source: row.source as HistorySource } });
    await recordJobWebhook(tx, jobRowId, 'job.failed');
    return { userId: row.userId, jobId: row.jobId, source: row.source };
  });
}

/**
 * Cancels one of `userId`'s jobs that no worker has started (no heartbeat yet): fails it with
 * `JOB_CANCELLED` and refunds its credits in one transaction, then publishes its `failed` status.
 * Conditional on `status = 'processing' AND heartbeat_at IS NULL`, while a worker's claim is
 * conditional on `status = 'processing'` and sets the heartbeat: on the one row, whichever commits
 * first wins, so a job is either cancelled (and never run) or run (and not cancellable), and a
 * cancel sent twice refunds once (decision 040 §2). The queue's job is left to find the row failed.
 * @param jobId the job's public id (uuid)
 * @returns the cancelled row's id
 * @throws AppError NOT_FOUND (no such job of this user), JOB_NOT_CANCELLABLE (started or finished)
 */
export async function cancelQueuedJob(ctx: Pick<AppContext, 'database' | 'events'>, userId: number, jobId: string): Promise<{ imageId: number }> {
  const cancelled = await inTransaction(ctx.database.db, async (tx) => {
    const [row] = await tx
      .update(jobs)
      .set({ status: 'failed', errorCode: 'JOB_CANCELLED', error: 'cancelled by its owner before it started', updatedAt: new Date() })
      .where(and(eq(jobs.jobId, jobId), eq(jobs.userId, userId), eq(jobs.status, 'processing'), isNull(jobs.heartbeatAt)))
      .returning({ id: jobs.id, spendKey: jobs.spendKey, source: jobs.source });
    if (!row) return null;
    await refund(tx, { spendKey: row.spendKey, reason: { code: 'job_refund', source: row.source as HistorySource } });
    await recordJobWebhook(tx, row.id, 'job.failed');
    return row;
  });
  if (!cancelled) {
    const [exists] = await ctx.database.db.select({ id: jobs.id }).from(jobs).where(and(eq(jobs.jobId, jobId), eq(jobs.userId, userId)));
    throw new AppError(exists ? 'JOB_NOT_CANCELLABLE' : 'NOT_FOUND');
  }
  await ctx.events.publish(userId, { type: 'status', jobId, source: cancelled.source as HistorySource, status: 'failed' });
  return { imageId: cancelled.id };
}
