import sharp, { type Metadata } from 'sharp';
import type { RetouchEngine, RetouchEngineInput, RetouchEngineResult, RetouchJobInput } from './retouch-engine';
import { abortableSleep } from '../../lib/abortable-sleep';

/**
 * Retouch on a RunPod serverless endpoint (GUIDE §1 "remote GPU workers", §3 step 3), through RunPod's
 * documented queue API (docs.runpod.io/serverless/endpoints/operation-reference):
 *   POST {endpointUrl}/run          {input}            → {id, status: "IN_QUEUE"}
 *   GET  {endpointUrl}/status/{id}                     → {id, status, output?, error?, delayTime?, executionTime?}
 *   POST {endpointUrl}/cancel/{id}                     → {id, status: "CANCELLED"}
 * with `Authorization: Bearer <api key>`. Statuses: IN_QUEUE, IN_PROGRESS, COMPLETED, FAILED,
 * CANCELLED, TIMED_OUT. The input is spec 001 §3's upscale request input; the worker fetches the photo
 * itself from the signed URL.
 */

export interface RunpodEngineOptions {
  /** Endpoint base, e.g. `https://api.runpod.ai/v2/<endpointId>` (no trailing slash needed). */
  endpointUrl: string;
  apiKey: string;
  /** Wait between status polls (ms). */
  pollIntervalMs?: number;
  /** Whole-job limit from submission to result (ms); the job is cancelled when it runs out. */
  timeoutMs?: number;
  /** Longest wait for one HTTP call to RunPod or to the result URL (ms). */
  requestTimeoutMs?: number;
  /** Largest result image accepted (bytes). */
  maxResultBytes?: number;
  /**
   * Origin that relative image URLs are resolved against (local storage hands out relative signed
   * URLs when its publicBaseUrl is ''); RunPod's workers need an absolute URL they can reach.
   */
  imageBaseUrl?: string;
  fetchImpl?: typeof fetch;
}

/** The `input` object of spec 001 §3 (upscale request input), as the RunPod worker reads it. */
export type RunpodUpscaleInput = RetouchJobInput & { width: number; height: number; numImages: 1 };

export type RunpodErrorReason = 'bad_input' | 'unauthorized' | 'http' | 'failed' | 'cancelled' | 'timed_out' | 'bad_output';

/** A RunPod job that did not give an image; `reason` says why, `jobId` when one was created. */
export class RunpodError extends Error {
  readonly reason: RunpodErrorReason;
  readonly jobId?: string;
  readonly httpStatus?: number;

  constructor(reason: RunpodErrorReason, message: string, extra: { jobId?: string; httpStatus?: number; cause?: unknown } = {}) {
    super(message, { cause: extra.cause });
    this.name = 'RunpodError';
    this.reason = reason;
    this.jobId = extra.jobId;
    this.httpStatus = extra.httpStatus;
  }
}

interface RunpodStatus {
  id?: string;
  status?: string;
  output?: unknown;
  error?: unknown;
  delayTime?: number;
  executionTime?: number;
}

/**
 * Spec 001 §3's `input` object for RunPod: the stored request input as it is, with `image` replaced by
 * the signed URL (resolved against `imageBaseUrl` when relative) and the server-measured size; throws
 * RunpodError `bad_input` when it cannot be made an absolute http(s) URL.
 */
export function buildRunpodInput(input: RetouchEngineInput, imageBaseUrl?: string): RunpodUpscaleInput {
  return { ...input.input, image: absoluteImageUrl(input.imageUrl, imageBaseUrl), numImages: 1, width: input.width, height: input.height };
}

/** A finished RunPod job: the result image's bytes and RunPod's timings. */
export interface RunpodJobResult {
  bytes: Buffer;
  jobId: string;
  delayTimeMs?: number;
  executionTimeMs?: number;
  totalMs: number;
}

/**
 * Runs one job on a RunPod serverless endpoint, whatever the tool: submits `{input}` to `/run`, polls
 * `/status/{id}` every `pollIntervalMs` (network errors and 5xx answers of a poll are retried until the
 * deadline), and reads the output image: `output.image` as base64 or a data URL, or `output.image_url` /
 * `output.images[0]` as a URL (or base64) to fetch; a bare string or a one-item array output is read
 * the same way.
 * Rejects with RunpodError (`unauthorized` on 401/403, `failed`/`cancelled`/`timed_out` from RunPod's
 * status or our own `timeoutMs`, `http`, `bad_output`), or with the signal's reason when `signal`
 * aborts. On abort and on timeout it asks RunPod to cancel the job (best effort) before rejecting.
 */
