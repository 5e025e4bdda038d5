import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The committed per-file durations (ms, import + tests; only their order matters): `npm run test:durations` rewrites it. */
export const DURATIONS_FILE = path.resolve(import.meta.dirname, 'vitest-durations.json');

/** Reads DURATIONS_FILE: repo-relative test file path → ms. An absent or unreadable file gives no entries. */
export function readDurations(file = DURATIONS_FILE): Map<string, number> {
  try {
    const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { files?: Record<string, number> };
    return new Map(Object.entries(json.files ?? {}).filter(([, ms]) => typeof ms === 'number' && ms >= 0));
  } catch {
    return new Map();
  }
}

/**
 * Longest file first (decision 033 addendum): the files' running times differ by three orders of magnitude
 * (an engine or cross-process suite runs 20–60 s, most run under 2 s), and the pool hands the next file to
 * whichever worker is free, so starting the long poles first keeps both workers busy to the end instead of
 * leaving one idle while the other finishes a long file that started late. Without this, Vitest orders a
 * fresh clone (no results cache) by file size, which puts some of the longest files last.
 *
 * Order: a file that failed in this machine's last run first (Vitest's own rule, for a quick verdict); then
 * by the committed duration (scripts/vitest-durations.json), else this machine's cached duration, longest
 * first; a file known to neither (a new file) goes first, as Vitest does, since it may be long.
 * Which files run is untouched — only their order.
 */
export default class LongestFirstSequencer extends BaseSequencer {
  private readonly committed = readDurations();

  /** @returns the same specifications, reordered as above. */
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache;
    const root = this.ctx.config.root;
    const info = new Map(
      files.map((spec) => {
        const rel = path.relative(root, spec.moduleId).split(path.sep).join('/');
        const cached = cache.getFileTestResults(`${spec.project.name}:${rel}`);
        const ms = this.committed.get(rel) ?? cached?.duration;
        return [spec, { failed: cached?.failed === true, ms: ms ?? Number.POSITIVE_INFINITY }] as const;
      }),
    );
    return [...files].sort((a, b) => {
      const x = info.get(a)!;
      const y = info.get(b)!;
      if (x.failed !== y.failed) return x.failed ? -1 : 1;
      if (x.ms === y.ms) return a.moduleId < b.moduleId ? -1 : a.moduleId > b.moduleId ? 1 : 0;
      return y.ms > x.ms ? 1 : -1;
    });
  }
}
