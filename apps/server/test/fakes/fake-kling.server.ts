import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import sharp from 'sharp';

/**
 * A fake Kling API speaking the documented image-generation protocol, for contract tests of the Kling
 * adapter and the e2e suite (GUIDE §6). Listens on 127.0.0.1 (port 0 = a free one).
 *
 *   Authorization: Bearer <JWT>  HS256 with the secret key; `iss` must be the access key, `exp` in the
 *                                future and at most now + 1800 s, `nbf` in the past and about exp − 1805 s
 *                                (a token is reused while it lives). Otherwise HTTP 401 with Kling's
 *                                code 1000–1004.
 *   POST /v1/images/generations  {model_name, prompt, image?, image_reference?, n, aspect_ratio}
 *                                → {code: 0, data: {task_id, task_status: 'submitted'}}
 *   GET  /v1/images/generations/{task_id}
 *                                submitted → processing → succeed | failed over successive queries;
 *                                `task_result.images[{index, url}]`
 *   GET  /images/{task_id}/{index}.png   the image bytes (unauthenticated, like a CDN URL): the
 *                                reference image fitted to the aspect ratio when one was sent, else a
 *                                gradient; 512 px on the long side.
 *
 * Modes (`options.mode`, mutable between runs): `succeed`; `partial` (one image fewer than asked);
 * `fail` (task failed, generic); `safety` (create refused: HTTP 400 code 1301); `task-safety` (the task
 * fails with a risk-control message); `rate-limit` (the first `rateLimitCount` creates answer HTTP 429
 * code 1302, then it succeeds); `hang` (requests are accepted and never answered); `arrears` (429 code 1101).
 */
export type FakeKlingMode = 'succeed' | 'partial' | 'fail' | 'safety' | 'task-safety' | 'rate-limit' | 'hang' | 'arrears';

export interface FakeKlingOptions {
  accessKey: string;
  secretKey: string;
  mode?: FakeKlingMode;
  /** Queries answered submitted/processing before the final state (default 1). */
  pollsBeforeDone?: number;
  /** Creates refused with 429 in `rate-limit` mode (default 2). */
  rateLimitCount?: number;
  port?: number;
}

export interface FakeKlingTask {
  id: string;
  body: Record<string, unknown>;
  polls: number;
  mode: FakeKlingMode;
}

export interface FakeKling {
  origin: string;
  tasks: Map<string, FakeKlingTask>;
  /** Requests refused for a bad token, with the reason. */
  authFailures: string[];
  /** Creates answered 429 so far. */
  rateLimited: number;
  /** Claims of the last verified token. */
  lastClaims: Record<string, unknown> | null;
  options: Required<Omit<FakeKlingOptions, 'port'>>;
  close(): Promise<void>;
}

