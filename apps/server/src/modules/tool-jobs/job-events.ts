import { JobEventSchema, type JobEvent } from '@dewy/contracts';
import type { Database } from '../../db/client';

/** The PostgreSQL notification channel that carries job events between processes. */
export const JOB_EVENTS_CHANNEL = 'dewy_job_events';

export type JobEventListener = (event: JobEvent) => void;

/**
 * Job progress and status, pushed from whichever process runs the job to the API process that holds
 * the customer's SSE connection (GUIDE §3). Events travel through PostgreSQL `NOTIFY` on
 * `dewy_job_events` (PGlite: its in-process listener), addressed to one user; only that user's
 * subscribers receive them. Delivery is best effort: the page's polling covers a lost event.
 */
export interface JobEventBus {
  /** Sends `event` to the subscribers of `userId`, in any process. Never throws (logs instead). */
  publish(userId: number, event: JobEvent): Promise<void>;
  /** Receives the events of one user in this process. @returns unsubscribe. */
  subscribe(userId: number, listener: JobEventListener): Promise<() => void>;
  close(): Promise<void>;
}

/** Wire form of one notification: the addressee and the event (well under NOTIFY's 8000 bytes). */
interface Envelope {
  u: number;
  e: JobEvent;
}

/**
 * The bus on `database`. The LISTEN connection is opened on the first subscription, so worker-only
 * processes (which publish but never subscribe) hold no extra connection.
 */
export function createJobEventBus(database: Database, opts: { onError?: (err: unknown) => void } = {}): JobEventBus {
  const byUser = new Map<number, Set<JobEventListener>>();
  let stopListening: Promise<() => Promise<void>> | undefined;
  const report = opts.onError ?? ((err: unknown) => console.error('[job-events]', err));

  const dispatch = (payload: string) => {
    let env: Envelope;
    try {
      const raw = JSON.parse(payload) as { u?: unknown; e?: unknown };
      const parsed = JobEventSchema.safeParse(raw.e);
      if (typeof raw.u !== 'number' || !parsed.success) return;
      env = { u: raw.u, e: parsed.data };
    } catch {
      return;
    }
    for (const l of byUser.get(env.u) ?? []) {
      try {
        l(env.e);
      } catch (err) {
        report(err);
      }
    }
  };

  return {
    async publish(userId, event) {
      try {
        await database.notify(JOB_EVENTS_CHANNEL, JSON.stringify({ u: userId, e: event } satisfies Envelope));
      } catch (err) {
        report(err);
      }
    },
    async subscribe(userId, listener) {
      stopListening ??= database.listen(JOB_EVENTS_CHANNEL, dispatch);
      await stopListening;
      let set = byUser.get(userId);
      if (!set) byUser.set(userId, (set = new Set()));
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) byUser.delete(userId);
      };
    },
    async close() {
      byUser.clear();
      if (stopListening) await (await stopListening)().catch(() => {});
      stopListening = undefined;
    },
  };
}
