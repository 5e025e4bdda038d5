import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './scripts/vitest-sequencer.ts';

// One Vitest run for every workspace's unit and integration tests (*.test.ts beside the code).
export default defineConfig({
  test: {
    // Migrates one PGlite cluster and one PostgreSQL database per run; suites copy them (decision 033).
    globalSetup: ['apps/server/test/global-setup.ts'],
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
    // Deadlines, not margins: no verdict depends on them (decision 033); generous so that a suite on a
    // saturated 2-core machine (npm run test:stress) is not cut off while it waits for its events.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Longest file first, from the committed scripts/vitest-durations.json (decision 033 addendum).
    sequence: { sequencer: LongestFirstSequencer },
    // The default report, and per-file timings (import included) in .artifacts/vitest-timings.json.
    reporters: ['default', './scripts/vitest-timings.ts'],
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
