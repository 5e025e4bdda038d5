import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { z } from 'zod';
import type { JobStatus, ToolJobCreated } from '@dewy/contracts';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { images } from '../../db/schema';
import { inTransaction } from '../../db/tx';
import { AppError } from '../../lib/app-error';
import { getBalance, refund, spend } from '../credits/credits.service';
import { ownedKeyFromUrl } from '../uploads/image-urls';
import { getConfirmedUpload } from '../uploads/uploads.service';
import { assertNotInMaintenance } from '../settings/settings.service';
import type { ToolDefinition, ToolUpload } from './tool-definition';

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
function replayAnswer(prior: typeof images.$inferSelect, requestHash: string, credits: number): ToolJobCreated {
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
export async function replayIdempotentJob(ctx: AppContext, tool: { jobName: string }, userId: number, idempotencyKey: string | undefined, requestHash: string): Promise<ToolJobCreated | null> {
  if (!idempotencyKey) return null;
  const db = ctx.database.db;
  const prior = (await db.select().from(images).where(eq(images.spendKey, idempotentSpendKey(tool, userId, idempotencyKey))))[0];
  return prior ? replayAnswer(prior, requestHash, (await getBalance(db, userId)).total) : null;
}

/**
 * Starts a paid job of any tool (GUIDE §3): the kernel's one path from a validated request to a queued
 * job. It resolves the input's image to a confirmed upload of the caller (FORBIDDEN / NOT_FOUND
 * otherwise), lets the tool check and price the input on the server (`tool.prepare`), and then in ONE
 * transaction debits the ledger (one-time credits first), inserts the history row (status
 * `processing`, the tool's job name) and enqueues the job — all or nothing.
 *
 * Idempotency-Key (optional): the key is scoped to the user and the tool and remembered for as long
 * as the job's row and ledger entry exist (today: for good). The same key with the same body answers
 * the first job without charging again; with another body it answers 422 IDEMPOTENCY_KEY_REUSED [Stripe].
 * `opts.requestHash` replaces the fingerprint of `input` when the request as sent differs from the
 * input (a file stored under a fresh key each time): see {@link requestFingerprint}.
 *
 * @param input the request input as the tool's schema parsed it
 * @throws AppError FORBIDDEN, NOT_FOUND, INSUFFICIENT_CREDITS, IDEMPOTENCY_KEY_REUSED and the tool's own codes
 */
export async function createToolJob<S extends z.ZodType>(
  ctx: AppContext,
  tool: ToolDefinition<S>,
  userId: number,
  input: z.infer<S>,
  opts: { idempotencyKey?: string; requestHash?: string } = {},
): Promise<ToolJobCreated> {
  const db = ctx.database.db;
  const requestHash = opts.requestHash ?? requestFingerprint(input);
  const spendKey = opts.idempotencyKey ? idempotentSpendKey(tool, userId, opts.idempotencyKey) : `${tool.jobName}:${userId}:${randomUUID()}`;
  const replay = await replayIdempotentJob(ctx, tool, userId, opts.idempotencyKey, requestHash);
  if (replay) return replay;

  await assertNotInMaintenance(ctx);
  const imageUrl = tool.imageUrlOf(input);
  let upload: ToolUpload | undefined;
  if (imageUrl !== undefined) {
    const key = ownedKeyFromUrl(ctx, userId, imageUrl);
    const found = await getConfirmedUpload(ctx, userId, key);
    upload = { key, width: found.width, height: found.height };
  }
  const extras: Record<string, ToolUpload> = {};
  for (const [role, url] of Object.entries(tool.extraUploadsOf?.(input) ?? {})) {
    if (!url) continue;
    const key = ownedKeyFromUrl(ctx, userId, url);
    const found = await getConfirmedUpload(ctx, userId, key);
    extras[role] = { key, width: found.width, height: found.height };
  }
  const prepared = await tool.prepare(input, upload, ctx, extras);
  const stored = tool.input.parse(prepared.input) as Record<string, unknown>;

  return inTransaction(db, async (tx) => {
    const charged = await spend(tx, { userId, amount: prepared.cost, reason: tool.source, idempotencyKey: spendKey });
    if (charged.replayed) {
      const prior = (await tx.select().from(images).where(eq(images.spendKey, spendKey)))[0];
      if (!prior) throw new AppError('INTERNAL', { message: 'replayed spend without its job' });
      return replayAnswer(prior, requestHash, charged.balance.total);
    }
    const jobId = randomUUID();
    const [row] = await tx
      .insert(images)
      .values({
        userId,
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
        engine: tool.engineName(ctx),
      })
      .returning();
    const queueJobId = await ctx.queue.enqueue(tool.jobName, { imageId: row!.id }, { tx });
    await tx.update(images).set({ queueJobId }).where(eq(images.id, row!.id));
    return { success: true as const, jobId, imageId: row!.id, status: 'processing' as JobStatus, cost: prepared.cost, credits: charged.balance.total };
  });
}

/**
 * Marks a processing job failed and refunds its credits, in one transaction. Only the first caller
 * that flips the status refunds; completion and failure are both conditional on `status =
 * 'processing'`, so a job ends completed or failed-and-refunded, never both and never neither.
 * @returns the failed row's owner and job id when this call failed the job, else null.
 */
export async function failAndRefund(db: DbOrTx, imageId: number, error: string): Promise<{ userId: number; jobId: string; source: string } | null> {
  return inTransaction(db, async (tx) => {
    const [row] = await tx
      .update(images)
      .set({ status: 'failed', error: error.slice(0, 500), updatedAt: new Date() })
      .where(and(eq(images.id, imageId), eq(images.status, 'processing')))
      .returning({ spendKey: images.spendKey, userId: images.userId, jobId: images.jobId, source: images.source });
    if (!row) return null;
    await refund(tx, { spendKey: row.spendKey, reason: 'job failed' });
    return { userId: row.userId, jobId: row.jobId, source: row.source };
  });
}
