import sharp, { type Metadata } from 'sharp';
import { SEEDREAM_ERROR_CODES, isErrorCode, type JobErrorCode, type SeedreamErrorCode } from '@dewy/contracts';
import { abortableSleep } from '../../lib/abortable-sleep';
import { JobFailure } from '../../lib/job-failure';

/**
 * Image generation/edit on BytePlus ModelArk Seedream (issue 16, decision 023), through the documented
 * Image generation API (docs.byteplus.com/en/docs/ModelArk/1541523):
 *
 *   POST {baseUrl}/api/v3/images/generations   Authorization: Bearer <API key>
 *     {model, prompt, image: string | string[] (URL or `data:image/<fmt>;base64,…`, up to the model's
 *      reference limit), size: `WxH` | 1K | 2K | 4K, sequential_image_generation: auto | disabled,
 *      sequential_image_generation_options: {max_images}, seed (seedream-3.0 / seededit only),
 *      response_format: url | b64_json, watermark, stream: false}
 *   → 200 {model, created, data: [{url | b64_json, size} | {error: {code, message}}], usage}
 *   → 4xx/5xx {error: {code, message, param?, type?}}
 *
 * Result URLs expire after 24 h, so they are fetched at once; the kernel stores the bytes in our
 * storage. 429 and gateway errors (502/503/504) and network failures are retried with exponential
 * backoff (the vendor's Retry-After when longer) up to `maxAttempts`; everything else fails at once
 * with the vendor's code. Our interface is shaped by our use (one call, images out), not by the API.
 */

export interface SeedreamClientOptions {
  apiKey: string;
  baseUrl: string;
  model: string;
  maxAttempts: number;
  retryBaseMs: number;
  requestTimeoutMs: number;
  watermark: boolean;
  /** Largest result image accepted (bytes). */
  maxResultBytes?: number;
  fetchImpl?: typeof fetch;
}

/** One vendor call: references as data URIs or URLs, size `WxH`, `maxImages` 1 = a single image. */
export interface SeedreamGenerateParams {
  prompt: string;
  images: string[];
  size: string;
  maxImages: number;
  seed?: number;
}

export interface SeedreamImage {
  bytes: Buffer;
  format: 'jpg' | 'png';
  width: number;
  height: number;
}

/** What one call gave: the images made, and the per-image failures (content filter…) in `data`. */
export interface SeedreamGenerateResult {
  images: SeedreamImage[];
  failures: { code: string; message: string }[];
  model: string;
}

/**
 * The reason a job stores for a vendor code (decision 034): the codes the 002 §8 dialogs name as
 * themselves; any other `InvalidParameter.*` as `InvalidParameter` (the same dialog); one of our error
 * codes (NOT_CONFIGURED) as itself; anything else as `GenerationFailed` (the dialog that shows the
 * vendor's message).
 */
export function seedreamFailureCode(code: string): JobErrorCode {
  if ((SEEDREAM_ERROR_CODES as readonly string[]).includes(code)) return code as SeedreamErrorCode;
  if (code.startsWith('InvalidParameter')) return 'InvalidParameter';
  if (isErrorCode(code)) return code;
  return 'GenerationFailed';
}

/**
 * A call that gave no images. `code` is the vendor's as sent (InvalidParameter.OversizeImage…) or ours;
 * `failureCode` the reason a failed job stores for it (see `seedreamFailureCode`); `message` the
 * vendor's message alone.
 */
export class SeedreamError extends JobFailure {
  readonly code: string;
  readonly httpStatus?: number;
  constructor(code: string, message: string, extra: { httpStatus?: number; cause?: unknown } = {}) {
    super(seedreamFailureCode(code), message, { cause: extra.cause });
    this.name = 'SeedreamError';
    this.code = code;
    this.httpStatus = extra.httpStatus;
  }
}

