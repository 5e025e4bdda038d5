import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * A fake RunPod serverless endpoint speaking the documented queue protocol, for contract tests of the
 * RunPod adapter (GUIDE §6). Listens on 127.0.0.1 on a free port; `endpointUrl` is
 * `http://127.0.0.1:<port>/v2/<endpointId>`.
 *
 *   POST /v2/{endpoint}/run          Bearer key → {id, status: IN_QUEUE}; 401 for a wrong key
 *   GET  /v2/{endpoint}/status/{id}  IN_QUEUE → IN_PROGRESS → COMPLETED over successive polls; on
 *                                    completion it fetches `input.image`, resizes it by
 *                                    `input.scale_factor` and returns it per `outputMode`
 *   POST /v2/{endpoint}/cancel/{id}  → {id, status: CANCELLED}
 *   GET  /results/{id}               the result bytes, for the URL output modes (unauthenticated,
 *                                    like a bucket URL)
 */

export type FakeRunpodMode = 'complete' | 'fail' | 'hang';
export type FakeRunpodOutputMode = 'base64' | 'data_url' | 'image_url' | 'images';

export interface FakeRunpodOptions {
  apiKey: string;
  endpointId?: string;
  mode?: FakeRunpodMode;
  outputMode?: FakeRunpodOutputMode;
  /** Polls answered IN_QUEUE / IN_PROGRESS before the final answer (default 2). */
  pollsBeforeDone?: number;
  /** The first N status polls answer 503, as a flaky gateway would. */
  failFirstPolls?: number;
  /** Error text of FAILED jobs. */
  failError?: string;
}

export interface FakeRunpodJob {
  id: string;
  input: Record<string, unknown>;
  polls: number;
  status: 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED' | 'CANCELLED';
  result?: Buffer;
}

export interface FakeRunpod {
  endpointUrl: string;
  /** Base of the server (`http://127.0.0.1:<port>`). */
  origin: string;
  jobs: Map<string, FakeRunpodJob>;
  /** Job ids a cancel was asked for, in order. */
  cancels: string[];
  /** Count of refused (401) requests. */
  unauthorized: number;
  options: Required<Omit<FakeRunpodOptions, 'endpointId'>>;
  close(): Promise<void>;
}

/** Starts the fake (see the file comment). Mutate `options` between runs to change its behaviour. */
export async function startFakeRunpod(opts: FakeRunpodOptions): Promise<FakeRunpod> {
  const endpointId = opts.endpointId ?? 'fake-endpoint';
  const state: FakeRunpod = {
    endpointUrl: '',
    origin: '',
    jobs: new Map(),
    cancels: [],
    unauthorized: 0,
    options: {
      apiKey: opts.apiKey,
      mode: opts.mode ?? 'complete',
      outputMode: opts.outputMode ?? 'base64',
      pollsBeforeDone: opts.pollsBeforeDone ?? 2,
      failFirstPolls: opts.failFirstPolls ?? 0,
      failError: opts.failError ?? 'CUDA out of memory',
    },
    close: async () => undefined,
  };
  let statusPolls = 0;

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => send(res, 500, { error: String(e) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const results = /^\/results\/([\w-]+)$/.exec(url.pathname);
    if (req.method === 'GET' && results) {
      const job = state.jobs.get(results[1] as string);
      if (!job?.result) return send(res, 404, { error: 'no result' });
      res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': job.result.length });
      res.end(job.result);
      return;
    }

    const m = /^\/v2\/([\w-]+)\/(run|status|cancel)(?:\/([\w-]+))?$/.exec(url.pathname);
    if (!m || m[1] !== endpointId) return send(res, 404, { error: 'not found' });
    if (req.headers.authorization !== `Bearer ${state.options.apiKey}`) {
      state.unauthorized++;
      return send(res, 401, { error: 'Unauthorized' });
    }
    const [, , op, id] = m;

    if (op === 'run' && req.method === 'POST') {
      const body = JSON.parse(await readBody(req)) as { input?: Record<string, unknown> };
      if (!body.input || typeof body.input.image !== 'string') return send(res, 400, { error: 'input.image required' });
      const job: FakeRunpodJob = { id: `${randomUUID()}-u1`, input: body.input, polls: 0, status: 'IN_QUEUE' };
      state.jobs.set(job.id, job);
      return send(res, 200, { id: job.id, status: job.status });
    }

    const job = id ? state.jobs.get(id) : undefined;
    if (!job) return send(res, 404, { error: 'job not found' });

    if (op === 'cancel' && req.method === 'POST') {
      state.cancels.push(job.id);
      job.status = 'CANCELLED';
      return send(res, 200, { id: job.id, status: job.status });
    }

    if (op === 'status' && req.method === 'GET') {
      statusPolls++;
      if (statusPolls <= state.options.failFirstPolls) return send(res, 503, { error: 'upstream unavailable' });
      if (job.status === 'CANCELLED' || job.status === 'FAILED') return send(res, 200, statusBody(job));
      job.polls++;
      if (job.status === 'COMPLETED' || (state.options.mode !== 'hang' && job.polls > state.options.pollsBeforeDone)) {
        return send(res, 200, await finish(job));
      }
      job.status = job.polls === 1 ? 'IN_QUEUE' : 'IN_PROGRESS';
      return send(res, 200, statusBody(job));
    }
    return send(res, 405, { error: 'method not allowed' });
  }

  async function finish(job: FakeRunpodJob): Promise<Record<string, unknown>> {
    if (state.options.mode === 'fail') {
      job.status = 'FAILED';
      return statusBody(job);
    }
    if (!job.result) {
      try {
        const src = await fetch(job.input.image as string);
        if (!src.ok) throw new Error(`image fetch answered ${src.status}`);
        const bytes = Buffer.from(await src.arrayBuffer());
        const meta = await sharp(bytes).metadata();
        // A face-edit worker also fetches the mask it was given (spec 001 §3 face-edit input).
        if (typeof job.input.mask === 'string') {
          const m = await fetch(job.input.mask);
          if (!m.ok) throw new Error(`mask fetch answered ${m.status}`);
        }
        const factor = Number(job.input.scale_factor ?? job.input.resize_factor ?? 1);
        const img = sharp(bytes).resize(Math.round((meta.width ?? 1) * factor), Math.round((meta.height ?? 1) * factor));
        job.result = await (job.input.output_format === 'png' ? img.png() : img.jpeg({ quality: 90 })).toBuffer();
      } catch (e) {
        job.status = 'FAILED';
        return { ...statusBody(job), error: `could not read input image: ${String(e)}` };
      }
    }
    job.status = 'COMPLETED';
    const b64 = job.result.toString('base64');
    const resultUrl = `${state.origin}/results/${job.id}`;
    const output =
      state.options.outputMode === 'base64'
        ? { image: b64 }
        : state.options.outputMode === 'data_url'
          ? { image: `data:image/${job.input.output_format === 'png' ? 'png' : 'jpeg'};base64,${b64}` }
          : state.options.outputMode === 'image_url'
            ? { image_url: resultUrl }
            : { images: [resultUrl] };
    return { ...statusBody(job), delayTime: 12, executionTime: 345, output };
  }

  function statusBody(job: FakeRunpodJob): Record<string, unknown> {
    return { id: job.id, status: job.status, ...(job.status === 'FAILED' ? { error: state.options.failError } : {}) };
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.origin = `http://127.0.0.1:${port}`;
  state.endpointUrl = `${state.origin}/v2/${endpointId}`;
  state.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((e) => (e ? reject(e) : resolve()));
    });
  return state;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
