import type { ContentModerator } from '../../src/providers/moderation/content-moderator';

/** A moderator for service tests: passes everything unless `flagAll` is set; counts what it saw. */
export interface FakeModerator extends ContentModerator {
  flagAll: boolean;
  seen: number;
}

export function createFakeModerator(): FakeModerator {
  const m: FakeModerator = {
    name: 'fake',
    flagAll: false,
    seen: 0,
    async screen() {
      m.seen++;
      return m.flagAll
        ? { flagged: true, scores: { drawing: 0, hentai: 0.1, neutral: 0.05, porn: 0.85, sexy: 0 } }
        : { flagged: false, scores: { drawing: 0, hentai: 0, neutral: 0.99, porn: 0, sexy: 0.01 } };
    },
    async close() {},
  };
  return m;
}
