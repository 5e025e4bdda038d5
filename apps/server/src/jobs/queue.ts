import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { Database, Tx } from '../db/client';

/**
 * A job type: a name, the zod schema of its payload and the handler. Handlers must be idempotent:
 * a job can run again after a crash (the queue is at-least-once).
 */
export interface JobDefinition<S extends z.ZodType> {
  name: string;
  payload: S;
  /** Seconds after which a running job is considered lost (pg-boss expireInSeconds). */
  expireInSeconds: number;
  handler(payload: z.infer<S>, ctx: { jobId: string; signal: AbortSignal }): Promise<void>;
}

export interface JobQueue {
  /**
   * Enqueues a job; with `tx` the insert joins that open transaction, so the job exists exactly when
   * the transaction commits (the debit, the history row and the enqueue are one unit of work).
   * @returns the queue's job id.
   */
  enqueue(name: string, data: object, opts?: { tx?: Tx }): Promise<string>;
  /** Starts polling workers for every registered job (in-process mode or `npm run worker`). */
  startWorkers(opts: { concurrency: number; pollingIntervalSeconds?: number }): Promise<void>;
  /** State of a queue job: created, retry, active, completed, expired, cancelled, failed, or null. */
  jobState(name: string, id: string): Promise<string | null>;
  stop(opts?: { graceful?: boolean; timeoutMs?: number }): Promise<void>;
}

/**
 * The durable queue: pg-boss on the application's own database, through the `db.executeSql` adapter
 * (works on PGlite and PostgreSQL alike). Refuses to start when a registered name has no handler or
 * a handler is registered twice [Immich job registry].
 */
export async function createJobQueue(database: Database, jobs: JobDefinition<z.ZodType>[]): Promise<JobQueue> {
  const byName = new Map<string, JobDefinition<z.ZodType>>();
  for (const j of jobs) {
    if (byName.has(j.name)) throw new Error(`job ${j.name} registered twice`);
    if (typeof j.handler !== 'function') throw new Error(`job ${j.name} has no handler`);
    byName.set(j.name, j);
  }
  const boss = new PgBoss({
    db: database.executor as PgBoss.Db,
    schema: 'pgboss',
    // Maintenance (expiry, archiving) runs here; retries are ours to decide (a failed job refunds).
    supervise: true,
    maintenanceIntervalSeconds: 30,
  });
  boss.on('error', (err) => console.error('[queue]', err));
  await boss.start();
  for (const j of byName.values()) {
    await boss.createQueue(j.name, { name: j.name, retryLimit: 0, expireInSeconds: j.expireInSeconds });
  }
  const controllers = new Set<AbortController>();

  return {
    async enqueue(name, data, opts = {}) {
      const def = byName.get(name);
      if (!def) throw new Error(`no job named ${name}`);
      const payload = def.payload.parse(data) as object;
      const id = await boss.send(name, payload, {
        retryLimit: 0,
        expireInSeconds: def.expireInSeconds,
        ...(opts.tx ? { db: database.txExecutor(opts.tx) as PgBoss.Db } : {}),
      });
      if (!id) throw new Error(`queue refused job ${name}`);
      return id;
    },
    async startWorkers({ concurrency, pollingIntervalSeconds = 1 }) {
      for (const def of byName.values()) {
        for (let i = 0; i < concurrency; i++) {
          await boss.work(def.name, { batchSize: 1, pollingIntervalSeconds }, async (batch) => {
            for (const job of batch) {
              const ac = new AbortController();
              controllers.add(ac);
              const timer = setTimeout(() => ac.abort(new Error('JOB_TIMEOUT')), def.expireInSeconds * 1000 - 1000);
              try {
                await def.handler(def.payload.parse(job.data), { jobId: job.id, signal: ac.signal });
              } finally {
                clearTimeout(timer);
                controllers.delete(ac);
              }
            }
          });
        }
      }
    },
    async jobState(name, id) {
      const job = await boss.getJobById(name, id, { includeArchive: true });
      return job?.state ?? null;
    },
    async stop({ graceful = true, timeoutMs = 30_000 } = {}) {
      if (!graceful) for (const c of controllers) c.abort(new Error('SHUTDOWN'));
      await boss.stop({ graceful, timeout: timeoutMs, wait: true });
    },
  };
}
