import fs from 'node:fs';
import path from 'node:path';
import { isAlive } from './db/lock';

/**
 * Where a running server listens, recorded in its DATA_DIR so that the operator tools started with the
 * same DATA_DIR (`npm run billing`) find it on whatever PORT it was started (issue 28, point 13).
 * File: `DATA_DIR/server.json` = `{ url, pid, startedAt }`, written when the server listens, removed when
 * it shuts down; a record whose process is gone is ignored.
 */
export interface ServerAddress {
  /** Base URL a local client reaches the API at, e.g. `http://127.0.0.1:5123` (no trailing slash). */
  url: string;
  /** The server's process id. */
  pid: number;
  startedAt: string;
}

const FILE = 'server.json';

/** The URL a local client uses for a server listening on `host:port` (a wildcard address means loopback). */
export function localUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  return `http://${h}:${port}`;
}

/** Records the listening address in `dataDir` (atomically: a temporary file renamed over the old one). */
export function writeServerAddress(dataDir: string, url: string, pid = process.pid): void {
  fs.mkdirSync(dataDir, { recursive: true });
  const tmp = path.join(dataDir, `${FILE}.${pid}.tmp`);
  fs.writeFileSync(tmp, JSON.stringify({ url, pid, startedAt: new Date().toISOString() } satisfies ServerAddress));
  fs.renameSync(tmp, path.join(dataDir, FILE));
}

/** Removes the record if it is this process's own (a newer server's record is left alone). */
export function clearServerAddress(dataDir: string, pid = process.pid): void {
  if (readServerAddress(dataDir, () => true)?.pid === pid) fs.rmSync(path.join(dataDir, FILE), { force: true });
}

/**
 * The running server's record in `dataDir`, or null when there is none, it is unreadable, or its
 * process is gone (`alive` decides; default: signal 0 to the pid).
 */
export function readServerAddress(dataDir: string, alive: (pid: number) => boolean = isAlive): ServerAddress | null {
  try {
    const v = JSON.parse(fs.readFileSync(path.join(dataDir, FILE), 'utf8')) as Partial<ServerAddress>;
    if (typeof v.url !== 'string' || !/^https?:\/\//.test(v.url) || !Number.isInteger(v.pid)) return null;
    return alive(v.pid!) ? (v as ServerAddress) : null;
  } catch {
    return null;
  }
}

/**
 * The API base an operator tool calls: `BILLING_API_URL` when set, else the running server recorded in
 * DATA_DIR, else `http://127.0.0.1:$PORT` from the same configuration. `source` says which, for errors.
 */
export function operatorApiBase(env: Record<string, string | undefined>, dataDir: string, port: number, alive?: (pid: number) => boolean): { url: string; source: 'BILLING_API_URL' | 'DATA_DIR' | 'PORT' } {
  if (env.BILLING_API_URL) return { url: env.BILLING_API_URL.replace(/\/$/, ''), source: 'BILLING_API_URL' };
  const rec = readServerAddress(dataDir, alive);
  if (rec) return { url: rec.url.replace(/\/$/, ''), source: 'DATA_DIR' };
  return { url: `http://127.0.0.1:${port}`, source: 'PORT' };
}
