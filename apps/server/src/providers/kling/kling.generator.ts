import { SignJWT } from 'jose';
import sharp from 'sharp';
import type { ErrorCode } from '@dewy/contracts';
import type { KlingConfig } from '../../config';
import { AppError } from '../../lib/app-error';
import { sniffImageType } from '../../lib/image-type';
import type { GeneratedImage, GenerationRequest, GenerationResult, ImageGenerator } from './image-generator';
import { abortableSleep } from '../../lib/abortable-sleep';

/**
 * The Kling adapter (issue 16, decision 024), built on Kling's documented API:
 * - Auth: every request carries `Authorization: Bearer <JWT>`, the JWT signed HS256 with the secret
 *   key, claims `iss` = access key, `exp` = now + 1800 s, `nbf` = now − 5 s (signed with `jose`; a
 *   token is reused until 60 s before its expiry).
 * - `POST /v1/images/generations` {model_name, prompt, image (Base64 without a data: prefix),
 *   image_reference: 'subject' with a reference, n, aspect_ratio} → `{code, message, data:{task_id, task_status}}`.
 * - `GET /v1/images/generations/{task_id}` → `data.task_status` submitted | processing | succeed | failed,
 *   `task_status_msg`, `task_result.images[{index, url}]`; queried every `pollIntervalMs` until final.
 * - Business codes (`code` ≠ 0) mapped to ours: 1000–1004 authentication → VENDOR_AUTH_FAILED;
 *   1100–1103 account (exception, arrears, resource pack depleted, unauthorised) → VENDOR_UNAVAILABLE;
 *   1200–1203 parameters → GENERATION_FAILED; 1300–1301 policy/safety → GENERATION_SAFETY_BLOCKED;
 *   1302 rate, 1303 concurrency, 1304 IP policy (HTTP 429) → retried with backoff, then VENDOR_BUSY;
 *   5000–5002 and network failures → retried, then VENDOR_UNAVAILABLE.
 * Backoff: `pollIntervalMs` × 2^attempt, capped at 30 s (a `Retry-After` header wins), at most
 * `MAX_RETRIES` tries per call, never past the job's signal.
 */
export const KLING_RETRY = { maxRetries: 5, maxDelayMs: 30_000 } as const;

/** What a Kling answer carries (both calls). */
interface KlingEnvelope {
  code?: number;
  message?: string;
  data?: {
    task_id?: string;
    task_status?: string;
    task_status_msg?: string;
    task_result?: { images?: { index?: number; url?: string }[] };
  };
}

/** A failed call: the HTTP status, Kling's business code and message. */
class KlingCallError extends Error {
  constructor(
    readonly http: number,
    readonly code: number | null,
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
  }
}

/** Our error code for a Kling business code / HTTP status (see the file comment). */
export function mapKlingError(http: number, code: number | null): { code: ErrorCode; retry: boolean } {
  if (code !== null && code >= 1000 && code <= 1004) return { code: 'VENDOR_AUTH_FAILED', retry: false };
  if (code !== null && code >= 1100 && code <= 1103) return { code: 'VENDOR_UNAVAILABLE', retry: false };
  if (code !== null && code >= 1200 && code <= 1203) return { code: 'GENERATION_FAILED', retry: false };
  if (code === 1300 || code === 1301) return { code: 'GENERATION_SAFETY_BLOCKED', retry: false };
  if (code !== null && code >= 1302 && code <= 1304) return { code: 'VENDOR_BUSY', retry: true };
  if (code !== null && code >= 5000 && code <= 5002) return { code: 'VENDOR_UNAVAILABLE', retry: true };
  if (http === 401) return { code: 'VENDOR_AUTH_FAILED', retry: false };
  if (http === 429) return { code: 'VENDOR_BUSY', retry: true };
  if (http >= 500 || http === 0) return { code: 'VENDOR_UNAVAILABLE', retry: true };
  return { code: 'GENERATION_FAILED', retry: false };
}

/** Words of a failed task's `task_status_msg` that mean the platform's content risk control refused it. */
const SAFETY_WORDS = /risk|safety|sensitive|policy|nsfw|inappropriate|violat/i;

const sleep = (ms: number, signal: AbortSignal): Promise<void> => abortableSleep(ms, signal);

