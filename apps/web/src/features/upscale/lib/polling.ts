import { UPSCALE_POLLING } from '@dewy/contracts';

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
