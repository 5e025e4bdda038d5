/**
 * `npm run bench:api` — the session path against the machine's ceiling (issue 17, decision 026).
 *
 * Starts, one after the other so they never compete for the CPU:
 *   1. a bare Fastify (bench/bare-server.ts) answering `GET /api/auth/check` with a fixed body;
 *   2. the Dewy API (`src/api.ts`, the same entry point as `npm start`) on PGlite in a temporary DATA_DIR;
 *   3. the Dewy API on a fresh PostgreSQL database (created on BENCH_DATABASE_URL, else TEST_DATABASE_URL,
 *      else postgres://postgres@127.0.0.1:5432/test, and dropped afterwards; skipped when unreachable);
 * signs a user up and in on each Dewy server, warms up, then loads `GET /api/auth/check` with that
 * session cookie through autocannon and prints requests per second (mean), p99 latency (ms) and each
 * server's share of the bare figure. A run where any answer was not 200 is reported as failed.
 *
 * Options: --duration <s> (default 10), --connections <n> (default 50), --warmup <s> (default 3),
 * --only bare,pglite,postgres, --profile (run the Dewy servers under `node --cpu-prof` and print the
 * top frames by self time; profiles kept in the printed folder), --peer (PostgreSQL: a second, idle Dewy
 * API process on the same database, so the measured one runs as in a multi-process deployment: each
 * cache hit waits for the shared LISTEN round trip, decision 026). Ports: BENCH_BARE_PORT (5407) and
 * BENCH_PORT (5417). The servers log at their default level into files in a temporary folder.
 */
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import pg from 'pg';

import { SERVER_DIR, startNode, stopChild, waitForHttp } from './bench-kit';

interface Options {
  duration: number;
  connections: number;
  warmup: number;
  only: Set<string>;
  profile: boolean;
  peer: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { duration: 10, connections: 50, warmup: 3, only: new Set(['bare', 'pglite', 'postgres']), profile: false, peer: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--duration') o.duration = Number(next());
    else if (a === '--connections') o.connections = Number(next());
    else if (a === '--warmup') o.warmup = Number(next());
    else if (a === '--only') o.only = new Set(next().split(','));
    else if (a === '--profile') o.profile = true;
    else if (a === '--peer') o.peer = true;
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

/** One measured run: mean requests per second, latency p99 and mean (ms), and whether every answer was a 200. */
interface Figures {
  rps: number;
  p99: number;
  mean: number;
  ok: boolean;
  note?: string;
}

async function load(url: string, cookie: string | undefined, connections: number, duration: number): Promise<Figures> {
  const r = await autocannon({ url, connections, duration, headers: cookie ? { cookie } : {} });
  const bad = r.non2xx + r.errors + r.timeouts;
  return {
    rps: r.requests.average,
    p99: r.latency.p99,
    mean: r.latency.average,
    ok: bad === 0 && r.requests.total > 0,
    note: bad ? `${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts` : undefined,
  };
}

async function signIn(base: string): Promise<string> {
  const email = `bench-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'bench password 1';
  const reg = await fetch(`${base}/api/auth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'Bench', email, password }) });
  if (reg.status !== 201) throw new Error(`register: ${reg.status} ${await reg.text()}`);
  const login = await fetch(`${base}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) });
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const sid = login.headers.getSetCookie().find((c) => c.startsWith('dewy_sid='));
  if (!sid) throw new Error('login set no dewy_sid cookie');
  const cookie = sid.split(';')[0]!;
  const check = await fetch(`${base}/api/auth/check`, { headers: { cookie } });
  const body = (await check.json()) as { isAuthenticated?: boolean };
  if (!body.isAuthenticated) throw new Error(`auth/check with the new session is not signed in: ${JSON.stringify(body)}`);
  return cookie;
}

/** Self time per function of a V8 .cpuprofile, largest first, as [label, share of samples]. */
function topFrames(profileFile: string, n = 20): [string, number][] {
  const p = JSON.parse(fs.readFileSync(profileFile, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
  };
  const byId = new Map(p.nodes.map((node) => [node.id, node]));
  const counts = new Map<string, number>();
  for (const id of p.samples) {
    const cf = byId.get(id)?.callFrame;
    if (!cf) continue;
    const where = cf.url ? `${cf.url.replace(/^file:\/\//, '').replace(/^.*node_modules\//, '').replace(SERVER_DIR, 'apps/server')}:${cf.lineNumber + 1}` : '';
    const label = `${cf.functionName || '(anonymous)'} ${where}`.trim();
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  const total = p.samples.length || 1;
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, v]) => [k, v / total]);
}

