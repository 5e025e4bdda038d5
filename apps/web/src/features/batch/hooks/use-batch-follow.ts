import type { BatchView } from '@dewy/contracts';
import { useEffect, useRef } from 'react';
import { useSession } from '../../../lib/session';
import { pollDelayMs, useJobEvents } from '../../../shared/tool-job';

/** At most one re-read per this interval when the stream (re)opens (as trackJob's RESYNC_MIN_INTERVAL_MS). */
const RESYNC_MIN_INTERVAL_MS = 5000;

/**
 * Keeps a shown batch current while any of its photos is processing: the shared job event stream
 * (`/api/jobs/events`) re-reads the batch (`GET /api/batches/:id`) as soon as one of its jobs reports a
 * status (completed or failed), and once when the stream reopens; as the fallback, the batch is re-read
 * on the upscale polling schedule of 001 §4 (2, 4, 8 s, then a random 10–15 s), started again only
 * when a job the page did not follow yet appears (a resume or a retry). Progress events are read by each
 * photo's card (useJobSnapshot). A photo that failed since the last read was refunded: the session's
 * balance is synced.
 * @param refetch re-reads the batch (React Query's refetch)
 * @returns the event stream's client and connection, for the cards
 */
export function useBatchFollow(batch: BatchView | undefined, updatedAt: number, refetch: () => void) {
  const { client, connection } = useJobEvents();
  const { forceSync } = useSession();
  const processing = (batch?.photos ?? []).filter((p) => p.status === 'processing' && p.jobId).map((p) => p.jobId!);
  const processingKey = processing.join(',');
  const followed = useRef(new Set<string>());
  const attempt = useRef(0);
  const refetchRef = useRef(refetch);
  useEffect(() => {
    refetchRef.current = refetch;
  }, [refetch]);

  // Events of the processing jobs, and the schedule's next read.
  useEffect(() => {
    if (!processingKey) return;
    const ids = processingKey.split(',');
    if (ids.some((id) => !followed.current.has(id))) attempt.current = 0;
    followed.current = new Set(ids);
    let reread = false;
    const again = () => {
      if (reread) return;
      reread = true;
      refetchRef.current();
    };
    const unsubscribe = ids.map((jobId) =>
      client.subscribeJob(jobId, (event) => {
        if (event.type === 'status' && event.status !== 'processing') again();
      }),
    );
    // A status the stream told before this render (between the last read and now).
    if (ids.some((jobId) => { const s = client.job(jobId)?.status; return s === 'completed' || s === 'failed'; })) again();
    const timer = setTimeout(() => {
      attempt.current += 1;
      again();
    }, pollDelayMs(attempt.current));
    return () => {
      clearTimeout(timer);
      for (const off of unsubscribe) off();
    };
  }, [client, processingKey, updatedAt]);

  // The stream (re)opened while photos run: events sent while it was down are lost, read once.
  const lastConnection = useRef(connection);
  const lastResync = useRef(Number.NEGATIVE_INFINITY);
  useEffect(() => {
    const was = lastConnection.current;
    lastConnection.current = connection;
    if (connection === 'open' && was !== 'open' && processingKey && Date.now() - lastResync.current >= RESYNC_MIN_INTERVAL_MS) {
      lastResync.current = Date.now();
      refetchRef.current();
    }
  }, [connection, processingKey]);

  // A photo failed since the last read: its credits came back.
  const failedBefore = useRef<{ id: string; failed: number } | null>(null);
  const batchId = batch?.id ?? null;
  const failed = batch?.counts.failed ?? null;
  useEffect(() => {
    if (batchId === null || failed === null) return;
    const before = failedBefore.current;
    if (before && before.id === batchId && failed > before.failed) void forceSync();
    failedBefore.current = { id: batchId, failed };
  }, [batchId, failed, forceSync]);

  return { client, connection };
}
