import PgBoss from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, SqlExecutor, Tx } from '../db/client';
import { JobFailure } from '../lib/job-failure';
import type { JobMap, JobName, JobSchemas } from './job-map';

/** What a handler gets beside its payload. */
export interface JobRunContext {
  /** The queue's own job id. */
  jobId: string;
  /**
   * Aborted when the job outlives its `expireInSeconds` (reason: a JobFailure JOB_TIMEOUT) or the
   * process shuts down hard (a JobFailure JOB_LOST), so a failed job stores why (decision 034).
   */
  signal: AbortSignal;
}

/** The abort reason of a job cut off by a hard shutdown. */
const SHUTDOWN = () => new JobFailure('JOB_LOST', 'SHUTDOWN');

/** The handler of one job name. Handlers must be idempotent: the queue is at-least-once. */
export interface JobHandler<N extends JobName> {
  /** Seconds after which a running job is considered lost (pg-boss expireInSeconds). */
  expireInSeconds: number;
  /** Parallel jobs of this name per process (a vendor's concurrency limit); default the process-wide setting. */
  concurrency?: number;
  handle(payload: JobMap[N], ctx: JobRunContext): Promise<void>;
}

export type JobHandlers = { [N in JobName]?: JobHandler<N> };

export interface JobQueue {
  /**
   * Enqueues a job of a declared name with its payload (validated with the name's schema); with `tx`
   * the insert joins that open transaction, so the job exists exactly when the transaction commits
   * (the debit, the history row and the enqueue are one unit of work).
   *
   * With `fairKey` (the caller the job is for) the job is queued fairly among callers (decision 035):
   * it gets the round {@link fairRound} computes, as pg-boss priority −round (fetch order: priority,
   * then creation), so one caller's many waiting jobs never hold back another caller's job by more
   * than one job per worker. Enqueue a caller's jobs one after another (the kernel does, under the
   * caller's balance lock) for their rounds to increase.
   * @returns the queue's job id. @throws Error for an undeclared name or an invalid payload.
   */
  enqueue<N extends JobName>(name: N, data: JobMap[N], opts?: { tx?: Tx; fairKey?: string }): Promise<string>;
  /**
   * Wakes this process's idle workers of `name` so they fetch at once instead of at their next poll;
   * call it after the transaction that enqueued a job committed (workers in other processes still
   * find it at their next poll). A no-op where this process runs no worker of that name.
   */
  wake(name: JobName): void;
  /**
   * Starts polling workers for every declared job name (in-process mode or `npm run worker`).
   * @throws Error naming every declared job that has no handler — the worker refuses to start rather
   *   than leave paid jobs of that name waiting forever [Immich].
   */
  startWorkers(opts: { concurrency: number; pollingIntervalSeconds?: number }): Promise<void>;
  /** Registers (or updates) a cron schedule (UTC) that sends `name` with an empty payload; idempotent. */
  schedule(name: JobName, cron: string): Promise<void>;
  /** The queue's view of a job: state (created, retry, active, completed, expired, cancelled, failed) and start time; null when unknown. */
  jobInfo(name: JobName, id: string): Promise<{ state: string; startedOn: Date | null } | null>;
  /**
   * Stops fetching and waits up to `timeoutMs` for running handlers; `graceful: false` first aborts
   * their signals (reason: a JobFailure JOB_LOST, message `SHUTDOWN`). Resolves once no handler can touch the database any more (or
   * the timeout passed), so the caller may close the database afterwards.
   */
  stop(opts?: { graceful?: boolean; timeoutMs?: number }): Promise<void>;
}

/** The pg-boss schema of the queue's tables. */
const BOSS_SCHEMA = 'pgboss';

/** The payload field that names a job's caller for fair queueing (the handler's schema strips it). */
const FAIR_KEY_FIELD = 'fairKey';

/**
 * The round of a new job for `fairKey` in queue `name` (decision 035; start-time fair queueing by
 * rounds): one past the caller's latest round among its unfinished jobs (waiting or active), and at
 * least the round now being served (the highest round among active jobs, else the lowest among waiting
 * jobs, else 0). So a caller with nothing queued starts in the current round, ahead of every job of a
 * later round, whoever queued it first; each further job of the same caller goes one round later; and
 * a caller who keeps one job coming ties with the next round of the others (creation order decides),
 * so nobody starves. Reads pg-boss's job table through `sql` (the enqueueing transaction's executor).
 */
export async function fairRound(sql: SqlExecutor, name: string, fairKey: string): Promise<number> {
  const { rows } = await sql.executeSql(
    `SELECT max(-priority) FILTER (WHERE data->>'${FAIR_KEY_FIELD}' = $2) AS caller_last,
            max(-priority) FILTER (WHERE state = 'active') AS active_max,
            min(-priority) FILTER (WHERE state < 'active') AS waiting_min
       FROM ${BOSS_SCHEMA}.job
      WHERE name = $1 AND state <= 'active'`,
    [name, fairKey],
  );
  const r = (rows[0] ?? {}) as { caller_last: number | string | null; active_max: number | string | null; waiting_min: number | string | null };
  const num = (v: number | string | null) => (v === null || v === undefined ? null : Number(v));
  const current = num(r.active_max) ?? num(r.waiting_min) ?? 0;
  const last = num(r.caller_last);
  return last === null ? current : Math.max(current, last + 1);
}

/**
 * The durable queue: pg-boss on the application's own database, through the `db.executeSql` adapter
 * (works on PGlite and PostgreSQL alike). `schemas` declares the job names this process knows (the
 * typed job map) and `handlers` the code that runs them; retries are off (a failed paid job refunds,
 * the customer decides whether to try again).
 */
