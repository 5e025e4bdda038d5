import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** apps/server: where the benches start the server's entry points from. */
export const SERVER_DIR = path.resolve(import.meta.dirname, '..');

/**
 * Starts `script` (relative to apps/server, e.g. `src/api.ts`) in a child Node with tsx, its stdout and
 * stderr into `logFile`; `nodeFlags` go before the script (e.g. `--cpu-prof`).
 */
export function startNode(script: string, env: Record<string, string>, logFile: string, nodeFlags: string[] = []): ChildProcess {
  const fd = fs.openSync(logFile, 'w');
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script], { cwd: SERVER_DIR, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd] });
  fs.closeSync(fd);
  return child;
}

/**
 * Waits until `url` answers (any status), polling every 200 ms.
 * @throws when the child exits first (with the log's tail) or after `timeoutMs`
 */
export async function waitForHttp(url: string, child: ChildProcess, logFile: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited (${child.exitCode}); log: ${logFile}\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`server at ${url} did not answer within ${timeoutMs} ms; log: ${logFile}`);
}

/** Stops a child with SIGINT (graceful shutdown), SIGKILL after 30 s. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGINT');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}