export function createRunpodJobRunner(opts: RunpodEngineOptions): { run(input: object, signal?: AbortSignal): Promise<RunpodJobResult> } {
  const base = opts.endpointUrl.replace(/\/+$/, '');
  const pollIntervalMs = opts.pollIntervalMs ?? 2000;
  const timeoutMs = opts.timeoutMs ?? 600_000;
  const requestTimeoutMs = opts.requestTimeoutMs ?? 30_000;
  const maxResultBytes = opts.maxResultBytes ?? 100 * 1024 * 1024;
  const fetchImpl = opts.fetchImpl ?? fetch;
  const auth = { Authorization: `Bearer ${opts.apiKey}` };

  /** One call to RunPod, bounded by the job's signal and the per-request timeout. */
  async function call(pathname: string, init: RequestInit, signal: AbortSignal): Promise<{ status: number; body: RunpodStatus }> {
    const res = await fetchImpl(`${base}${pathname}`, {
      ...init,
      headers: { ...auth, Accept: 'application/json', ...(init.body ? { 'Content-Type': 'application/json' } : {}) },
      signal: AbortSignal.any([signal, AbortSignal.timeout(requestTimeoutMs)]),
    });
    const text = await res.text();
    let body: RunpodStatus;
    try {
      body = text ? (JSON.parse(text) as RunpodStatus) : {};
    } catch {
      body = { error: text.slice(0, 200) };
    }
    return { status: res.status, body };
  }

  async function cancel(jobId: string): Promise<void> {
    try {
      // Not tied to the job's signal, which is already aborted when we get here.
      await call(`/cancel/${encodeURIComponent(jobId)}`, { method: 'POST' }, AbortSignal.timeout(requestTimeoutMs));
    } catch {
      // Best effort: RunPod ends the job by its own execution timeout anyway.
    }
  }

  async function fetchBytes(url: string, signal: AbortSignal): Promise<Buffer> {
    const res = await fetchImpl(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(requestTimeoutMs)]) });
    if (!res.ok) throw new RunpodError('bad_output', `result image fetch answered ${res.status}`, { httpStatus: res.status });
    const declared = Number(res.headers.get('content-length') ?? 0);
    if (declared > maxResultBytes) throw new RunpodError('bad_output', 'result image too large');
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > maxResultBytes) throw new RunpodError('bad_output', 'result image too large');
    return bytes;
  }

  async function readResult(output: unknown, signal: AbortSignal, jobId: string): Promise<Buffer> {
    const ref = findImageRef(output);
    if (!ref) {
      const err = errorText((output as { error?: unknown } | null)?.error) ?? 'no image in the job output';
      throw new RunpodError('bad_output', err, { jobId });
    }
    return ref.kind === 'url' ? fetchBytes(ref.url, signal) : ref.bytes;
  }

  return {
    async run(input, signal) {
      signal?.throwIfAborted();
      const started = Date.now();
      const deadline = started + timeoutMs;
      const deadlineCtl = new AbortController();
      const deadlineTimer = setTimeout(() => deadlineCtl.abort(new RunpodError('timed_out', `no result within ${timeoutMs} ms`)), timeoutMs);
      const jobSignal = signal ? AbortSignal.any([signal, deadlineCtl.signal]) : deadlineCtl.signal;
      let jobId: string | undefined;

      try {
        const submitted = await call('/run', { method: 'POST', body: JSON.stringify({ input }) }, jobSignal);
        throwForHttp(submitted.status, submitted.body);
        if (typeof submitted.body.id !== 'string' || !submitted.body.id) {
          throw new RunpodError('http', 'RunPod /run answered without a job id', { httpStatus: submitted.status });
        }
        jobId = submitted.body.id;

        let last: RunpodStatus = submitted.body;
        for (;;) {
          await sleep(Math.min(pollIntervalMs, Math.max(0, deadline - Date.now())), jobSignal);
          let polled: { status: number; body: RunpodStatus };
          try {
            polled = await call(`/status/${encodeURIComponent(jobId)}`, { method: 'GET' }, jobSignal);
          } catch {
            if (jobSignal.aborted) throw jobSignal.reason;
            continue; // A poll lost on the network is just retried (spec 001 §4 does the same).
          }
          if (polled.status >= 500 || polled.status === 429) continue;
          throwForHttp(polled.status, polled.body, jobId);
          last = polled.body;
          const status = last.status;
          if (status === 'COMPLETED') break;
          if (status === 'FAILED') throw new RunpodError('failed', errorText(last.error) ?? 'RunPod job failed', { jobId });
          if (status === 'CANCELLED') throw new RunpodError('cancelled', 'RunPod job was cancelled', { jobId });
          if (status === 'TIMED_OUT') throw new RunpodError('timed_out', 'RunPod job timed out', { jobId });
        }

        const bytes = await readResult(last.output, jobSignal, jobId);
        return { bytes, jobId, delayTimeMs: last.delayTime, executionTimeMs: last.executionTime, totalMs: Date.now() - started };
      } catch (e) {
        // Aborted by the caller or by our deadline: the GPU should stop working on it too.
        if (jobSignal.aborted && jobId) await cancel(jobId);
        if (signal?.aborted) throw signal.reason;
        if (deadlineCtl.signal.aborted) {
          const reason = deadlineCtl.signal.reason as RunpodError;
          throw new RunpodError('timed_out', reason.message, { jobId, cause: e });
        }
        throw e;
      } finally {
        clearTimeout(deadlineTimer);
      }
    },
  };
}

