import { eq } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { jobs } from '../../db/schema';
import type { JobName } from '../../jobs/job-map';
import { failAndRefund } from './tool-jobs.service';

export interface RecoveryOptions {
  /**
   * True when no other process can be working (embedded PGlite at start): a job the queue shows as
   * active was orphaned by the crash.
   */
  singleOwner: boolean;
  /** A job older than this (ms since creation) is failed whatever the queue says. */
  maxAgeMs: number;
  /** An active job whose heartbeat is older than this (ms) lost its worker. Default `config.workers.staleMs`. */
  staleHeartbeatMs?: number;
}

/**
 * Recovery of paid jobs after a crash, run at start and by the reaper (every `config.workers.reaperIntervalMs`): each `processing`
 * row is judged by the queue of ITS OWN job name (stored on the row), so every tool's jobs are
 * recovered by their own definition. Failed and refunded (once, conditionally) when:
 * - the queue job is missing, failed, expired, cancelled, or completed while the row is still processing;
 * - it is active but its worker stopped stamping the heartbeat (dead worker: SIGKILL, OOM, lost machine)
 *   for `staleHeartbeatMs` — or, with `singleOwner`, whatever the heartbeat says;
 * - it is older than `maxAgeMs`.
 * A job still queued (created/retry) is left to run. A failed job's `error_code` is JOB_LOST (decision 034).
 * @returns the image ids failed and refunded by this call.
 */
export async function recoverStuckJobs(ctx: AppContext, opts: RecoveryOptions): Promise<number[]> {
  const stale = opts.staleHeartbeatMs ?? ctx.config.workers.staleMs;
  const rows = await ctx.database.db
    .select({ id: jobs.id, userId: jobs.userId, jobId: jobs.jobId, source: jobs.source, jobName: jobs.jobName, queueJobId: jobs.queueJobId, createdAt: jobs.createdAt, heartbeatAt: jobs.heartbeatAt })
    .from(jobs)
    .where(eq(jobs.status, 'processing'));
  const failed: number[] = [];
  const now = Date.now();
  for (const r of rows) {
    const tooOld = now - r.createdAt.getTime() > opts.maxAgeMs;
    // A fresh heartbeat proves a live worker: no queue lookup for the common case of running jobs.
    if (!opts.singleOwner && !tooOld && r.heartbeatAt && now - r.heartbeatAt.getTime() <= stale) continue;
    const info = r.queueJobId ? await ctx.queue.jobInfo(r.jobName as JobName, r.queueJobId).catch(() => null) : null;
    const state = info?.state ?? null;
    const lastSign = r.heartbeatAt?.getTime() ?? info?.startedOn?.getTime() ?? r.createdAt.getTime();
    const alive = state === 'active' && !opts.singleOwner && now - lastSign <= stale;
    const resumable = state === 'created' || state === 'retry' || alive;
    if (!tooOld && resumable) continue;
    const reason = state === 'active' ? 'worker stopped (no heartbeat)' : `queue state ${state ?? 'missing'}`;
    if (await failAndRefund(ctx.database.db, r.id, { code: 'JOB_LOST', detail: tooOld && resumable ? `older than ${opts.maxAgeMs} ms (queue state ${state})` : reason })) {
      failed.push(r.id);
      await ctx.events.publish(r.userId, { type: 'status', jobId: r.jobId, source: r.source, status: 'failed' });
    }
  }
  return failed;
}
