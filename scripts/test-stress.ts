/**
 * `npm run test:stress [-- --runs N]`: runs the unit and integration suite (Vitest, both databases) N
 * times (default 3) while four CPU hogs run beside it — `stress-ng --cpu 4` when installed, else four
 * `node -e 'for(;;);'` children — and prints every test that failed in any run (from Vitest's JSON
 * reporter), with the runs it failed in. Exit 1 if any test failed (or a run produced no report), 0
 * otherwise. The hogs are killed at the end, also on Ctrl-C. For anyone touching timing (decision 033).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const HOGS = 4;

/** `--runs N` (N ≥ 1) from argv; anything after `--` is passed to Vitest (e.g. a file filter). */
function parseArgs(argv: string[]): { runs: number; vitestArgs: string[] } {
  let runs = 3;
  const vitestArgs: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--runs') runs = Number(argv[++i]);
    else if (a.startsWith('--runs=')) runs = Number(a.slice('--runs='.length));
    else vitestArgs.push(a);
  }
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs takes a whole number ≥ 1');
  return { runs, vitestArgs };
}

/** Starts the CPU hogs: one stress-ng process when present, else HOGS busy-looping node children. */
function startHogs(): ChildProcess[] {
  const hasStressNg = spawnSync('stress-ng', ['--version'], { stdio: 'ignore' }).status === 0;
  if (hasStressNg) {
    console.log(`[stress] stress-ng --cpu ${HOGS}`);
    return [spawn('stress-ng', ['--cpu', String(HOGS), '--quiet'], { stdio: 'ignore', detached: true })];
  }
  console.log(`[stress] ${HOGS} × node -e 'for(;;);'`);
  return Array.from({ length: HOGS }, () => spawn(process.execPath, ['-e', 'for(;;);'], { stdio: 'ignore', detached: true }));
}

/** Kills each hog's process group (stress-ng forks its workers into it). */
function stopHogs(hogs: ChildProcess[]): void {
  for (const h of hogs) {
    if (h.pid === undefined || h.exitCode !== null) continue;
    try {
      process.kill(-h.pid, 'SIGKILL');
    } catch {
      h.kill('SIGKILL');
    }
  }
}

interface VitestJson {
  testResults: { name: string; status: string; message?: string; assertionResults: { fullName: string; status: string }[] }[];
}

/** One Vitest run with the JSON reporter; @returns the failed tests ("file > name") or null without a report. */
async function runOnce(n: number, vitestArgs: string[]): Promise<{ failed: string[]; wallS: number } | null> {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-stress-')), 'vitest.json');
  const started = Date.now();
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter=dot', '--reporter=json', `--outputFile.json=${out}`, ...vitestArgs], { cwd: ROOT, stdio: 'inherit' });
    child.on('exit', resolve);
  });
  const wallS = (Date.now() - started) / 1000;
  if (!fs.existsSync(out)) {
    console.log(`[stress] run ${n}: no report (vitest exited ${code})`);
    return null;
  }
  const report = JSON.parse(fs.readFileSync(out, 'utf8')) as VitestJson;
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  const failed: string[] = [];
  for (const file of report.testResults) {
    const rel = path.relative(ROOT, file.name);
    const tests = file.assertionResults.filter((t) => t.status === 'failed').map((t) => `${rel} > ${t.fullName}`);
    // A file that failed outside any test (an import or a hook) has no failed test to name.
    if (tests.length === 0 && file.status === 'failed') tests.push(`${rel} > (file: ${(file.message ?? '').split('\n')[0]})`);
    failed.push(...tests);
  }
  console.log(`[stress] run ${n}: ${failed.length} failed, ${wallS.toFixed(0)} s, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  return { failed, wallS };
}

const { runs, vitestArgs } = parseArgs(process.argv.slice(2));
const hogs = startHogs();
const onSignal = () => {
  stopHogs(hogs);
  process.exit(130);
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

const failures = new Map<string, number[]>();
let missing = 0;
try {
  for (let n = 1; n <= runs; n++) {
    const r = await runOnce(n, vitestArgs);
    if (!r) {
      missing++;
      continue;
    }
    for (const t of r.failed) failures.set(t, [...(failures.get(t) ?? []), n]);
  }
} finally {
  stopHogs(hogs);
}

if (failures.size === 0 && missing === 0) {
  console.log(`[stress] ${runs} run(s) under ${HOGS} CPU hogs: no test failed`);
} else {
  console.log(`[stress] ${failures.size} test(s) failed in at least one of ${runs} run(s)${missing ? `; ${missing} run(s) gave no report` : ''}:`);
  for (const [t, inRuns] of [...failures].sort()) console.log(`  ✗ ${t}  (run ${inRuns.join(', ')})`);
  process.exitCode = 1;
}
