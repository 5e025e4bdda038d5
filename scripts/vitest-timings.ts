import fs from 'node:fs';
import path from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';
import { DURATIONS_FILE } from './vitest-sequencer';

const ROOT = path.resolve(import.meta.dirname, '..');
/** Where every run's timings are written (ignored folder). */
export const TIMINGS_FILE = path.join(ROOT, '.artifacts/vitest-timings.json');

/** One file's time (ms): what its worker spent on it, import included. */
export interface FileTiming {
  file: string;
  /** prepare + collect (importing the file and everything it imports) + setup + tests and hooks */
  totalMs: number;
  collectMs: number;
  testsMs: number;
}

/**
 * A Vitest reporter (vitest.config.ts lists it after the default one) that writes each run's per-file and
 * per-test durations to `.artifacts/vitest-timings.json` — files longest first, with import time, which
 * Vitest's JSON report leaves out — and the 20 longest tests. With `VITEST_DURATIONS_UPDATE=1` (`npm run
 * test:durations`) it also rewrites scripts/vitest-durations.json, the order the sequencer runs files in
 * (decision 033 addendum). A run with failures or a filtered run (not every file) updates only the files it ran.
 */
export default class TimingsReporter implements Reporter {
  /** Writes the files above; never fails the run (a write error is printed). */
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    try {
      const files: FileTiming[] = modules
        .map((m) => {
          const d = m.diagnostic();
          return {
            file: path.relative(ROOT, m.moduleId).split(path.sep).join('/'),
            totalMs: Math.round(d.prepareDuration + d.collectDuration + d.setupDuration + d.duration),
            collectMs: Math.round(d.collectDuration),
            testsMs: Math.round(d.duration),
          };
        })
        .sort((a, b) => b.totalMs - a.totalMs);
      const tests = modules
        .flatMap((m) => [...m.children.allTests()].map((t) => ({ file: path.relative(ROOT, m.moduleId).split(path.sep).join('/'), test: t.fullName, ms: Math.round(t.diagnostic()?.duration ?? 0) })))
        .sort((a, b) => b.ms - a.ms)
        .slice(0, 20);
      const sum = files.reduce((s, f) => s + f.totalMs, 0);
      fs.mkdirSync(path.dirname(TIMINGS_FILE), { recursive: true });
      fs.writeFileSync(TIMINGS_FILE, `${JSON.stringify({ sumMs: sum, files, tests }, null, 1)}\n`);
      if (process.env.VITEST_DURATIONS_UPDATE === '1') {
        const old = fs.existsSync(DURATIONS_FILE) ? (JSON.parse(fs.readFileSync(DURATIONS_FILE, 'utf8')) as { files?: Record<string, number> }).files ?? {} : {};
        // entries of deleted files go; those of files this run did not include stay
        const merged: Record<string, number> = Object.fromEntries(Object.entries(old).filter(([f]) => fs.existsSync(path.join(ROOT, f))));
        for (const f of files) if (f.totalMs > 0) merged[f.file] = f.totalMs;
        const sorted = Object.fromEntries(Object.entries(merged).sort((a, b) => b[1] - a[1]));
        const note = 'ms per test file (import + tests), measured on the 2-core machine; only their order matters: the sequencer runs the longest first. Rewrite: npm run test:durations';
        fs.writeFileSync(DURATIONS_FILE, `${JSON.stringify({ note, files: sorted }, null, 1)}\n`);
        console.log(`[timings] ${files.length} durations written to ${path.relative(ROOT, DURATIONS_FILE)}`);
      }
      console.log(`[timings] Σ file time ${(sum / 1000).toFixed(1)} s over ${files.length} files; longest: ${files.slice(0, 5).map((f) => `${path.basename(f.file)} ${(f.totalMs / 1000).toFixed(1)} s`).join(', ')} (${path.relative(ROOT, TIMINGS_FILE)})`);
    } catch (err) {
      console.error('[timings] could not write the timings:', err);
    }
  }
}
