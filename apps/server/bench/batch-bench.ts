/**
 * `npm run bench:batch` — a customer's batch through the public API beside one page customer (decision
 * 040 §4, fair queueing of decision 035).
 *
 * Starts the Dewy API (`src/api.ts`, the same entry point as `npm start`: one process with its in-process
 * workers, WORKER_CONCURRENCY=1, the local engine with the models of ../shared/models unless MODELS_DIR
 * says otherwise) on PGlite in a temporary DATA_DIR, then, all over HTTP as real clients would:
 *   1. signs two customers up (A and B), verifies each by the link the server mailed to DATA_DIR/outbox,
 *      logs them in (session cookies);
 *   2. buys A a credit pack on the sandbox payment provider's hosted checkout (POST
 *      /api/payment/credit-checkout, then Pay on /sandbox/checkout/{id} with the test card; the pack
 *      is granted by the sandbox's webhook) until A's balance covers the batch, and creates an API key
 *      for each customer on My Page's route (POST /api/account/api-keys);
 *   3. makes one 1024×1024 portrait JPEG (a fixture of ../shared/fixtures/portraits resized with sharp;
 *      a generated image when the fixtures are absent), uploads it once for A through POST /v1/uploads
 *      and once for B through the page's upload route (POST /api/image/upload-s3);
 *   4. measures GET /api/auth/check with B's session while the server is idle, then submits A's batch:
 *      `--jobs` upscale jobs (default 20, ×`--scale`, default 1.5) through POST /v1/jobs with the typed
 *      client (clients/typescript/dewy.ts), one Idempotency-Key each, the same imageUrl;
 *   5. when A's 5th job starts (`--after`: the worker runs one job at a time, so when A's 4th completes),
 *      B submits one upscale job through the page's route (POST /api/runpod-upscale) and polls the
 *      page's status route; all the while GET /api/auth/check with B's cookie is timed every
 *      `--probe-ms` (default 200, one request at a time);
 *   6. polls A's jobs (GET /v1/jobs, once a second: within the key's 120 requests a minute) until every
 *      job is completed or failed.
 * Prints the batch's wall time (first create → last completion, server timestamps) and jobs per minute,
 * B's wait (created → completed, server timestamps; split into queued and running), the batch jobs' mean
 * run time (completion minus the later of its creation and the previous completion: exact while one
 * worker runs one job at a time), and auth/check p50/p99 idle and under the batch. A failed job, or an
 * auth/check answer that was not 200, makes the run fail (exit 1).
 *
 * Options: --jobs <n> (20), --scale <f> (1.5), --after <n> (5), --probe-ms <ms> (200). Port: BENCH_PORT
 * (5417). The server logs at its default level into a file in the printed work folder (kept); the
 * DATA_DIR is removed at the end.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { upscaleCost } from '@dewy/contracts';
import { DewyClient, type Job } from '../../../clients/typescript/dewy';
import { latestLinkToken } from '../test/helpers/outbox';
import { SERVER_DIR, startNode, stopChild, waitForHttp } from './bench-kit';

const REPO_ROOT = path.resolve(SERVER_DIR, '../..');
const SHARED = path.resolve(REPO_ROOT, '../shared');

interface Options {
  jobs: number;
  scale: number;
  after: number;
  probeMs: number;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { jobs: 20, scale: 1.5, after: 5, probeMs: 200 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return Number(v);
    };
    if (a === '--jobs') o.jobs = next();
    else if (a === '--scale') o.scale = next();
    else if (a === '--after') o.after = next();
    else if (a === '--probe-ms') o.probeMs = next();
    else throw new Error(`unknown option ${a}`);
  }
  if (!(o.jobs >= 1 && o.jobs <= 100)) throw new Error('--jobs must be between 1 and 100 (one page of GET /v1/jobs)');
  if (!(o.after >= 1 && o.after <= o.jobs)) throw new Error('--after must be between 1 and --jobs');
  return o;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

// ── the server process (as in api-bench.ts) ──────────────────────────────────────────────────────────

// ── customers over HTTP ──────────────────────────────────────────────────────────────────────────────

/** A fetch that throws unless the answer has `status`; returns the parsed JSON body. */
async function call<T>(what: string, url: string, init: RequestInit, status = 200): Promise<T> {
  const res = await fetch(url, init);
  const text = await res.text();
  if (res.status !== status) throw new Error(`${what}: ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as T;
}

const json = (body: unknown, cookie?: string, extra: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}), ...extra },
  body: JSON.stringify(body),
});

/** Signs a customer up, verifies the address by the mailed link and logs in: the session cookie. */
async function signUpVerified(base: string, dataDir: string, tag: string): Promise<{ email: string; cookie: string }> {
  const email = `bench-${tag}-${randomBytes(4).toString('hex')}@example.com`;
  const password = 'bench password 1';
  await call('register', `${base}/api/auth/register`, json({ name: `Bench ${tag}`, email, password }), 201);
  let token: string | undefined;
  for (const deadline = Date.now() + 15_000; !token && Date.now() < deadline; await sleep(100)) token = latestLinkToken(path.join(dataDir, 'outbox'), email, 'verify-email');
  if (!token) throw new Error(`no verification mail for ${email} in ${dataDir}/outbox`);
  await call('verify-email', `${base}/api/auth/verify-email`, json({ token }));
  const login = await fetch(`${base}/api/auth/login`, json({ email, password }));
  if (login.status !== 200) throw new Error(`login: ${login.status} ${await login.text()}`);
  const sid = login.headers.getSetCookie().find((c) => c.startsWith('dewy_sid='));
  if (!sid) throw new Error('login set no dewy_sid cookie');
  return { email, cookie: sid.split(';')[0]! };
}

/** Buys a credit pack on the sandbox's hosted checkout with the test card; resolves once the pack is granted. */
async function buyPack(base: string, cookie: string): Promise<number> {
  const co = await call<{ checkout_url: string; checkoutId: string }>('credit-checkout', `${base}/api/payment/credit-checkout`, json({ package: 'package2' }, cookie));
  const pay = await fetch(`${base}${new URL(co.checkout_url, base).pathname}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ card: '4242 4242 4242 4242', action: 'pay' }).toString(),
    redirect: 'manual',
  });
  if (pay.status !== 303) throw new Error(`sandbox pay: ${pay.status} ${(await pay.text()).slice(0, 300)}`);
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(200)) {
    const st = await call<{ status: string; creditsGranted: number }>('checkout status', `${base}/api/payment/checkout/${co.checkoutId}`, { headers: { cookie } });
    if (st.status === 'completed') return st.creditsGranted;
    if (st.status !== 'pending') throw new Error(`checkout ${co.checkoutId} ${st.status}`);
  }
  throw new Error(`checkout ${co.checkoutId} not completed within 30 s`);
}

