import type { JobEvent, JobStatusResponse } from '@dewy/contracts';
import type { PollingSchedule } from './polling';

/** How a finished job was noticed: the event stream, the status polling, or a history item. */
export type SettledVia = 'push' | 'poll' | 'history';

export type JobOutcome =
  | { status: 'completed'; resultUrl: string; originalUrl: string | null; via: SettledVia }
  | { status: 'failed'; reason: 'failed' | 'timeout'; via: SettledVia };

/** The part of the event client a tracker uses (JobEventsClient, or a fake in tests). */
export interface JobEventSource {
  readonly connection: string;
  subscribeJob(jobId: string, listener: (event: JobEvent) => void): () => void;
  subscribeConnection(listener: () => void): () => void;
}

/**
 * What trackJob needs: the tool's status read (any answer in the shape of `GET /api/image/status`, a
 * tool may add fields), the event stream (null: polling only), the tool's schedule; timers, clock and
 * randomness are injectable for tests.
 */
export interface JobTrackerDeps<S extends JobStatusResponse = JobStatusResponse> {
  fetchStatus: (jobId: string, signal: AbortSignal) => Promise<S>;
  events: JobEventSource | null;
  schedule: PollingSchedule;
  setTimeout?: (fn: () => void, ms: number) => unknown;
  clearTimeout?: (handle: unknown) => void;
  now?: () => number;
  random?: () => number;
}

/** When the stream says completed but the status read fails, try it again this soon (ms). */
export const PUSH_CONFIRM_RETRY_MS = 1000;
/** At most one status read per this interval for stream (re)connections (a flapping stream is no poller). */
export const RESYNC_MIN_INTERVAL_MS = 5000;

/**
 * Follow one job until it settles: the spec's status polling runs on its exact schedule from the start
 * (so a page without the stream behaves as 001 §4 says), and the event stream settles it at once: a
 * `failed` status event fails it, a `completed` one reads the signed URLs from the status endpoint right
 * away (the stream carries none). When the stream (re)opens while the job runs, the status is read once
 * (events sent while it was down are lost), at most every RESYNC_MIN_INTERVAL_MS. A failed status
 * request just waits for the next poll.
 * @param startedAt when tracking began (ms), for the polling timeout
 * @param onSettled called once with the outcome and the last status answer read (the one that settled
 *   the job when a read did; null when none was read), e.g. for a failed job's error code
 * @returns cancel: stops timers, requests and the subscriptions; no callback fires after it
 */
export function trackJob<S extends JobStatusResponse = JobStatusResponse>(
  jobId: string,
  startedAt: number,
  deps: JobTrackerDeps<S>,
  onSettled: (outcome: JobOutcome, last: S | null) => void,
): () => void {
  const setTimer = deps.setTimeout ?? ((fn, ms) => globalThis.setTimeout(fn, ms));
  const clearTimer = deps.clearTimeout ?? ((h) => globalThis.clearTimeout(h as ReturnType<typeof globalThis.setTimeout>));
  const now = deps.now ?? (() => Date.now());
  const random = deps.random ?? Math.random;
  const controller = new AbortController();
  let done = false;
  let attempt = 0;
  let pollTimer: unknown = null;
  let confirmTimer: unknown = null;
  let reading = false;
  let last: S | null = null;

  const settle = (outcome: JobOutcome) => {
    if (done) return;
    cancel();
    onSettled(outcome, last);
  };

  /** Read the status once; true when it settled the job. */
  const read = async (via: SettledVia): Promise<boolean> => {
    reading = true;
    try {
      const res = await deps.fetchStatus(jobId, controller.signal);
      if (done) return true;
      last = res;
      if (res.status === 'completed' && res.imageUrl) {
        settle({ status: 'completed', resultUrl: res.imageUrl, originalUrl: res.originalImageUrl, via });
        return true;
      }
      if (res.status === 'failed') {
        settle({ status: 'failed', reason: 'failed', via });
        return true;
      }
    } catch (err) {
      if (!done) console.warn('[job] status request failed; the next poll retries', err);
    } finally {
      reading = false;
    }
    return done;
  };

  const schedulePoll = () => {
    if (done) return;
    pollTimer = setTimer(() => void tick(), deps.schedule.delayMs(attempt, random()));
    attempt += 1;
  };

  const tick = async () => {
    pollTimer = null;
    if (done) return;
    if (deps.schedule.timedOut(startedAt, now(), attempt)) {
      settle({ status: 'failed', reason: 'timeout', via: 'poll' });
      return;
    }
    if (!(await read('poll'))) schedulePoll();
  };

  const confirmCompleted = async (retries: number) => {
    if (done || (await read('push'))) return;
    if (retries > 0) confirmTimer = setTimer(() => void confirmCompleted(retries - 1), PUSH_CONFIRM_RETRY_MS);
  };

  const unsubscribeJob = deps.events?.subscribeJob(jobId, (event) => {
    if (done || event.type !== 'status') return;
    if (event.status === 'failed') settle({ status: 'failed', reason: 'failed', via: 'push' });
    else if (event.status === 'completed') void confirmCompleted(1);
  });
  let lastConnection = deps.events?.connection;
  let lastResyncAt = Number.NEGATIVE_INFINITY;
  const unsubscribeConnection = deps.events?.subscribeConnection(() => {
    const connection = deps.events?.connection;
    if (connection === 'open' && lastConnection !== 'open' && !reading && now() - lastResyncAt >= RESYNC_MIN_INTERVAL_MS) {
      lastResyncAt = now();
      void read('push');
    }
    lastConnection = connection;
  });

  function cancel() {
    done = true;
    controller.abort();
    if (pollTimer !== null) clearTimer(pollTimer);
    if (confirmTimer !== null) clearTimer(confirmTimer);
    unsubscribeJob?.();
    unsubscribeConnection?.();
  }

  schedulePoll();
  return cancel;
}
