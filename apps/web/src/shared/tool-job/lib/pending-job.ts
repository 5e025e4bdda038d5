import type { HistorySource } from '@dewy/contracts';
import { readUserEntry, writeUserEntry } from '../../../lib/user-storage';
import type { PendingJob, PendingJobStore } from './workspace';

/** Local storage entry name of a tool's pending job, per user: `toolJob.pending.<source>:<userId>`. */
export const pendingJobEntry = (source: HistorySource) => `toolJob.pending.${source}`;

/** Parse a stored pending job; null when absent or malformed. */
export function asPendingJob(value: unknown): PendingJob | null {
  if (!value || typeof value !== 'object') return null;
  const { jobId, originalUrl, savedAt } = value as Record<string, unknown>;
  if (typeof jobId !== 'string' || !jobId || typeof savedAt !== 'number') return null;
  return { jobId, originalUrl: typeof originalUrl === 'string' ? originalUrl : null, savedAt };
}

/**
 * A user's pending job of one tool in local storage (the workspace's resume after a reload, for tools
 * whose history does not list running jobs). Best effort: storage off keeps nothing.
 */
export function userPendingJobStore(userId: number, source: HistorySource): PendingJobStore {
  const name = pendingJobEntry(source);
  return {
    read: () => asPendingJob(readUserEntry(userId, name)),
    write: (job) => writeUserEntry(userId, name, job),
    clear: () => writeUserEntry(userId, name, null),
  };
}