async function createApiKey(base: string, cookie: string, name: string): Promise<string> {
  return (await call<{ secret: string }>('create API key', `${base}/api/account/api-keys`, json({ name }, cookie), 201)).secret;
}

/** A 1024×1024 portrait-like JPEG: a fixture portrait cropped and resized, else a generated face-toned image. */
async function portraitJpeg(): Promise<{ bytes: Buffer; from: string }> {
  const dir = path.join(SHARED, 'fixtures/portraits');
  const fixture = ['obama_910x1137.jpg', 'rose_leslie_577x880.jpg'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (fixture) {
    const bytes = await sharp(fixture).resize(1024, 1024, { fit: 'cover', position: 'attention', kernel: 'lanczos3' }).jpeg({ quality: 90 }).toBuffer();
    return { bytes, from: path.relative(REPO_ROOT, fixture) };
  }
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024"><rect width="1024" height="1024" fill="#6b7b8c"/><ellipse cx="512" cy="470" rx="230" ry="300" fill="#e0b49a"/><rect x="300" y="760" width="424" height="264" fill="#2b3440"/></svg>`;
  return { bytes: await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer(), from: 'generated' };
}

// ── figures ──────────────────────────────────────────────────────────────────────────────────────────

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Times GET /api/auth/check with `cookie`, one request at a time every `everyMs`, until `stop()`; non-200 answers counted. */
function probeAuthCheck(base: string, cookie: string, everyMs: number) {
  const latencies: number[] = [];
  let bad = 0;
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const t0 = performance.now();
      try {
        const res = await fetch(`${base}/api/auth/check`, { headers: { cookie } });
        const body = (await res.json()) as { isAuthenticated?: boolean };
        if (res.status !== 200 || !body.isAuthenticated) bad++;
      } catch {
        bad++;
      }
      const ms = performance.now() - t0;
      latencies.push(ms);
      if (!stopped) await sleep(Math.max(0, everyMs - ms));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await done;
      const sorted = [...latencies].sort((a, b) => a - b);
      return { n: sorted.length, bad, p50: percentile(sorted, 50), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? Number.NaN };
    },
  };
}

