import { defineConfig } from 'vitest/config';

// One Vitest run for every workspace's unit and integration tests (*.test.ts beside the code).
export default defineConfig({
  test: {
    // Migrates one PGlite cluster and one PostgreSQL database per run; suites copy them (decision 033).
    globalSetup: ['apps/server/test/global-setup.ts'],
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts', 'apps/web/src/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    fileParallelism: true,
    maxWorkers: 2,
  },
});
