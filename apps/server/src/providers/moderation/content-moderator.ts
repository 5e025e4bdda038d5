import type { NsfwScores } from '@dewy/engine';
import type { LocalPool } from '../engines/local.engine';

/**
 * Upload screening (issue 13, spec 001 §8 NSFW_CONTENT_DETECTED). The local moderator runs the NSFWJS
 * classifier on the engine's worker pool; an image is refused when P(porn) + P(hentai) ≥ the threshold
 * (NSFW_THRESHOLD, default 0.7 — decision 017). "sexy" alone is not refused: swimwear and bare shoulders
 * are ordinary in portraits.
 */
export interface ContentModerator {
  readonly name: string;
  /** Scores an image. @returns whether it is refused and the class probabilities (for logs). */
  screen(image: Buffer, signal?: AbortSignal): Promise<{ flagged: boolean; scores: NsfwScores | null }>;
  close(): Promise<void>;
}

/** True when the scores reach the threshold (see the module comment). */
export function isFlagged(scores: NsfwScores, threshold: number): boolean {
  return scores.porn + scores.hentai >= threshold;
}

/** The local moderator on the shared worker pool. */
export function createLocalModerator(pool: LocalPool, threshold: number): ContentModerator {
  pool.acquire();
  return {
    name: 'nsfwjs',
    async screen(image, signal) {
      const scores = await (await pool.get()).classifyNsfw(image, signal);
      return { flagged: isFlagged(scores, threshold), scores };
    },
    close: () => pool.release(),
  };
}

/** Screening switched off (NSFW_SCREENING=false): every image passes. */
export const noModeration: ContentModerator = {
  name: 'off',
  async screen() {
    return { flagged: false, scores: null };
  },
  async close() {},
};
