import type { AppContext } from './context';
import { purgeRateLimits } from './lib/rate-limit';
import { purgeExpiredSessions } from './modules/auth';
import { purgeOldSignInEvents } from './modules/users';
import { recoverStuckJobs, refundStaleMeteredCalls } from './modules/tool-jobs';
import { purgeStalePendingUploads } from './modules/uploads';
import { refundUnconfirmedRewrites, staleMeteredCallAgeMs } from './modules/ai';
import { purgeApiIdempotencyKeys, startWebhookSender } from './modules/public-api';

/** How often expired rows (sessions, rate-limit counters, sign-in history past its days, unconfirmed uploads…) are purged (ms). */
export const PURGE_INTERVAL_MS = 60_000;

/**
 * Periodic upkeep of a process that serves the API or runs workers: the job reaper, every
 * `config.workers.reaperIntervalMs` (paid jobs whose worker died — no heartbeat for `staleMs` — or whose
 * queue job is gone are failed and refunded, once; with the defaults a dead worker's job within 45 s), the
 * purge of expired rows, and the refunds of inline metered calls (calls a dead process left pending;
 * rewrites never confirmed by the page — decisions 022 and 036), and the sender of customers' webhooks
 * (decision 040 §3).
 * Every process may run it: each step is conditional, so two processes never refund twice.
 * @returns a stop function.
 */
export function startHousekeeping(ctx: AppContext): () => void {
  const log = ctx.log.child({ task: 'housekeeping' });
  const maxAgeMs = (ctx.config.workers.jobTimeoutSeconds + 120) * 1000;
  const reaper = setInterval(() => {
    recoverStuckJobs(ctx, { singleOwner: false, maxAgeMs })
      .then((ids) => ids.length && log.warn({ imageIds: ids }, 'failed and refunded jobs whose worker stopped'))
      .catch((err) => log.error({ err }, 'job recovery failed'));
  }, ctx.config.workers.reaperIntervalMs);
  const purge = setInterval(() => {
    const db = ctx.database.db;
    purgeExpiredSessions(db, ctx.config.session).catch((err) => log.error({ err }, 'session purge failed'));
    purgeRateLimits(db).catch((err) => log.error({ err }, 'rate-limit purge failed'));
    purgeApiIdempotencyKeys(db).catch((err) => log.error({ err }, 'api idempotency key purge failed'));
    purgeOldSignInEvents(db).catch((err) => log.error({ err }, 'sign-in history purge failed'));
    purgeStalePendingUploads(ctx).catch((err) => log.error({ err }, 'pending-upload purge failed'));
    refundStaleMeteredCalls(ctx, staleMeteredCallAgeMs(ctx.config))
      .then((ids) => ids.length && log.warn({ callIds: ids }, 'refunded metered calls whose process stopped'))
      .catch((err) => log.error({ err }, 'stale metered call refund failed'));
    refundUnconfirmedRewrites(ctx)
      .then((ids) => ids.length && log.info({ callIds: ids }, 'refunded rewrites the page never applied'))
      .catch((err) => log.error({ err }, 'unconfirmed rewrite refund failed'));
  }, PURGE_INTERVAL_MS);
  reaper.unref();
  purge.unref();
  const stopWebhooks = startWebhookSender(ctx);
  return () => {
    clearInterval(reaper);
    clearInterval(purge);
    stopWebhooks();
  };
}

/**
 * Recovery at start: with one owner (embedded PGlite) every job the crash left active is failed and
 * refunded at once; on PostgreSQL other workers may be alive, so only jobs without a live heartbeat are.
 */
export async function recoverAtStart(ctx: AppContext): Promise<number[]> {
  const singleOwner = ctx.database.kind === 'pglite';
  return recoverStuckJobs(ctx, { singleOwner, maxAgeMs: (ctx.config.workers.jobTimeoutSeconds + 120) * 1000 });
}