async function benchDewy(name: 'pglite' | 'postgres', o: Options, port: number, work: string, extraEnv: Record<string, string>): Promise<Figures> {
  const dataDir = fs.mkdtempSync(path.join(work, `${name}-`));
  const profDir = path.join(work, `${name}-profile`);
  const logFile = path.join(work, `${name}.log`);
  const child = startNode(
    'src/api.ts',
    { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, WEB_DIST_DIR: path.join(dataDir, 'no-web'), NSFW_SCREENING: 'false', ...extraEnv },
    logFile,
    o.profile ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : [],
  );
  const base = `http://127.0.0.1:${port}`;
  let peer: ChildProcess | undefined;
  try {
    await waitForHttp(`${base}/api/auth/check`, child, logFile);
    if (o.peer && name === 'postgres') {
      const peerLog = path.join(work, 'peer.log');
      const peerDir = fs.mkdtempSync(path.join(work, 'peer-'));
      peer = startNode('src/api.ts', { ...extraEnv, HOST: '127.0.0.1', PORT: '0', DATA_DIR: peerDir, WEB_DIST_DIR: path.join(peerDir, 'no-web'), NSFW_SCREENING: 'false', RUN_WORKERS: 'false' }, peerLog);
      const deadline = Date.now() + 60_000;
      while (!/running at/.test(fs.readFileSync(peerLog, 'utf8'))) {
        if (peer.exitCode !== null || Date.now() > deadline) throw new Error(`peer API process did not start; log: ${peerLog}`);
        await new Promise((r) => setTimeout(r, 200));
      }
      await new Promise((r) => setTimeout(r, 1500)); // the measured process notices its peer within a second
    }
    const cookie = await signIn(base);
    await load(`${base}/api/auth/check`, cookie, o.connections, o.warmup);
    return await load(`${base}/api/auth/check`, cookie, o.connections, o.duration);
  } finally {
    if (peer) await stopChild(peer);
    await stopChild(child);
    // The API logs its session-cache counters at shutdown: a low hit count explains a slow run.
    const stats = fs.readFileSync(logFile, 'utf8').split('\n').find((l) => l.includes('"msg":"session cache"'));
    if (stats) console.log(`${name}: session cache ${JSON.stringify((JSON.parse(stats) as { sessionCache: unknown }).sessionCache)}`);
    if (o.profile && fs.existsSync(profDir)) {
      // CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile: thread 0 is the main thread (the others are tsx's loader).
      for (const f of fs.readdirSync(profDir).filter((f) => /\.0\.\d+\.cpuprofile$/.test(f))) {
        console.log(`\n${name}: top frames by self time (${path.join(profDir, f)})`);
        for (const [label, share] of topFrames(path.join(profDir, f))) console.log(`  ${(share * 100).toFixed(1).padStart(5)} %  ${label}`);
      }
    }
  }
}

async function createBenchDatabase(): Promise<{ url: string; drop(): Promise<void> } | null> {
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const name = `dewy_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 });
  try {
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (err) {
    console.warn(`PostgreSQL at ${adminUrl} unavailable (${(err as Error).message}): the PostgreSQL run is skipped`);
    return null;
  } finally {
    await admin.end().catch(() => {});
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

const fmt = (f: Figures | undefined, bare: Figures | undefined) =>
  f
    ? `${Math.round(f.rps).toString().padStart(8)} req/s  p99 ${String(f.p99).padStart(4)} ms  mean ${f.mean.toFixed(1).padStart(5)} ms` +
      (bare && f !== bare ? `  ${((f.rps / bare.rps) * 100).toFixed(1).padStart(5)} % of bare` : '') +
      (f.ok ? '' : `  FAILED (${f.note ?? 'no requests'})`)
    : '  (not run)';

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const barePort = Number(process.env.BENCH_BARE_PORT ?? 5407);
  const port = Number(process.env.BENCH_PORT ?? 5417);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-bench-'));
  console.log(`bench:api — GET /api/auth/check, ${o.connections} connections, ${o.duration} s after ${o.warmup} s warm-up; node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`work folder (logs, profiles): ${work}`);
  const results: Record<string, Figures | undefined> = {};

  if (o.only.has('bare')) {
    const logFile = path.join(work, 'bare.log');
    const child = startNode('bench/bare-server.ts', { PORT: String(barePort) }, logFile);
    try {
      await waitForHttp(`http://127.0.0.1:${barePort}/api/auth/check`, child, logFile);
      await load(`http://127.0.0.1:${barePort}/api/auth/check`, undefined, o.connections, o.warmup);
      results.bare = await load(`http://127.0.0.1:${barePort}/api/auth/check`, undefined, o.connections, o.duration);
    } finally {
      await stopChild(child);
    }
    console.log(`bare Fastify     ${fmt(results.bare, results.bare)}`);
  }
  if (o.only.has('pglite')) {
    results.pglite = await benchDewy('pglite', o, port, work, {});
    console.log(`Dewy on PGlite   ${fmt(results.pglite, results.bare)}`);
  }
  if (o.only.has('postgres')) {
    const db = await createBenchDatabase();
    if (db) {
      try {
        results.postgres = await benchDewy('postgres', o, port, work, { DATABASE_URL: db.url });
      } finally {
        await db.drop().catch((err: unknown) => console.warn('could not drop the bench database', err));
      }
      console.log(`Dewy on Postgres ${fmt(results.postgres, results.bare)}`);
    }
  }

  console.log('\nsummary');
  console.log(`  bare Fastify      ${fmt(results.bare, results.bare)}`);
  console.log(`  Dewy on PGlite    ${fmt(results.pglite, results.bare)}   (target ≥ 10 % of bare)`);
  console.log(`  Dewy on Postgres  ${fmt(results.postgres, results.bare)}   (target ≥ 25 % of bare, p99 < 20 ms)`);
  if (Object.values(results).some((r) => r && !r.ok)) process.exitCode = 1;
}

await main();