export async function createJobQueue(
  database: Database,
  schemas: JobSchemas,
  handlers: JobHandlers,
  opts: { defaultExpireInSeconds: number; log: FastifyBaseLogger },
): Promise<JobQueue> {
  const names = Object.keys(schemas) as JobName[];
  const schemaOf = <N extends JobName>(name: N) => {
    const s = schemas[name];
    if (!s) throw new Error(`no job named ${name}`);
    return s;
  };
  const expireOf = (name: JobName) => handlers[name]?.expireInSeconds ?? opts.defaultExpireInSeconds;
  const boss = new PgBoss({
    db: database.executor as PgBoss.Db,
    schema: BOSS_SCHEMA,
    // Maintenance (expiry, archiving) runs here; retries are ours to decide (a failed job refunds).
    supervise: true,
    maintenanceIntervalSeconds: 30,
  });
  boss.on('error', (err) => opts.log.error({ err }, 'job queue error'));
  await boss.start();
  for (const name of names) {
    await boss.createQueue(name, { name, retryLimit: 0, expireInSeconds: expireOf(name) });
  }
  const controllers = new Set<AbortController>();
  /** Handler callbacks running now (a job fetched while the queue stops starts after `boss.stop` began). */
  const running = new Set<Promise<void>>();
  const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

  /** This process's pg-boss worker ids per job name (wake() notifies them). */
  const workerIds = new Map<JobName, string[]>();

  async function work<N extends JobName>(name: N, handler: JobHandler<N>, concurrency: number, pollingIntervalSeconds: number) {
    const schema = schemaOf(name);
    for (let i = 0; i < concurrency; i++) {
      let workerId = '';
      workerId = await boss.work(name, { batchSize: 1, pollingIntervalSeconds }, async (batch) => {
        const run = (async () => {
          for (const job of batch) {
            const ac = new AbortController();
            controllers.add(ac);
            const timer = setTimeout(() => ac.abort(new JobFailure('JOB_TIMEOUT', 'JOB_TIMEOUT')), handler.expireInSeconds * 1000 - 1000);
            try {
              await handler.handle(schema.parse(job.data), { jobId: job.id, signal: ac.signal });
            } finally {
              clearTimeout(timer);
              controllers.delete(ac);
            }
          }
        })();
        running.add(run);
        try {
          await run;
        } finally {
          running.delete(run);
          // Drain: a worker that just ran a job fetches again at once instead of sleeping out its
          // polling interval (pg-boss's loop waits only when it was not notified), so queued jobs
          // run back to back; an empty fetch then waits the interval as before.
          if (workerId) boss.notifyWorker(workerId);
        }
      });
      workerIds.set(name, [...(workerIds.get(name) ?? []), workerId]);
    }
  }

  return {
    async enqueue(name, data, { tx, fairKey } = {}) {
      const payload = schemaOf(name).parse(data) as object;
      const sql = tx ? database.txExecutor(tx) : database.executor;
      const priority = fairKey === undefined ? 0 : -(await fairRound(sql, name, fairKey));
      const id = await boss.send(name, fairKey === undefined ? payload : { ...payload, [FAIR_KEY_FIELD]: fairKey }, {
        retryLimit: 0,
        expireInSeconds: expireOf(name),
        priority,
        ...(tx ? { db: sql as PgBoss.Db } : {}),
      });
      if (!id) throw new Error(`queue refused job ${name}`);
      return id;
    },
    wake(name) {
      for (const id of workerIds.get(name) ?? []) boss.notifyWorker(id);
    },
    async startWorkers({ concurrency, pollingIntervalSeconds = 1 }) {
      const missing = names.filter((n) => typeof handlers[n]?.handle !== 'function');
      if (missing.length) throw new Error(`refusing to start workers: no handler for job ${missing.join(', ')}`);
      for (const name of names) await work(name, handlers[name]!, handlers[name]!.concurrency ?? concurrency, pollingIntervalSeconds);
    },
    async schedule(name, cron) {
      schemaOf(name);
      await boss.schedule(name, cron, {}, { tz: 'UTC', retryLimit: 0, expireInSeconds: expireOf(name) });
    },
    async jobInfo(name, id) {
      const job = await boss.getJobById(name, id, { includeArchive: true });
      return job ? { state: job.state, startedOn: job.startedOn ?? null } : null;
    },
    async stop({ graceful = true, timeoutMs = 30_000 } = {}) {
      // A hard stop aborts the running handlers, then still waits (bounded) for pg-boss to record their
      // outcome: pg-boss's own non-graceful stop returns at once and its worker later writes `fail` to
      // a database the caller may already have closed (an unhandled rejection after shutdown).
      if (!graceful) for (const c of controllers) c.abort(SHUTDOWN());
      const deadline = Date.now() + timeoutMs;
      await boss.stop({ graceful: true, timeout: timeoutMs, wait: true });
      // pg-boss stops waiting at its timeout, and a fetch that was in flight when it stopped can still
      // start a handler. Either would write to the database after the caller closed it (pg-boss records
      // the outcome without awaiting it: an unhandled rejection). So: let the handlers end first — past
      // the deadline, abort them — and give pg-boss a moment to send their outcome.
      await delay(100);
      while (running.size > 0 && Date.now() < deadline) await Promise.race([Promise.allSettled([...running]), delay(100)]);
      if (running.size > 0) {
        for (const c of controllers) c.abort(SHUTDOWN());
        await Promise.race([Promise.allSettled([...running]), delay(5_000)]);
      }
      await delay(50);
    },
  };
}
