import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';

/**
 * A fake BytePlus ModelArk image API speaking the documented protocol (GUIDE §6), for contract tests of
 * the Seedream adapter and for the e2e run. Listens on 127.0.0.1 on a free port.
 *
 *   POST /api/v3/images/generations   Bearer key; {model, prompt, image (data URI or URL, one or a list),
 *                                     size `WxH`, sequential_image_generation, …options.max_images,
 *                                     response_format url|b64_json, watermark}
 *                                     → {model, created, data: [{url|b64_json, size}], usage}
 *                                     Each image is a JPEG of `size`, tinted by the prompt's hash, so a
 *                                     test can tell results apart.
 *   GET  /results/{id}.jpg            a generated image (unauthenticated, like the vendor's bucket URL)
 *
 * `mode` switches the behaviour: 'ok'; 'error' (status + {error:{code,message}}); 'sensitive' (200 with
 * data[].error OutputImageSensitiveContentDetected for every image); 'partial' (the first request answers
 * normally, every later one has all its images filtered as OutputImageSensitiveContentDetected); 'rate-limit' (the first `rateLimitTimes` requests answer 429);
 * 'down' (the server closes connections). A prompt containing `[fake:sensitive]` is answered as in
 * 'sensitive' whatever the mode (the browser tests use it; they cannot switch the mode of a process).
 */

export type FakeSeedreamMode = 'ok' | 'error' | 'sensitive' | 'partial' | 'rate-limit' | 'down';

export interface FakeSeedreamOptions {
  apiKey: string;
  mode?: FakeSeedreamMode;
  /** For 'error': HTTP status and vendor code. */
  errorStatus?: number;
  errorCode?: string;
  /** For 'rate-limit': how many requests answer 429 before the rest succeed. */
  rateLimitTimes?: number;
  /** Delay before answering a generation (ms). */
  delayMs?: number;
  /** Port to listen on (default 0: a free one). */
  port?: number;
}

export interface FakeSeedreamRequest {
  model: string;
  prompt: string;
  image: string[];
  size: string;
  sequential: string;
  maxImages: number | null;
  seed?: number;
  responseFormat: string;
  watermark: boolean;
}

export interface FakeSeedream {
  /** Base URL for SEEDREAM_BASE_URL (`http://127.0.0.1:<port>`). */
  baseUrl: string;
  options: Required<Omit<FakeSeedreamOptions, 'port'>>;
  /** Every generation request that passed authentication, in order (429s included). */
  requests: FakeSeedreamRequest[];
  /** Requests refused for a wrong key. */
  unauthorized: number;
  /** Generation requests being answered right now, and the most seen at once. */
  inFlight: number;
  maxInFlight: number;
  close(): Promise<void>;
}

