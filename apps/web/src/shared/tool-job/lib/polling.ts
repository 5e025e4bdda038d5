import { FACE_EDIT, IMAGE_EDIT, IMAGE_GENERATION, UPSCALE_POLLING } from '@dewy/contracts';

/**
 * The page's status-polling schedules (the fallback of the job event stream), one per tool, declared
 * here and nowhere else: the numbers are the spec's, from `@dewy/contracts`; each tool's client
 * definition (`features/<tool>/tool.ts`) names its schedule. trackJob runs them.
 *
 * | tool | spec | schedule |
 * |---|---|---|
 * | upscale | 001 §4 | 2, 4, 8 s, then a random 10–15 s, until 10 minutes |
 * | face edit | 001 §4 | 1 s, then 2 s × 1.25 per poll up to 10 s, at most 120 polls |
 * | image generation | 002 §4 | 2, 4, 8 s, then a random 10–15 s, at most 60 polls |
 * | image edit | 002 §4 | every 3 s for 240 s |
 */
export interface PollingSchedule {
  /** Delay before status poll number `attempt` (0-based). @param random a number in [0, 1) */
  delayMs(attempt: number, random: number): number;
  /**
   * True once polling has to give up (the job counts as failed: timeout). `attempt` is the number of
   * the poll about to be made (1-based, as trackJob counts); times in ms.
   */
  timedOut(startedAt: number, now: number, attempt: number): boolean;
}

/** Fixed first delays, then a random delay in [min, max) (ms): the upscale and generation shape. */
function backoffDelayMs(fixed: readonly number[], min: number, max: number, attempt: number, random: number): number {
  const first = fixed[attempt];
  if (first !== undefined) return first;
  return min + Math.floor(random * (max - min));
}

/**
 * Delay before status poll number `attempt` (0-based), spec 001 §4: 2 s, 4 s, 8 s, then a random 10–15 s.
 * @param random a number in [0, 1) (injectable for tests)
 */
export function pollDelayMs(attempt: number, random: number = Math.random()): number {
  return backoffDelayMs(UPSCALE_POLLING.initialDelaysMs, UPSCALE_POLLING.randomMinMs, UPSCALE_POLLING.randomMaxMs, attempt, random);
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

/** The image generation (consistency) job's schedule (002 §4): 2, 4, 8 s, then random 10–15 s, at most 60 polls. */
export const GENERATION_POLLING_SCHEDULE: PollingSchedule = {
  delayMs: (attempt, random) => {
    const p = IMAGE_GENERATION.polling;
    return backoffDelayMs(p.firstDelaysMs, p.randomMinMs, p.randomMaxMs, attempt, random);
  },
  timedOut: (_startedAt, _now, attempt) => attempt > IMAGE_GENERATION.polling.maxAttempts,
};

/**
 * The image-edit job's schedule (002 §4): a status read every 3 s until 240 s have passed — the read at
 * 240 s is still made (80 reads), the job times out at the next one.
 */
export const IMAGE_EDIT_POLLING_SCHEDULE: PollingSchedule = {
  delayMs: () => IMAGE_EDIT.polling.intervalMs,
  timedOut: (startedAt, now) => now - startedAt > IMAGE_EDIT.polling.timeoutMs,
};
