import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchJobStatus } from '../api/job-status';
import { pollDelayMs, pollTimedOut } from '../lib/polling';

export type UpscaleJobState =
  | { status: 'idle' }
  | { status: 'processing'; jobId: string; startedAt: number; originalUrl: string | null }
  | { status: 'completed'; jobId: string | null; resultUrl: string; originalUrl: string | null }
  | { status: 'failed'; messageKey: string };

/**
 * The upscale job state machine of 001 §4: idle → processing → completed | failed, with status polling
 * on the spec's schedule (a failed status request just retries; 10 minutes ends in failed).
 * @param onSettled called once when a polled job completes, fails or times out
 */
export function useUpscaleJob(onSettled: () => void) {
  const [state, setState] = useState<UpscaleJobState>({ status: 'idle' });
  const settledRef = useRef(onSettled);
  useEffect(() => {
    settledRef.current = onSettled;
  }, [onSettled]);

  const pollingJobId = state.status === 'processing' ? state.jobId : null;
  const startedAt = state.status === 'processing' ? state.startedAt : 0;
  const originalUrl = state.status === 'processing' ? state.originalUrl : null;

  useEffect(() => {
    if (!pollingJobId) return;
    let cancelled = false;
    let attempt = 0;
    let timer: number | undefined;
    const controller = new AbortController();

    const finish = (next: UpscaleJobState) => {
      if (cancelled) return;
      setState(next);
      settledRef.current();
    };

    const tick = async () => {
      if (cancelled) return;
      if (pollTimedOut(startedAt, Date.now())) {
        finish({ status: 'failed', messageKey: 'upscale.error.timeout' });
        return;
      }
      try {
        const res = await fetchJobStatus(pollingJobId, controller.signal);
        if (cancelled) return;
        if (res.status === 'completed' && res.imageUrl) {
          finish({ status: 'completed', jobId: pollingJobId, resultUrl: res.imageUrl, originalUrl: res.originalImageUrl ?? originalUrl });
          return;
        }
        if (res.status === 'failed') {
          finish({ status: 'failed', messageKey: 'upscale.error.jobFailed' });
          return;
        }
      } catch (err) {
        if (cancelled) return;
        console.warn('[upscale] status request failed; retrying', err);
      }
      timer = window.setTimeout(() => void tick(), pollDelayMs(attempt++));
    };

    timer = window.setTimeout(() => void tick(), pollDelayMs(attempt++));
    return () => {
      cancelled = true;
      controller.abort();
      window.clearTimeout(timer);
    };
  }, [pollingJobId, startedAt, originalUrl]);

  /** Start polling a job (new or resumed from history). */
  const track = useCallback((jobId: string, original: string | null) => {
    setState({ status: 'processing', jobId, startedAt: Date.now(), originalUrl: original });
  }, []);

  /** Show a finished result (e.g. a history item). */
  const show = useCallback((resultUrl: string, original: string | null, jobId: string | null = null) => {
    setState({ status: 'completed', jobId, resultUrl, originalUrl: original });
  }, []);

  const fail = useCallback((messageKey: string) => setState({ status: 'failed', messageKey }), []);
  const reset = useCallback(() => setState({ status: 'idle' }), []);

  return { state, track, show, fail, reset };
}
