import type { ContentModerator } from '../../src/providers/moderation/content-moderator';

/**
 * A moderator for service tests: passes everything unless `flagAll` is set or `flagIf` says so for the
 * n-th image it screens (0-based, counted over its life); counts what it saw.
 */
export interface FakeModerator extends ContentModerator {
  flagAll: boolean;
  flagIf: ((n: number, image: Buffer) => boolean) | null;
  seen: number;
}

export function createFakeModerator(): FakeModerator {
  const m: FakeModerator = {
    name: 'fake',
    flagAll: false,
    flagIf: null,
    seen: 0,
    async screen(image) {
      const n = m.seen++;
      return m.flagAll || m.flagIf?.(n, image)
        ? { flagged: true, scores: { drawing: 0, hentai: 0.1, neutral: 0.05, porn: 0.85, sexy: 0 } }
        : { flagged: false, scores: { drawing: 0, hentai: 0, neutral: 0.99, porn: 0, sexy: 0.01 } };
    },
    async close() {},
  };
  return m;
}