/** Our interface to an image-edit vendor. */
export interface SeedreamClient {
  /** Engine name recorded on job rows: `seedream:<model>`. */
  readonly name: string;
  readonly model: string;
  /** @throws SeedreamError (vendor or transport failure after retries); AbortError when `signal` aborts. */
  generate(params: SeedreamGenerateParams, signal: AbortSignal): Promise<SeedreamGenerateResult>;
}

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/** Seedream models that take a `seed` (the 4.x models ignore or refuse it, per the API reference). */
export function modelSupportsSeed(model: string): boolean {
  return /seedream-3-0|seededit/i.test(model);
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> => abortableSleep(ms, signal);

/** Retry-After in ms (seconds or an HTTP date); 0 when absent. */
function retryAfterMs(h: string | null): number {
  if (!h) return 0;
  const s = Number(h);
  if (Number.isFinite(s)) return Math.max(0, s * 1000);
  const d = Date.parse(h);
  return Number.isFinite(d) ? Math.max(0, d - Date.now()) : 0;
}

/** Reads the vendor's `{error: {code, message}}`, tolerating other bodies. */
function vendorError(body: unknown, status: number): { code: string; message: string } {
  const e = (body as { error?: { code?: unknown; message?: unknown } } | null)?.error;
  const code = typeof e?.code === 'string' && e.code ? e.code : status === 429 ? 'RateLimitExceeded' : status >= 500 ? 'InternalServiceError' : 'InvalidParameter';
  const message = typeof e?.message === 'string' ? e.message.slice(0, 300) : `HTTP ${status}`;
  return { code, message };
}

/** Creates the ModelArk Seedream client (see the file comment). */
export function createSeedreamClient(opts: SeedreamClientOptions): SeedreamClient {
  const doFetch = opts.fetchImpl ?? fetch;
  const maxResultBytes = opts.maxResultBytes ?? 40 * 1024 * 1024;
  const endpoint = `${opts.baseUrl.replace(/\/+$/, '')}/api/v3/images/generations`;

  /** One HTTP exchange with a per-call timeout joined to the job's signal. */
  async function call(init: { url: string; method: 'GET' | 'POST'; body?: string; headers?: Record<string, string> }, signal: AbortSignal) {
    const timeout = AbortSignal.timeout(opts.requestTimeoutMs);
    return doFetch(init.url, { method: init.method, body: init.body, headers: init.headers, signal: AbortSignal.any([signal, timeout]) });
  }

  /** Runs `attempt` until it succeeds, a non-retryable error, or `maxAttempts` (backoff between). */
  async function withRetries<T>(what: string, signal: AbortSignal, attempt: () => Promise<T | { retry: true; waitMs: number; error: SeedreamError }>): Promise<T> {
    let last: SeedreamError | undefined;
    for (let i = 0; i < opts.maxAttempts; i++) {
      if (i > 0) {
        const backoff = opts.retryBaseMs * 2 ** (i - 1);
        const wait = Math.max(backoff, (last as SeedreamError & { waitMs?: number })?.waitMs ?? 0);
        await sleep(Math.min(wait, 60_000), signal);
      }
      let out: T | { retry: true; waitMs: number; error: SeedreamError };
      try {
        out = await attempt();
      } catch (err) {
        if (signal.aborted) throw signal.reason as Error;
        if (err instanceof SeedreamError) throw err;
        // Network failure or the per-call timeout: the vendor may be down; retry.
        last = new SeedreamError('InternalServiceError', `${what}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
        continue;
      }
      if (out && typeof out === 'object' && 'retry' in out && out.retry === true) {
        last = Object.assign(out.error, { waitMs: out.waitMs });
        continue;
      }
      return out as T;
    }
    throw last ?? new SeedreamError('InternalServiceError', `${what}: no attempt made`);
  }

  async function fetchImage(url: string, signal: AbortSignal): Promise<Buffer> {
    if (!/^https?:\/\//i.test(url)) throw new SeedreamError('GenerationFailed', 'result url is not http(s)');
    return withRetries('result download', signal, async () => {
      const res = await call({ url, method: 'GET' }, signal);
      if (!res.ok) {
        if (RETRYABLE_STATUS.has(res.status) || res.status >= 500) {
          return { retry: true as const, waitMs: retryAfterMs(res.headers.get('retry-after')), error: new SeedreamError('InternalServiceError', `result download HTTP ${res.status}`, { httpStatus: res.status }) };
        }
        throw new SeedreamError('GenerationFailed', `result download HTTP ${res.status}`, { httpStatus: res.status });
      }
      const buf = Buffer.from(await res.arrayBuffer());
      if (buf.length > maxResultBytes) throw new SeedreamError('GenerationFailed', 'result image too large');
      return buf;
    });
  }

  async function toImage(bytes: Buffer): Promise<SeedreamImage> {
    let meta: Metadata;
    try {
      meta = await sharp(bytes).metadata();
    } catch (err) {
      throw new SeedreamError('GenerationFailed', 'result is not an image', { cause: err });
    }
    if ((meta.format !== 'jpeg' && meta.format !== 'png') || !meta.width || !meta.height) throw new SeedreamError('GenerationFailed', `result format ${meta.format ?? 'unknown'}`);
    return { bytes, format: meta.format === 'png' ? 'png' : 'jpg', width: meta.width, height: meta.height };
  }

  return {
    name: `seedream:${opts.model}`,
    model: opts.model,
    async generate(p, signal) {
      const body: Record<string, unknown> = {
        model: opts.model,
        prompt: p.prompt,
        image: p.images.length === 1 ? p.images[0] : p.images,
        size: p.size,
        sequential_image_generation: p.maxImages > 1 ? 'auto' : 'disabled',
        response_format: 'url',
        watermark: opts.watermark,
        stream: false,
      };
      if (p.maxImages > 1) body.sequential_image_generation_options = { max_images: p.maxImages };
      if (p.seed !== undefined && modelSupportsSeed(opts.model)) body.seed = p.seed;
      const json = JSON.stringify(body);

      const answer = await withRetries('generation', signal, async () => {
        const res = await call({ url: endpoint, method: 'POST', body: json, headers: { 'content-type': 'application/json', authorization: `Bearer ${opts.apiKey}` } }, signal);
        const text = await res.text();
        let parsed: unknown;
        try {
          parsed = text ? JSON.parse(text) : null;
        } catch {
          parsed = null;
        }
        if (!res.ok) {
          const e = vendorError(parsed, res.status);
          // InternalServiceError is the vendor's own verdict on this request: fail (and refund) at once.
          if (RETRYABLE_STATUS.has(res.status)) {
            return { retry: true as const, waitMs: retryAfterMs(res.headers.get('retry-after')), error: new SeedreamError(e.code, e.message, { httpStatus: res.status }) };
          }
          throw new SeedreamError(e.code, e.message, { httpStatus: res.status });
        }
        if (!parsed || typeof parsed !== 'object' || !Array.isArray((parsed as { data?: unknown }).data)) {
          throw new SeedreamError('GenerationFailed', 'malformed vendor response');
        }
        return parsed as { model?: string; data: { url?: string; b64_json?: string; size?: string; error?: { code?: string; message?: string } }[] };
      });

      const images: SeedreamImage[] = [];
      const failures: { code: string; message: string }[] = [];
      for (const item of answer.data) {
        if (item.error) {
          failures.push({ code: item.error.code || 'GenerationFailed', message: (item.error.message ?? '').slice(0, 300) });
        } else if (typeof item.b64_json === 'string') {
          images.push(await toImage(Buffer.from(item.b64_json, 'base64')));
        } else if (typeof item.url === 'string') {
          images.push(await toImage(await fetchImage(item.url, signal)));
        }
      }
      return { images, failures, model: answer.model ?? opts.model };
    },
  };
}
