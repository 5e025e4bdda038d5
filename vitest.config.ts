import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './scripts/vitest-sequencer.ts';

const INCLUDE = ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts', 'apps/web/src/**/*.test.ts', 'clients/**/*.test.ts'];

/**
 * Test files that replace a module (`vi.mock`/`vi.doMock`): they need a fresh module graph, so they run
 * isolated; every other file shares its worker's already imported modules (decision 033 addendum).
 */
function filesThatMockModules(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (e.name === 'node_modules' || e.name === 'dist') continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.test.ts') && /\bvi\.(do)?mock\(/.test(fs.readFileSync(p, 'utf8'))) found.push(path.relative(import.meta.dirname, p).split(path.sep).join('/'));
    }
  };
  for (const top of ['packages', 'apps']) walk(path.join(import.meta.dirname, top));
  return found;
}
const MOCKING = filesThatMockModules();

/** What every project runs with. */
const common = {
  // Migrates one PGlite cluster and one PostgreSQL database per run; suites copy them (decision 033).
  globalSetup: ['apps/server/test/global-setup.ts'],
  // Deadlines, not margins: no verdict depends on them (decision 033); generous so that a suite on a
  // saturated 2-core machine (npm run test:stress) is not cut off while it waits for its events.
  testTimeout: 120_000,
  hookTimeout: 300_000,
  pool: 'forks' as const,
  // VITEST_CPU_PROF=<dir>: every worker writes a V8 CPU profile there (where the suite's minutes go; issue 22).
  setupFiles: process.env.VITEST_CPU_PROF ? ['scripts/vitest-cpu-profile.ts'] : [],
};

// One Vitest run for every workspace's unit and integration tests (*.test.ts beside the code).
export default defineConfig({
  test: {
    // Longest file first, from the committed scripts/vitest-durations.json (decision 033 addendum).
    sequence: { sequencer: LongestFirstSequencer },
    // The default report, and per-file timings (import included) in .artifacts/vitest-timings.json.
    reporters: ['default', './scripts/vitest-timings.ts'],
    fileParallelism: true,
    // Four workers on two cores: a suite's tests wait on timers, sockets and child processes about a
    // third of the time, so two workers left the cores idle (301 s → 254 s on the quiet 2-core machine).
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS ?? 4),
    // A worker imports the server, the engine and their dependencies once, not once per file: most of a
    // small file's time was that import (decision 033 addendum). Each file still gets its own test
    // state (its app, its database); the files that mock modules run isolated.
    projects: [
      { test: { ...common, name: 'shared', include: INCLUDE, exclude: ['**/node_modules/**', ...MOCKING], isolate: false } },
      { test: { ...common, name: 'isolated', include: MOCKING, isolate: true } },
    ],
  },
});
