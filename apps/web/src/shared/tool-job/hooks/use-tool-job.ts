import type { HistorySource } from '@dewy/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchJobStatus } from '../api/job-status';
import type { JobEventsConnection, JobProgress } from '../lib/job-events';
import { trackJob, type JobOutcome, type SettledVia } from '../lib/job-tracker';
import type { PollingSchedule } from '../lib/polling';
import { useJobEvents, useJobSnapshot } from './use-job-events';

export type ToolJobState =
  | { status: 'idle' }
  | { status: 'processing'; jobId: string; startedAt: number; originalUrl: string | null }
  | { status: 'completed'; jobId: string | null; resultUrl: string; originalUrl: string | null; via: SettledVia }
  | { status: 'failed'; jobId: string | null; messageKey: string };

export interface UseToolJobOptions {
  /** The tool's history source; events of other tools' jobs are never applied here. */
  source: HistorySource;
  /** The tool's status polling schedule from the spec (the stream's fallback). */
  schedule: PollingSchedule;
  /** Called once when a tracked job completes, fails or times out (reload history, re-sync credits). */
  onSettled?: (outcome: JobOutcome) => void;
  /** Sent as the status call's `?source=` (001 §7: face edit adds `?source=face_edit`); none by default. */
  statusSource?: HistorySource;
  /** i18n key shown for a failed job (default {@link JOB_FAILED_KEY}). */
  failedKey?: string;
  /** i18n key shown when polling gives up (default {@link JOB_TIMEOUT_KEY}). */
  timeoutKey?: string;
}

export const JOB_FAILED_KEY = 'toolJob.error.jobFailed';
export const JOB_TIMEOUT_KEY = 'toolJob.error.timeout';

/**
 * A tool's job state machine (001 §4): idle → processing → completed | failed. While processing, the
 * shared event stream shows progress and settles the job the moment it ends; the spec's polling keeps
 * running underneath as the fallback (see trackJob).
 */
export function useToolJob({ source, schedule, onSettled, statusSource, failedKey = JOB_FAILED_KEY, timeoutKey = JOB_TIMEOUT_KEY }: UseToolJobOptions) {
  const [state, setState] = useState<ToolJobState>({ status: 'idle' });
  const { client, connection } = useJobEvents();
  const settledRef = useRef(onSettled);
  useEffect(() => {
    settledRef.current = onSettled;
  }, [onSettled]);

  const jobId = state.status === 'processing' ? state.jobId : null;
  const startedAt = state.status === 'processing' ? state.startedAt : 0;
  const originalUrl = state.status === 'processing' ? state.originalUrl : null;

  useEffect(() => {
    if (!jobId) return;
    client.connect();
    const events = {
      get connection() {
        return client.connection;
      },
      subscribeJob: (id: string, listener: Parameters<typeof client.subscribeJob>[1]) =>
        client.subscribeJob(id, (event) => {
          if (event.source === source) listener(event);
        }),
      subscribeConnection: (listener: () => void) => client.subscribeConnection(listener),
    };
    const fetchStatus = (id: string, signal: AbortSignal) => fetchJobStatus(id, signal, statusSource);
    return trackJob(jobId, startedAt, { fetchStatus, events, schedule }, (outcome) => {
      if (outcome.status === 'completed') {
        setState({ status: 'completed', jobId, resultUrl: outcome.resultUrl, originalUrl: outcome.originalUrl ?? originalUrl, via: outcome.via });
      } else {
        setState({ status: 'failed', jobId, messageKey: outcome.reason === 'timeout' ? timeoutKey : failedKey });
      }
      settledRef.current?.(outcome);
    });
  }, [client, source, statusSource, schedule, jobId, startedAt, originalUrl, failedKey, timeoutKey]);

  const snapshot = useJobSnapshot(client, jobId);
  const progress: JobProgress | null = jobId ? (snapshot?.progress ?? null) : null;

  /** Follow a job (just created, or resumed from history). */
  const track = useCallback((id: string, original: string | null) => {
    setState({ status: 'processing', jobId: id, startedAt: Date.now(), originalUrl: original });
  }, []);

  /** Show a finished result (e.g. a history item). */
  const show = useCallback((resultUrl: string, original: string | null, id: string | null = null) => {
    setState({ status: 'completed', jobId: id, resultUrl, originalUrl: original, via: 'history' });
  }, []);

  const fail = useCallback((messageKey: string, id: string | null = null) => setState({ status: 'failed', jobId: id, messageKey }), []);
  const reset = useCallback(() => setState({ status: 'idle' }), []);

  return { state, progress, connection: connection as JobEventsConnection, track, show, fail, reset };
}