/**
 * A RetouchEngine on a RunPod serverless endpoint (see `createRunpodJobRunner` for the protocol). The
 * input is spec 001 §3's upscale request input with the signed image URL; the result's real size and
 * format come from sharp's header read, and a format other than JPEG/PNG is re-encoded to the
 * requested one. Rejects with RunpodError (`bad_input` for a relative image URL without
 * `imageBaseUrl`, else as the runner).
 */
export function createRunpodEngine(opts: RunpodEngineOptions): RetouchEngine {
  const runner = createRunpodJobRunner(opts);
  return {
    name: 'runpod',
    async run(input, signal) {
      signal?.throwIfAborted();
      const job = await runner.run(buildRunpodInput(input, opts.imageBaseUrl), signal);
      const result = await toResult(job.bytes, input.input.output_format, input.input.output_quality, job.jobId);
      result.meta = { ...result.meta, engine: 'runpod', runpodJobId: job.jobId, delayTimeMs: job.delayTimeMs, executionTimeMs: job.executionTimeMs, totalMs: job.totalMs };
      return result;
    },
    async close() {
      // Stateless: nothing to release.
    },
  };
}

/** `url` made absolute against `base`; RunpodError `bad_input` unless http(s). */
export function absoluteImageUrl(url: string, base: string | undefined): string {
  let u: URL | undefined;
  try {
    u = base ? new URL(url, base) : new URL(url);
  } catch {
    u = undefined;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
    throw new RunpodError('bad_input', 'RunPod needs an absolute http(s) image URL; set imageBaseUrl or give storage a public base URL');
  }
  return u.toString();
}

function throwForHttp(status: number, body: RunpodStatus, jobId?: string): void {
  if (status === 401 || status === 403) {
    throw new RunpodError('unauthorized', `RunPod refused the API key (${status})`, { httpStatus: status, ...(jobId ? { jobId } : {}) });
  }
  if (status < 200 || status >= 300) {
    throw new RunpodError('http', `RunPod answered ${status}: ${errorText(body.error) ?? ''}`.trim(), { httpStatus: status, ...(jobId ? { jobId } : {}) });
  }
}

type ImageRef = { kind: 'bytes'; bytes: Buffer } | { kind: 'url'; url: string };

/** Where the image is in a worker's output (see createRunpodEngine); undefined when nowhere. */
export function findImageRef(output: unknown): ImageRef | undefined {
  if (typeof output === 'string') return refFromString(output);
  if (Array.isArray(output)) return output.length > 0 ? findImageRef(output[0]) : undefined;
  if (!output || typeof output !== 'object') return undefined;
  const o = output as Record<string, unknown>;
  if (typeof o.image === 'string') return refFromString(o.image);
  if (typeof o.image_url === 'string') return refFromString(o.image_url);
  if (Array.isArray(o.images) && o.images.length > 0) return findImageRef(o.images[0]);
  return undefined;
}

function refFromString(s: string): ImageRef | undefined {
  const v = s.trim();
  if (/^https?:\/\//i.test(v)) return { kind: 'url', url: v };
  const dataUrl = /^data:[^;,]*;base64,(.*)$/is.exec(v);
  const b64 = dataUrl ? (dataUrl[1] as string) : v;
  if (!/^[A-Za-z0-9+/_=\s-]+$/.test(b64)) return undefined;
  const bytes = Buffer.from(b64, 'base64');
  return bytes.length > 0 ? { kind: 'bytes', bytes } : undefined;
}

/** The result image as stored: JPEG/PNG kept, anything else re-encoded to `wanted`. */
export async function toResult(bytes: Buffer, wanted: 'jpg' | 'png', quality: number, jobId: string): Promise<RetouchEngineResult> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch (e) {
    throw new RunpodError('bad_output', 'job output is not an image', { jobId, cause: e });
  }
  if ((meta.format === 'jpeg' || meta.format === 'png') && meta.width && meta.height) {
    return { bytes, format: meta.format === 'jpeg' ? 'jpg' : 'png', width: meta.width, height: meta.height, meta: {} };
  }
  // A worker answering WebP (or anything sharp reads) still yields the format the customer asked for.
  const q = Math.min(100, Math.max(1, Math.round(quality)));
  const img = sharp(bytes);
  const out = await (wanted === 'png' ? img.png() : img.jpeg({ quality: q })).toBuffer({ resolveWithObject: true });
  return { bytes: out.data, format: wanted, width: out.info.width, height: out.info.height, meta: { reencodedFrom: meta.format } };
}

function errorText(e: unknown): string | undefined {
  if (typeof e === 'string') return e;
  if (e && typeof e === 'object') {
    const m = (e as { message?: unknown; error_message?: unknown }).message ?? (e as { error_message?: unknown }).error_message;
    return typeof m === 'string' ? m : JSON.stringify(e).slice(0, 500);
  }
  return undefined;
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> => abortableSleep(ms, signal);
