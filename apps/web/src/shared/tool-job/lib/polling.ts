import { FACE_EDIT, UPSCALE_POLLING } from '@dewy/contracts';

/**
 * A status-polling schedule (the fallback of the job event stream). Each tool has the spec's own:
 * the upscale schedule is {@link UPSCALE_POLLING_SCHEDULE}, face edit's {@link FACE_EDIT_POLLING_SCHEDULE}.
 */
export interface PollingSchedule {
  /** Delay before status poll number `attempt` (0-based). @param random a number in [0, 1) */
  delayMs(attempt: number, random: number): number;
  /** True once polling has to give up (the job counts as failed: timeout). */
  timedOut(startedAt: number, now: number, attempt: number): boolean;
}

/**
 * Delay before status poll number `attempt` (0-based), spec 001 §4: 2 s, 4 s, 8 s, then a random 10–15 s.
 * @param random a number in [0, 1) (injectable for tests)
 */
export function pollDelayMs(attempt: number, random: number = Math.random()): number {
  const fixed = UPSCALE_POLLING.initialDelaysMs[attempt];
  if (fixed !== undefined) return fixed;
  const span = UPSCALE_POLLING.randomMaxMs - UPSCALE_POLLING.randomMinMs;
  return UPSCALE_POLLING.randomMinMs + Math.floor(random * span);
}

/** True once polling has run past the 10-minute limit. */
export function pollTimedOut(startedAt: number, now: number): boolean {
  return now - startedAt >= UPSCALE_POLLING.timeoutMs;
}

/** The upscale job's schedule (001 §4), exactly: 2, 4, 8 s, then random 10–15 s, until 10 minutes. */
export const UPSCALE_POLLING_SCHEDULE: PollingSchedule = {
  delayMs: (attempt, random) => pollDelayMs(attempt, random),
  timedOut: (startedAt, now) => pollTimedOut(startedAt, now),
};

/**
 * Delay before face-edit status poll number `attempt` (0-based), spec 001 §4: a first wait of 1 s, then
 * 2 s growing by a factor of 1.25 per poll, capped at 10 s (1, 2, 2.5, 3.125, … 10, 10, … s).
 */
export function faceEditPollDelayMs(attempt: number): number {
  const p = FACE_EDIT.polling;
  if (attempt <= 0) return p.firstDelayMs;
  return Math.min(p.maxIntervalMs, Math.round(p.intervalMs * p.growth ** (attempt - 1)));
}

/**
 * True once the face-edit job has used its 120 status reads (001 §4: then TIMEOUT). `attempt` is the
 * number of the poll about to be made (1-based, as trackJob counts): poll 121 is never sent.
 */
export function faceEditPollTimedOut(attempt: number): boolean {
  return attempt > FACE_EDIT.polling.maxAttempts;
}

/** The face-edit job's schedule (001 §4): 1 s wait, 2 s × 1.25 up to 10 s, at most 120 polls. */
export const FACE_EDIT_POLLING_SCHEDULE: PollingSchedule = {
  delayMs: (attempt) => faceEditPollDelayMs(attempt),
  timedOut: (_startedAt, _now, attempt) => faceEditPollTimedOut(attempt),
};