/** Creates the Kling image generator for `cfg` (KLING_* settings). */
export function createKlingGenerator(cfg: KlingConfig): ImageGenerator {
  const secret = new TextEncoder().encode(cfg.secretKey);
  let cached: { token: string; exp: number } | null = null;

  /** The API token (HS256 JWT: iss, exp = now + 1800, nbf = now − 5), reused until 60 s before expiry. */
  async function token(): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    if (cached && cached.exp - 60 > now) return cached.token;
    const exp = now + 1800;
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(cfg.accessKey)
      .setExpirationTime(exp)
      .setNotBefore(now - 5)
      .sign(secret);
    cached = { token: jwt, exp };
    return jwt;
  }

  /** One HTTP call, no retry. @throws KlingCallError (HTTP 0 for a network failure or a timeout). */
  async function callOnce(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal): Promise<KlingEnvelope> {
    let res: Response;
    try {
      res = await fetch(`${cfg.baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${await token()}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.any([signal, AbortSignal.timeout(cfg.requestTimeoutMs)]),
      });
    } catch (err) {
      signal.throwIfAborted();
      throw new KlingCallError(0, null, `network: ${err instanceof Error ? err.message : String(err)}`);
    }
    const text = await res.text().catch(() => '');
    let json: KlingEnvelope;
    try {
      json = text ? (JSON.parse(text) as KlingEnvelope) : {};
    } catch {
      json = {};
    }
    const retryAfter = Number(res.headers.get('retry-after'));
    if (!res.ok || (typeof json.code === 'number' && json.code !== 0)) {
      throw new KlingCallError(res.status, typeof json.code === 'number' ? json.code : null, json.message ?? `HTTP ${res.status}`, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : null);
    }
    if (!json.data) throw new KlingCallError(res.status, null, 'response without data');
    return json;
  }

  /** A call with the retry policy; a final failure becomes an AppError with our code. */
  async function call(method: 'GET' | 'POST', path: string, body: unknown, signal: AbortSignal): Promise<KlingEnvelope> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await callOnce(method, path, body, signal);
      } catch (err) {
        if (!(err instanceof KlingCallError)) throw err;
        const mapped = mapKlingError(err.http, err.code);
        if (!mapped.retry || attempt >= KLING_RETRY.maxRetries) {
          throw new AppError(mapped.code, { message: `kling ${method} ${path}: ${err.http}/${err.code ?? '-'} ${err.message}`.slice(0, 400) });
        }
        const backoff = Math.min(KLING_RETRY.maxDelayMs, cfg.pollIntervalMs * 2 ** attempt);
        await sleep(err.retryAfterMs !== null ? Math.min(KLING_RETRY.maxDelayMs, err.retryAfterMs) : backoff, signal);
      }
    }
  }

  /** Fetches one result URL into memory; null when it cannot be had or is not a JPEG/PNG (counted as missing). */
  async function fetchImage(url: string, signal: AbortSignal): Promise<GeneratedImage | null> {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        const res = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(cfg.requestTimeoutMs)]) });
        if (!res.ok) throw new Error(`HTTP ${res.status}`);
        const bytes = Buffer.from(await res.arrayBuffer());
        const mime = sniffImageType(bytes);
        if (!mime) return null;
        const meta = await sharp(bytes, { limitInputPixels: 64_000_000 }).metadata();
        if (!meta.width || !meta.height) return null;
        return { bytes, format: mime === 'image/png' ? 'png' : 'jpg', width: meta.width, height: meta.height };
      } catch {
        signal.throwIfAborted();
        await sleep(cfg.pollIntervalMs, signal);
      }
    }
    return null;
  }

  return {
    name: `kling:${cfg.model}`,
    async generate(req: GenerationRequest, signal: AbortSignal, onTask?: (taskId: string) => void): Promise<GenerationResult> {
      const body: Record<string, unknown> = { model_name: cfg.model, prompt: req.prompt, n: req.count, aspect_ratio: req.aspectRatio };
      if (req.reference) {
        body.image = req.reference.toString('base64');
        body.image_reference = 'subject';
      }
      const created = await call('POST', '/v1/images/generations', body, signal);
      const taskId = created.data?.task_id;
      if (!taskId) throw new AppError('GENERATION_FAILED', { message: 'kling: no task_id in the create answer' });
      onTask?.(taskId);
      for (;;) {
        await sleep(cfg.pollIntervalMs, signal);
        const q = await call('GET', `/v1/images/generations/${encodeURIComponent(taskId)}`, undefined, signal);
        const status = q.data?.task_status;
        if (status === 'failed') {
          const msg = q.data?.task_status_msg ?? 'task failed';
          throw new AppError(SAFETY_WORDS.test(msg) ? 'GENERATION_SAFETY_BLOCKED' : 'GENERATION_FAILED', { message: `kling task ${taskId}: ${msg}`.slice(0, 400) });
        }
        if (status !== 'succeed') continue; // submitted | processing
        const urls = (q.data?.task_result?.images ?? [])
          .slice()
          .sort((a, b) => (a.index ?? 0) - (b.index ?? 0))
          .map((i) => i.url)
          .filter((u): u is string => typeof u === 'string' && /^https?:\/\//.test(u))
          .slice(0, req.count);
        const images: GeneratedImage[] = [];
        for (const url of urls) {
          const img = await fetchImage(url, signal);
          if (img) images.push(img);
        }
        return { taskId, images };
      }
    },
  };
}
