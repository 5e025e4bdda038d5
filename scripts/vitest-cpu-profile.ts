/**
 * Vitest setup file, active only with VITEST_CPU_PROF=<dir> (vitest.config.ts): records a V8 CPU
 * profile of each test file's worker thread, from its first hook to its last, and writes it to
 * `<dir>/<file path with / as __>.cpuprofile` — where the suite's minutes go, per file (issue 22).
 * Child processes and worker threads a test starts are not in it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Session } from 'node:inspector/promises';
import { afterAll, beforeAll, expect } from 'vitest';

const dir = process.env.VITEST_CPU_PROF;
if (dir) {
  const session = new Session();
  beforeAll(async () => {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 1000 });
    await session.post('Profiler.start');
  });
  afterAll(async () => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    const file = path.relative(process.cwd(), expect.getState().testPath ?? 'unknown').split(path.sep).join('__');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, `${file}.cpuprofile`), JSON.stringify(profile));
  });
}
