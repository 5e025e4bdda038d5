import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { useSession } from '../../../lib/session';
import { JobEventsClient, type JobEventsConnection, type JobSnapshot } from '../lib/job-events';

let client: JobEventsClient | null = null;

/** The page session's one job event stream, shared by every tool (created on first use). */
export function jobEventsClient(): JobEventsClient {
  if (!client) {
    client = new JobEventsClient({
      createEventSource: typeof EventSource === 'undefined' ? null : (url) => new EventSource(url, { withCredentials: true }),
    });
  }
  return client;
}

/**
 * Keeps the shared job event stream open while a tool page is mounted and someone is signed in, and
 * returns the client with its connection state. Several pages (or hooks) may hold it at once.
 */
export function useJobEvents(): { client: JobEventsClient; connection: JobEventsConnection } {
  const { user } = useSession();
  const userId = user?.id;
  const events = jobEventsClient();
  useEffect(() => {
    if (userId === undefined) return;
    return events.retain(userId);
  }, [events, userId]);
  const subscribe = useCallback((onChange: () => void) => events.subscribeConnection(onChange), [events]);
  const connection = useSyncExternalStore(subscribe, () => events.connection, () => events.connection);
  return { client: events, connection };
}

/** What the stream has said about one job (progress and status), re-rendering on each event. */
export function useJobSnapshot(events: JobEventsClient, jobId: string | null): JobSnapshot | null {
  const subscribe = useCallback((onChange: () => void) => (jobId ? events.subscribeJob(jobId, onChange) : () => undefined), [events, jobId]);
  const read = () => (jobId ? (events.job(jobId) ?? null) : null);
  return useSyncExternalStore(subscribe, read, read);
}