function hashHue(s: string): { r: number; g: number; b: number } {
  let h = 0;
  for (const c of s) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return { r: 60 + (h % 160), g: 60 + ((h >> 8) % 160), b: 60 + ((h >> 16) % 160) };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Starts the fake (see the file comment). Mutate `options` between runs to change its behaviour. */
export async function startFakeSeedream(opts: FakeSeedreamOptions): Promise<FakeSeedream> {
  const results = new Map<string, Buffer>();
  let rateLimited = 0;
  const state: FakeSeedream = {
    baseUrl: '',
    options: {
      apiKey: opts.apiKey,
      mode: opts.mode ?? 'ok',
      errorStatus: opts.errorStatus ?? 400,
      errorCode: opts.errorCode ?? 'InvalidParameter',
      rateLimitTimes: opts.rateLimitTimes ?? 2,
      delayMs: opts.delayMs ?? 0,
    },
    requests: [],
    unauthorized: 0,
    inFlight: 0,
    maxInFlight: 0,
    close: async () => undefined,
  };

  async function generate(req: IncomingMessage, res: ServerResponse) {
    if (req.headers.authorization !== `Bearer ${state.options.apiKey}`) {
      state.unauthorized++;
      return send(res, 401, { error: { code: 'AuthenticationError', message: 'the API key is invalid', type: 'Unauthorized' } });
    }
    const body = JSON.parse(await readBody(req)) as Record<string, unknown>;
    const images = body.image === undefined ? [] : Array.isArray(body.image) ? (body.image as string[]) : [body.image as string];
    const opts2 = body.sequential_image_generation_options as { max_images?: number } | undefined;
    const record: FakeSeedreamRequest = {
      model: String(body.model),
      prompt: String(body.prompt),
      image: images,
      size: String(body.size ?? '2048x2048'),
      sequential: String(body.sequential_image_generation ?? 'disabled'),
      maxImages: opts2?.max_images ?? null,
      seed: typeof body.seed === 'number' ? body.seed : undefined,
      responseFormat: String(body.response_format ?? 'url'),
      watermark: body.watermark !== false,
    };
    state.requests.push(record);
    if (!record.model || !record.prompt) return send(res, 400, { error: { code: 'MissingParameter', message: 'model and prompt are required' } });
    if (images.some((i) => !/^data:image\/(jpeg|png);base64,/.test(i) && !/^https?:\/\//.test(i))) {
      return send(res, 400, { error: { code: 'InvalidParameter', message: 'image must be a URL or a data URI', param: 'image' } });
    }
    if (images.length > 14) return send(res, 400, { error: { code: 'InvalidParameter', message: 'too many reference images', param: 'image' } });
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    try {
      if (state.options.delayMs) await new Promise((r) => setTimeout(r, state.options.delayMs));
      const mode = state.options.mode;
      if (mode === 'rate-limit' && rateLimited < state.options.rateLimitTimes) {
        rateLimited++;
        return send(res, 429, { error: { code: 'RateLimitExceeded.EndpointRPMExceeded', message: 'too many requests' } }, { 'retry-after': '0' });
      }
      if (mode === 'error') return send(res, state.options.errorStatus, { error: { code: state.options.errorCode, message: `fake ${state.options.errorCode}` } });
      const m = /^(\d+)x(\d+)$/.exec(record.size);
      const [w, h] = m ? [Number(m[1]), Number(m[2])] : [2048, 2048];
      const count = record.sequential === 'auto' ? Math.max(1, Math.min(record.maxImages ?? 15, 15 - images.length)) : 1;
      const data: unknown[] = [];
      for (let i = 0; i < count; i++) {
        if (mode === 'sensitive' || record.prompt.includes('[fake:sensitive]') || (mode === 'partial' && state.requests.length > 1)) {
          data.push({ error: { code: 'OutputImageSensitiveContentDetected', message: 'The request failed because the output image may contain sensitive information.' } });
          continue;
        }
        const c = hashHue(`${record.prompt}#${i}`);
        const jpeg = await sharp({ create: { width: w, height: h, channels: 3, background: c } }).jpeg({ quality: 80 }).toBuffer();
        if (record.responseFormat === 'b64_json') {
          data.push({ b64_json: jpeg.toString('base64'), size: `${w}x${h}` });
        } else {
          const id = randomUUID();
          results.set(id, jpeg);
          data.push({ url: `${state.baseUrl}/results/${id}.jpg`, size: `${w}x${h}` });
        }
      }
      const made = data.filter((d) => !(d as { error?: unknown }).error).length;
      return send(res, 200, { model: record.model, created: Math.floor(Date.now() / 1000), data, usage: { generated_images: made, output_tokens: Math.round((made * w * h) / 256), total_tokens: Math.round((made * w * h) / 256) } });
    } finally {
      state.inFlight--;
    }
  }

  const server = createServer((req, res) => {
    if (state.options.mode === 'down') {
      req.socket.destroy();
      return;
    }
    const url = new URL(req.url ?? '/', 'http://x');
    const run = async () => {
      if (req.method === 'POST' && url.pathname === '/api/v3/images/generations') return generate(req, res);
      const r = /^\/results\/([0-9a-f-]{36})\.jpg$/.exec(url.pathname);
      if (req.method === 'GET' && r) {
        const bytes = results.get(r[1]!);
        if (!bytes) return send(res, 404, { error: { code: 'NotFound', message: 'expired' } });
        res.writeHead(200, { 'content-type': 'image/jpeg', 'content-length': String(bytes.length) });
        return res.end(bytes);
      }
      return send(res, 404, { error: { code: 'NotFound', message: 'no such route' } });
    };
    run().catch((e: unknown) => send(res, 500, { error: { code: 'InternalServiceError', message: String(e) } }));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  state.baseUrl = `http://127.0.0.1:${port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
