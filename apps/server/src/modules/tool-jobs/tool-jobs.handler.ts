import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { HistorySource, JobErrorCode } from '@dewy/contracts';
import type { AppServices } from '../../context';
import { jobs } from '../../db/schema';
import type { JobHandler } from '../../jobs/queue';
import { ownedKeyFromUrl, viewUrl, getConfirmedUpload } from '../uploads';
import type { ToolDefinition, ToolImage, ToolOutput } from './tool-definition';
import { failAndRefund } from './tool-jobs.service';
import { inTransaction } from '../../db/tx';
import { failureOf, JobFailure } from '../../lib/job-failure';
import { refundPart } from '../credits';
import { recordJobWebhook } from './job-webhooks';

/** Progress events of one job are sent at most this often (ms); the last one of a stage always goes. */
const PROGRESS_MIN_INTERVAL_MS = 250;

/**
 * The one job handler of every tool (GUIDE §3 worker step): reads the job's row; does nothing unless
 * it is still `processing` (at-least-once queue); parses the stored input with the tool's own schema;
 * resolves the tool's engine from the registry; stamps a heartbeat on the row every `config.workers.heartbeatMs`
 * while it runs (recovery calls a job dead once its stamp is older than `config.workers.staleMs`); runs the tool with a
 * throttled progress reporter; stores the image under `u/<userId>/results/<jobId>.<ext>`; completes
 * the row only if it is still `processing` (else deletes the stored file); on any error fails and
 * refunds once. Progress and the final status are published on the job event bus.
 */