const RATIOS: Record<string, [number, number]> = {
  '1:1': [1, 1], '3:4': [3, 4], '9:16': [9, 16], '4:3': [4, 3], '16:9': [16, 9], '2:3': [2, 3], '3:2': [3, 2], '21:9': [21, 9],
};

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the fake (see the file comment). */
export async function startFakeKling(opts: FakeKlingOptions): Promise<FakeKling> {
  const secret = new TextEncoder().encode(opts.secretKey);
  const hanging = new Set<ServerResponse>();
  const state: FakeKling = {
    origin: '',
    tasks: new Map(),
    authFailures: [],
    rateLimited: 0,
    lastClaims: null,
    options: { accessKey: opts.accessKey, secretKey: opts.secretKey, mode: opts.mode ?? 'succeed', pollsBeforeDone: opts.pollsBeforeDone ?? 1, rateLimitCount: opts.rateLimitCount ?? 2 },
    close: async () => {},
  };

  /** Checks the bearer JWT as Kling documents it; answers 401 and returns false when it fails. */
  async function authorised(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const auth = req.headers.authorization ?? '';
    const refuse = (code: number, why: string) => {
      state.authFailures.push(why);
      send(res, 401, { code, message: why, request_id: randomUUID() });
      return false;
    };
    if (!auth) return refuse(1001, 'Authorization is empty');
    const m = /^Bearer (.+)$/.exec(auth);
    if (!m) return refuse(1002, 'Authorization is invalid');
    try {
      if (decodeProtectedHeader(m[1]!).alg !== 'HS256') return refuse(1002, 'alg must be HS256');
      const { payload } = await jwtVerify(m[1]!, secret, { algorithms: ['HS256'], issuer: state.options.accessKey, clockTolerance: 0 });
      const now = Math.floor(Date.now() / 1000);
      // A token lives about 30 minutes (exp = issue + 1800, nbf = issue − 5) and may be reused while it lives.
      if (typeof payload.exp !== 'number' || payload.exp <= now || payload.exp > now + 1800 + 120) return refuse(1002, 'exp must be in the future, at most now + 1800');
      if (typeof payload.nbf !== 'number' || payload.nbf > now + 5 || payload.exp - payload.nbf > 1800 + 120) return refuse(1003, 'nbf must be in the past, about exp - 1805');
      state.lastClaims = payload as Record<string, unknown>;
      return true;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'ERR_JWT_EXPIRED') return refuse(1004, 'token expired');
      if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return refuse(1003, `claim: ${(err as Error).message}`);
      return refuse(1000, `authentication failed: ${(err as Error).message}`);
    }
  }

  async function image(task: FakeKlingTask, index: number): Promise<Buffer> {
    const [rw, rh] = RATIOS[String(task.body.aspect_ratio)] ?? [1, 1];
    const scale = 512 / Math.max(rw, rh);
    const w = Math.round(rw * scale);
    const h = Math.round(rh * scale);
    const ref = typeof task.body.image === 'string' ? Buffer.from(task.body.image, 'base64') : null;
    if (ref) {
      return sharp(ref).resize(w, h, { fit: 'cover' }).modulate({ hue: index * 20 }).png().toBuffer();
    }
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><defs><linearGradient id="g"><stop offset="0" stop-color="hsl(${index * 80},70%,60%)"/><stop offset="1" stop-color="#223"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`;
    return sharp(Buffer.from(svg)).png().toBuffer();
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const img = /^\/images\/([^/]+)\/(\d+)\.png$/.exec(url.pathname);
      if (req.method === 'GET' && img) {
        const task = state.tasks.get(img[1]!);
        if (!task) return send(res, 404, { code: 1203, message: 'not found' });
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(await image(task, Number(img[2])));
      }
      if (state.options.mode === 'hang') {
        hanging.add(res);
        return;
      }
      if (!(await authorised(req, res))) return;
      if (req.method === 'POST' && url.pathname === '/v1/images/generations') {
        const body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
        const mode = state.options.mode;
        if (mode === 'safety') return send(res, 400, { code: 1301, message: 'Trigger the content security policy of the platform' });
        if (mode === 'arrears') return send(res, 429, { code: 1101, message: 'Account in arrears' });
        if (mode === 'rate-limit' && state.rateLimited < state.options.rateLimitCount) {
          state.rateLimited++;
          return send(res, 429, { code: 1302, message: 'The API request is too fast' });
        }
        if (typeof body.prompt !== 'string' || !body.prompt) return send(res, 400, { code: 1201, message: 'prompt is required' });
        const n = Number(body.n ?? 1);
        if (!Number.isInteger(n) || n < 1 || n > 9) return send(res, 400, { code: 1201, message: 'n out of range' });
        if (body.aspect_ratio !== undefined && !(String(body.aspect_ratio) in RATIOS)) return send(res, 400, { code: 1201, message: 'aspect_ratio invalid' });
        if (typeof body.image === 'string' && body.image.startsWith('data:')) return send(res, 400, { code: 1201, message: 'image must be Base64 without a prefix' });
        const id = randomUUID();
        state.tasks.set(id, { id, body, polls: 0, mode });
        return send(res, 200, { code: 0, message: 'SUCCEED', request_id: randomUUID(), data: { task_id: id, task_status: 'submitted', created_at: Date.now(), updated_at: Date.now() } });
      }
      const q = /^\/v1\/images\/generations\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && q) {
        const task = state.tasks.get(decodeURIComponent(q[1]!));
        if (!task) return send(res, 404, { code: 1203, message: 'task not found' });
        task.polls++;
        const base = { task_id: task.id, created_at: Date.now(), updated_at: Date.now() };
        if (task.polls <= state.options.pollsBeforeDone) return send(res, 200, { code: 0, message: 'SUCCEED', data: { ...base, task_status: task.polls === 1 ? 'submitted' : 'processing' } });
        if (task.mode === 'fail') return send(res, 200, { code: 0, message: 'SUCCEED', data: { ...base, task_status: 'failed', task_status_msg: 'internal generation error' } });
        if (task.mode === 'task-safety') return send(res, 200, { code: 0, message: 'SUCCEED', data: { ...base, task_status: 'failed', task_status_msg: 'Failure to pass the risk control system' } });
        const n = Number(task.body.n ?? 1);
        const count = task.mode === 'partial' ? Math.max(0, n - 1) : n;
        const images = Array.from({ length: count }, (_, i) => ({ index: i, url: `${state.origin}/images/${task.id}/${i}.png` }));
        return send(res, 200, { code: 0, message: 'SUCCEED', data: { ...base, task_status: 'succeed', task_status_msg: '', task_result: { images } } });
      }
      send(res, 404, { code: 1202, message: 'invalid method' });
    })().catch((err: unknown) => send(res, 500, { code: 5000, message: String(err) }));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = async () => {
    for (const r of hanging) r.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
