/**
 * `npm test`: the whole suite, as CI runs it (`.ci/run`) — typecheck, lint, the unit and integration
 * tests on both databases (Vitest), the production build and the browser tests (Playwright).
 *
 * Phase 1 runs typecheck, lint and build side by side (each is mostly one thread; two cores): their
 * output is held and printed whole when each ends. Phase 2 runs Vitest, phase 3 the browser tests against
 * the build. (Running the first three at nice 10 beside Vitest was measured slower: 297 s for Vitest with
 * them against 248 + 21 s in turn; issue 22.) Every step runs even when an earlier one failed (a failing
 * unit test must not hide the browser tests' verdict), except the browser tests when the build itself
 * failed. A summary lists each step's verdict and wall time; exit 1 if any step failed.
 *
 * Usage: `npm test` (no arguments). Each step stays runnable alone: `npm run typecheck | lint | test:unit
 * | build | test:e2e`.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface StepResult {
  name: string;
  ok: boolean;
  seconds: number;
}

/**
 * Runs `npm run <script> [args]` in the repository root.
 * @param opts.background hold the output until the step ends (printed whole), for steps run side by side
 * @param opts.env variables added to the environment of the step
 * @returns the step's verdict (exit code 0) and its wall time in seconds
 */
function run(name: string, script: string[], opts: { background?: boolean; env?: Record<string, string> } = {}): Promise<StepResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(NPM, ['run', '--silent', ...script], { cwd: ROOT, stdio: opts.background ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...opts.env } });
    let held = '';
    child.stdout?.on('data', (d: Buffer) => (held += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (held += d.toString()));
    child.on('close', (code) => {
      const result = { name, ok: code === 0, seconds: (Date.now() - started) / 1000 };
      if (opts.background) {
        process.stdout.write(`\n[test] ── ${name}: ${result.ok ? 'passed' : 'FAILED'} in ${result.seconds.toFixed(1)} s ──\n${held}${held.endsWith('\n') || !held ? '' : '\n'}`);
      }
      resolve(result);
    });
  });
}

const t0 = Date.now();
const phase1 = await Promise.all([
  run('typecheck', ['typecheck'], { background: true }),
  run('lint', ['lint'], { background: true }),
  run('build', ['build'], { background: true }),
]);
const build = phase1.find((r) => r.name === 'build')!;
// The bundle budget test reads the build just made instead of building again (apps/web/src/bundle-budget.test.ts).
const unit = await run('unit and integration (vitest)', ['test:unit'], { env: build.ok ? { WEB_BUILD_DIR: path.join(ROOT, 'apps/web/dist') } : {} });
const e2e: StepResult = build.ok ? await run('browser tests (playwright)', ['test', '-w', '@dewy/e2e']) : { name: 'browser tests (playwright)', ok: false, seconds: 0 };
const results = [...phase1, unit, e2e];

console.log('\n[test] summary');
for (const r of results) console.log(`[test]   ${r.ok ? 'passed' : 'FAILED'}  ${r.seconds.toFixed(1).padStart(6)} s  ${r.name}${!build.ok && r === e2e ? ' (not run: the build failed)' : ''}`);
console.log(`[test]   total ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(results.every((r) => r.ok) ? 0 : 1);