const t = (iso: string) => Date.parse(iso);
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const port = Number(process.env.BENCH_PORT ?? 5417);
  const base = `http://127.0.0.1:${port}`;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dewy-batch-bench-'));
  const dataDir = path.join(work, 'data');
  const logFile = path.join(work, 'api.log');
  const modelsDir = process.env.MODELS_DIR ?? (fs.existsSync(path.join(SHARED, 'models')) ? path.join(SHARED, 'models') : undefined);
  console.log(`bench:batch — ${o.jobs} upscale jobs ×${o.scale} through /v1 beside one page job; node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`work folder (server log): ${work}${modelsDir ? `; models: ${modelsDir}` : ''}`);

  const child = startNode(
    'src/api.ts',
    {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
      NSFW_SCREENING: 'false',
      WORKER_CONCURRENCY: '1',
      RUN_WORKERS: 'true',
      ...(modelsDir ? { MODELS_DIR: modelsDir } : {}),
    },
    logFile,
  );
  let failed = false;
  try {
    await waitForHttp(`${base}/api/auth/check`, child, logFile, 120_000);

    // 1–2. Two verified customers; A buys credits, both get an API key.
    const [a, b] = [await signUpVerified(base, dataDir, 'a'), await signUpVerified(base, dataDir, 'b')];
    const dewyA = new DewyClient({ apiKey: await createApiKey(base, a.cookie, 'batch bench'), baseUrl: base, retryOnRateLimit: true });
    const dewyB = new DewyClient({ apiKey: await createApiKey(base, b.cookie, 'batch bench'), baseUrl: base, retryOnRateLimit: true });

    // 3. The photo, uploaded for A through /v1 and for B through the page's route.
    const photo = await portraitJpeg();
    const upA = await dewyA.upload(photo.bytes, 'portrait.jpg');
    const cost = upscaleCost(upA.width, upA.height, o.scale);
    const needed = o.jobs * cost;
    let bought = 0;
    while ((dewyA.lastCreditsRemaining ?? 0) < needed) {
      if (bought >= 10) throw new Error(`A has ${dewyA.lastCreditsRemaining} credits after ${bought} packs; the batch needs ${needed}`);
      await buyPack(base, a.cookie);
      bought++;
      await dewyA.listJobs({ limit: 1 }); // reads X-Credits-Remaining
    }
    const formB = new FormData();
    formB.append('image', new Blob([new Uint8Array(photo.bytes)], { type: 'image/jpeg' }), 'portrait.jpg');
    const upB = await call<{ imageUrl: string }>('page upload (B)', `${base}/api/image/upload-s3`, { method: 'POST', headers: { cookie: b.cookie }, body: formB });
    console.log(`photo: 1024×1024 JPEG from ${photo.from} (${photo.bytes.length} bytes); ${cost} credits a job; A bought ${bought} pack(s): ${dewyA.lastCreditsRemaining} credits`);

    // 4. auth/check while idle, then the batch.
    const idleProbe = probeAuthCheck(base, b.cookie, o.probeMs);
    await sleep(25 * o.probeMs);
    const idle = await idleProbe.stop();

    const probe = probeAuthCheck(base, b.cookie, o.probeMs);
    const batchStart = Date.now();
    const ids: string[] = [];
    for (let i = 0; i < o.jobs; i++) {
      const job = await dewyA.createJob('upscale', { image: upA.imageUrl, scale_factor: o.scale }, { idempotencyKey: randomUUID() });
      ids.push(job.id);
    }
    const submitted = Date.now();
    console.log(`submitted ${o.jobs} jobs in ${s(submitted - batchStart)}`);

    // 5–6. Poll A's jobs; B submits once A's `after`-th job starts (its predecessor completed).
    let bJobId: string | null = null;
    let bSubmittedAt = 0;
    let bSeenDoneAt = 0;
    let bPoll: Promise<void> | null = null;
    const idSet = new Set(ids);
    let latest = new Map<string, Job>();
    for (const deadline = Date.now() + 30 * 60_000; ; await sleep(1000)) {
      if (Date.now() > deadline) throw new Error('the batch did not finish within 30 minutes');
      const page = await dewyA.listJobs({ limit: 100 });
      latest = new Map(page.jobs.filter((j) => idSet.has(j.id)).map((j) => [j.id, j]));
      const finished = [...latest.values()].filter((j) => j.status !== 'processing');
      if (!bJobId && finished.length >= o.after - 1) {
        bSubmittedAt = Date.now();
        const created = await call<{ jobId: string }>('page upscale (B)', `${base}/api/runpod-upscale`, json({ input: { image: upB.imageUrl, scale_factor: o.scale } }, b.cookie, { 'idempotency-key': randomUUID() }));
        bJobId = created.jobId;
        console.log(`B submitted its job through the page after ${s(bSubmittedAt - batchStart)} (A: ${finished.length} of ${o.jobs} finished)`);
        const id = bJobId;
        bPoll = (async () => {
          for (;;) {
            const st = await call<{ status: string }>('page status (B)', `${base}/api/image/status/${id}`, { headers: { cookie: b.cookie } });
            if (st.status !== 'processing') {
              bSeenDoneAt = Date.now();
              return;
            }
            await sleep(250);
          }
        })();
      }
      if (finished.length === o.jobs && bJobId) break;
    }
    await bPoll;
    const batchSeenDone = Date.now();
    const auth = await probe.stop();

    // Server timestamps: every job's creation and completion (updated_at of a finished job).
    const aJobs = ids.map((id) => latest.get(id)!);
    const bJob = await dewyB.getJob(bJobId!);
    const all = [...aJobs.map((j) => ({ j, who: 'A' })), { j: bJob, who: 'B' }].sort((x, y) => t(x.j.updated_at) - t(y.j.updated_at));
    const runs = new Map<string, { queued: number; run: number }>();
    let prevDone = 0;
    for (const { j } of all) {
      const start = Math.max(t(j.created_at), prevDone);
      runs.set(j.id, { queued: start - t(j.created_at), run: t(j.updated_at) - start });
      prevDone = t(j.updated_at);
    }
    const aRuns = aJobs.map((j) => runs.get(j.id)!.run);
    const meanRun = aRuns.reduce((x, y) => x + y, 0) / aRuns.length;
    const sortedRuns = [...aRuns].sort((x, y) => x - y);
    const batchWall = Math.max(...aJobs.map((j) => t(j.updated_at))) - Math.min(...aJobs.map((j) => t(j.created_at)));
    const bWait = t(bJob.updated_at) - t(bJob.created_at);
    const bSplit = runs.get(bJob.id)!;
    const failedJobs = [...aJobs, bJob].filter((j) => j.status !== 'completed');
    const order = all.map((x) => x.who).join('');

    console.log('\nsummary');
    console.log(`  batch wall time      ${s(batchWall)} (first create → last completion; client saw ${s(batchSeenDone - batchStart)})`);
    console.log(`  jobs per minute      ${((o.jobs / batchWall) * 60_000).toFixed(2)}`);
    console.log(`  batch job run time   mean ${s(meanRun)}, median ${s(percentile(sortedRuns, 50))}, min ${s(sortedRuns[0]!)}, max ${s(sortedRuns[sortedRuns.length - 1]!)}`);
    console.log(`  B's single job wait  ${s(bWait)} created → completed (queued ${s(bSplit.queued)} + ran ${s(bSplit.run)}; client saw ${s(bSeenDoneAt - bSubmittedAt)})`);
    // Fairness (issue 24): B waits for at most the job a worker is running when it arrives, not for the batch.
    console.log(`                       target: queued ≤ one job's run time + 2 s; mean run + 2 s = ${s(meanRun + 2000)}, max run + 2 s = ${s(sortedRuns[sortedRuns.length - 1]! + 2000)} → ${bSplit.queued <= sortedRuns[sortedRuns.length - 1]! + 2000 ? 'met' : 'NOT met'}`);
    console.log(`  completion order     ${order} (B after ${order.indexOf('B')} of A's jobs)`);
    console.log(`  auth/check idle      p50 ${idle.p50.toFixed(1)} ms  p99 ${idle.p99.toFixed(1)} ms  (${idle.n} requests${idle.bad ? `, ${idle.bad} not 200` : ''})`);
    console.log(`  auth/check in batch  p50 ${auth.p50.toFixed(1)} ms  p99 ${auth.p99.toFixed(1)} ms  max ${auth.max.toFixed(1)} ms  (${auth.n} requests, one every ${o.probeMs} ms${auth.bad ? `, ${auth.bad} not 200` : ''})`);
    console.log(`  credits left (A)     ${dewyA.lastCreditsRemaining}`);
    if (failedJobs.length) {
      console.log(`  FAILED jobs: ${failedJobs.map((j) => `${j.id} ${j.error}`).join(', ')}`);
      failed = true;
    }
    if (auth.bad || idle.bad) failed = true;
  } finally {
    await stopChild(child);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
