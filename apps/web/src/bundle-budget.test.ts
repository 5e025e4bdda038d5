/**
 * The first-load JavaScript budget (issue 17, decision 025): the landing route (`/`, Korean) may ship at
 * most 150 kB of gzipped JavaScript before it can show — the entry chunk and its static imports, the
 * landing page's own chunk and its static imports, and the active language's catalogue chunk. The test
 * walks the static import graph of the real production build's manifest (apps/web's own Vite, as `npm run
 * build` does) and gzips every chunk it reaches. The build is `WEB_BUILD_DIR` when set — `npm test` sets
 * it to apps/web/dist once its build step has passed, moments before (issue 22: one build per run, not
 * two) — else the test builds into a temporary folder.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** The budget, in bytes of gzip (level 9, as the build report counts). */
const LANDING_JS_BUDGET_BYTES = 150 * 1000;

const WEB = path.resolve(import.meta.dirname, '..');
const LANDING_SRC = 'src/features/landing/components/landing-page.tsx';
const KO_CATALOGUE_SRC = 'src/locales/ko.json';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

let outDir = '';
let manifest: Manifest = {};

/** Manifest keys reachable from `roots` through static imports only (what the browser must fetch). */
function staticClosure(roots: string[]): string[] {
  const seen = new Set<string>();
  const stack = [...roots];
  while (stack.length > 0) {
    const key = stack.pop() as string;
    if (seen.has(key)) continue;
    seen.add(key);
    stack.push(...(manifest[key]?.imports ?? []));
  }
  return [...seen];
}

function gzipBytes(key: string): number {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`manifest has no ${key}`);
  return gzipSync(readFileSync(path.join(outDir, chunk.file)), { level: 9 }).length;
}

function landingRouteKeys(): string[] {
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entry) throw new Error('no entry chunk in the manifest');
  return staticClosure([entry, LANDING_SRC, KO_CATALOGUE_SRC]);
}

let ownBuild = false;

beforeAll(() => {
  if (process.env.WEB_BUILD_DIR) {
    outDir = path.resolve(process.env.WEB_BUILD_DIR);
  } else {
    outDir = mkdtempSync(path.join(tmpdir(), 'dewy-web-budget-'));
    ownBuild = true;
    execFileSync(process.execPath, [path.join(WEB, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
      cwd: WEB,
      // Vitest runs with NODE_ENV=test, which would make Vite bundle React's development build.
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  }
  // vite.config.ts: build.manifest writes it there.
  manifest = JSON.parse(readFileSync(path.join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
}, 120_000);

afterAll(() => {
  if (ownBuild) rmSync(outDir, { recursive: true, force: true });
});

describe('landing route first-load JavaScript budget', () => {
  it('the landing page and both catalogues are separate chunks loaded on demand', () => {
    for (const src of [LANDING_SRC, KO_CATALOGUE_SRC, 'src/locales/en.json']) {
      expect(manifest[src]?.isDynamicEntry, `${src} is a lazy chunk`).toBe(true);
    }
    const keys = landingRouteKeys();
    // English is fetched only for English visitors; the tool pages only when opened.
    expect(keys).not.toContain('src/locales/en.json');
    expect(keys).not.toContain('src/features/upscale/components/upscale-page.tsx');
  });

  it(`ships at most ${LANDING_JS_BUDGET_BYTES / 1000} kB of gzipped JavaScript`, () => {
    const sizes = landingRouteKeys().map((k) => ({ chunk: manifest[k]?.file ?? k, gzip: gzipBytes(k) }));
    const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
    console.info(`landing route JS: ${(total / 1000).toFixed(1)} kB gzip in ${sizes.length} chunks`, sizes);
    expect(total).toBeLessThanOrEqual(LANDING_JS_BUDGET_BYTES);
  });
});