export function toolJobHandler(ctx: AppServices, tool: ToolDefinition, log: FastifyBaseLogger): JobHandler<typeof tool.jobName> {
  return {
    expireInSeconds: ctx.config.workers.jobTimeoutSeconds,
    concurrency: tool.concurrency?.(ctx),
    async handle({ imageId }, { signal }) {
      const db = ctx.database.db;
      // The claim: the first heartbeat, conditional on the job still processing. A cancel is conditional
      // on no heartbeat yet (cancelQueuedJob), so on the same row one of the two wins: a job is either
      // cancelled and refunded or run, never both (decision 040 §2).
      const [row] = await db.update(jobs).set({ heartbeatAt: new Date() }).where(and(eq(jobs.id, imageId), eq(jobs.status, 'processing'))).returning();
      if (!row) return;
      const source = row.source;
      const jobLog = log.child({ tool: tool.name, jobId: row.jobId, imageId, userId: row.userId });
      const beat = () => db.update(jobs).set({ heartbeatAt: new Date() }).where(and(eq(jobs.id, imageId), eq(jobs.status, 'processing')));
      const heartbeat = setInterval(() => void beat().catch((err) => jobLog.warn({ err }, 'heartbeat failed')), ctx.config.workers.heartbeatMs);
      heartbeat.unref();

      let lastSent = 0;
      let lastStage = '';
      const progress = (stage: string, fraction: number) => {
        const now = Date.now();
        if (stage === lastStage && now - lastSent < PROGRESS_MIN_INTERVAL_MS && fraction < 1) return;
        lastSent = now;
        lastStage = stage;
        const f = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
        void ctx.events.publish(row.userId, { type: 'progress', jobId: row.jobId, source, stage, fraction: f });
      };

      let resultKey: string | undefined;
      const stored: string[] = [];
      try {
        const input = tool.input.parse(row.input);
        // The engine of the tool's capability in THIS process (a worker without it fails and refunds).
        const engine = ctx.engines.get(tool.engine);
        const originalKey = row.originalKey;
        /** The key of one of the job owner's confirmed uploads named by the input. */
        const ownedUploadKey = async (url: string) => {
          const key = ownedKeyFromUrl(ctx, row.userId, url);
          await getConfirmedUpload(ctx, row.userId, key);
          return key;
        };
        const produced = await tool.run(
          {
            app: ctx,
            engine,
            row,
            signal,
            progress,
            log: jobLog,
            readOriginal: async () => {
              if (!originalKey) throw new Error('this job has no original image');
              return ctx.storage.get(originalKey);
            },
            originalUrl: async () => {
              if (!originalKey) throw new Error('this job has no original image');
              const url = await viewUrl(ctx, originalKey, { ttlSeconds: ctx.config.workers.jobTimeoutSeconds });
              return new URL(url, ctx.config.publicUrl).toString();
            },
            readUpload: async (url) => ctx.storage.get(await ownedUploadKey(url)),
            signedUploadUrl: async (url) => {
              const signed = await viewUrl(ctx, await ownedUploadKey(url), { ttlSeconds: ctx.config.workers.jobTimeoutSeconds });
              return new URL(signed, ctx.config.publicUrl).toString();
            },
          },
          input,
        );
        signal.throwIfAborted();
        const output = tool.screenResults ? await screenOutput(ctx, produced, tool.screenResults, signal, jobLog) : produced;
        resultKey = `u/${row.userId}/results/${row.jobId}.${output.format === 'png' ? 'png' : 'jpg'}`;
        await ctx.storage.put(resultKey, output.bytes, output.format === 'png' ? 'image/png' : 'image/jpeg');
        stored.push(resultKey);
        for (const [i, more] of (output.more ?? []).entries()) {
          const key = `u/${row.userId}/results/${row.jobId}-${i + 1}.${more.format === 'png' ? 'png' : 'jpg'}`;
          await ctx.storage.put(key, more.bytes, more.format === 'png' ? 'image/png' : 'image/jpeg');
          stored.push(key);
        }
        const now = new Date();
        const finalKey = resultKey;
        const completed = await inTransaction(db, async (tx) => {
          const done = await tx
            .update(jobs)
            .set({ status: 'completed', resultKey: finalKey, resultKeys: output.more ? stored : null, width: output.width, height: output.height, meta: output.meta, updatedAt: now, completedAt: now })
            .where(and(eq(jobs.id, imageId), eq(jobs.status, 'processing')))
            .returning({ id: jobs.id });
          // A partial result: the credits of what was not delivered go back with the completion, once.
          if (done.length && output.refundCredits && output.refundCredits > 0) {
            await refundPart(tx, { spendKey: row.spendKey, amount: Math.min(output.refundCredits, row.cost), reason: { code: 'job_partial_refund', source: row.source as HistorySource } });
          }
          if (done.length) await recordJobWebhook(tx, imageId, 'job.completed');
          return done.length > 0;
        });
        if (!completed) {
          for (const key of stored) await ctx.storage.delete(key).catch(() => {}); // failed meanwhile (reaper): keep no orphan
          return;
        }
        jobLog.info({ width: output.width, height: output.height }, 'job completed');
        await ctx.events.publish(row.userId, { type: 'status', jobId: row.jobId, source, status: 'completed' });
      } catch (err) {
        // The typed reason goes to `error_code` (an AppError's or JobFailure's code, the timeout's when
        // aborted, else JOB_FAILED); the message is only a detail (decision 034).
        const failure = failureOf(err, signal);
        jobLog.warn({ err, code: failure.code, reason: failure.detail }, 'job failed; refunding');
        for (const key of stored) await ctx.storage.delete(key).catch(() => {});
        if (await failAndRefund(db, imageId, failure)) {
          await ctx.events.publish(row.userId, { type: 'status', jobId: row.jobId, source, status: 'failed' });
        }
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}

/**
 * The content screen over a generated result (ToolDefinition.screenResults): each image (the first and
 * `more`) is screened by the app's moderator; flagged ones are dropped, the rest keep their order, and
 * the dropped images' credits join `refundCredits`. `meta` says how many were screened out, marks the
 * result partial and lowers `delivered` (both conventions the status answers read).
 * @throws JobFailure `rule.failCode` (the job's `error_code`) when every image is flagged; the moderator's own error when it
 *   cannot screen (the job then fails and is refunded, like an upload that cannot be screened)
 */
export async function screenOutput(ctx: Pick<AppServices, 'moderator'>, output: ToolOutput, rule: { creditsPerImage: number; failCode: JobErrorCode }, signal: AbortSignal, log: { warn: (o: object, msg: string) => void }): Promise<ToolOutput> {
  const all: ToolImage[] = [{ bytes: output.bytes, format: output.format, width: output.width, height: output.height }, ...(output.more ?? [])];
  const kept: ToolImage[] = [];
  for (const [index, image] of all.entries()) {
    const verdict = await ctx.moderator.screen(image.bytes, signal);
    if (verdict.flagged) log.warn({ index, scores: verdict.scores }, 'generated image refused by the content screen');
    else kept.push(image);
  }
  const dropped = all.length - kept.length;
  if (dropped === 0) return output;
  if (kept.length === 0) throw new JobFailure(rule.failCode, `all ${all.length} generated image(s) flagged by the content screen`);
  const [first, ...more] = kept as [ToolImage, ...ToolImage[]];
  const delivered = typeof output.meta.delivered === 'number' ? output.meta.delivered - dropped : kept.length;
  return {
    ...first,
    more: output.more ? more : undefined,
    refundCredits: (output.refundCredits ?? 0) + dropped * rule.creditsPerImage,
    meta: { ...output.meta, screenedOut: dropped, delivered, partial: true },
  };
}

