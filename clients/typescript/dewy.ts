/**
 * A small typed client for Dewy's public REST API (`/v1`, decision 040), written on the platform's
 * `fetch` with no dependency and no import from the Dewy monorepo: copy this one file into your project
 * (Node ≥ 20, Deno, Bun, or a browser behind your own proxy — never ship an API key to a browser).
 *
 * ```ts
 * const dewy = new DewyClient({ apiKey: process.env.DEWY_API_KEY!, baseUrl: 'https://dewy.example.com' });
 * const upload = await dewy.upload(await fs.readFile('portrait.jpg'), 'portrait.jpg');
 * const job = await dewy.createJob('upscale', { image: upload.imageUrl, scale_factor: 1.5 }, { idempotencyKey: crypto.randomUUID() });
 * const done = await dewy.waitForJob(job.id);
 * if (done.status === 'completed') await fs.writeFile('result.jpg', await dewy.downloadResult(done.id));
 * console.log(`${dewy.lastCreditsRemaining} credits left`);
 * ```
 *
 * Every call authenticates with `Authorization: Bearer dewy_sk_…` (create a key on My Page → API keys).
 * An answer that is not 2xx throws a {@link DewyApiError} carrying the API's error code. A 429 is thrown
 * too, unless the client was built with `retryOnRateLimit: true`: then it waits `Retry-After` and tries
 * once more (once per call).
 */

/** A job's state: `processing` until a worker finishes it; `completed` and `failed` are final. */
export type JobStatus = 'processing' | 'completed' | 'failed';

/** The tools of `/v1` by their public names; any other string is passed through for tools added later. */
export type ToolName = 'upscale' | 'face-edit' | 'image-edit' | 'kling-generation' | (string & {});

/** A job as `/v1` answers it (`GET /v1/jobs/:id`, `POST /v1/jobs`, the list's items). */
export interface Job {
  /** The job's id (a UUID). */
  id: string;
  /** The tool's public name (`upscale`, …). */
  tool: string;
  status: JobStatus;
  /** Credits charged (given back when the job failed). */
  cost: number;
  /** When the job was created (ISO 8601). */
  created_at: string;
  /** When the job last changed, e.g. completed or failed (ISO 8601). */
  updated_at: string;
  /** A failed job's error code (`JOB_FAILED`, `JOB_TIMEOUT`, `JOB_CANCELLED`, …); null otherwise. */
  error: string | null;
  /** Signed URLs of the finished images, in order; empty until completed. They expire: prefer {@link DewyClient.downloadResult}. */
  results: string[];
  /** Who started the job: this API (`api_key`) or the account on the web page (`user`). */
  started_by: 'user' | 'api_key';
  /** Where the job's end is POSTed, signed (Standard Webhooks), as given to {@link DewyClient.createJob}; null without one. */
  webhook_url: string | null;
}

/** One page of the account's jobs, newest first (`GET /v1/jobs`). */
export interface JobList {
  jobs: Job[];
  /** Pass it as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}

/** A stored photo (`POST /v1/uploads`): name its `imageUrl` in a job's input. */
export interface Upload {
  success: true;
  /** What a job's input names (the upscale tool's `image`). */
  imageUrl: string;
  /** Width of the stored photo (px). */
  width: number;
  /** Height of the stored photo (px). */
  height: number;
}

/**
 * The input of the `upscale` tool (retouch + super-resolution). Only `image` is required; the server
 * fills in the rest and computes the cost from the photo's real size and the scale factor.
 */
export interface UpscaleInput {
  /** An {@link Upload.imageUrl} of this account. */
  image: string;
  /** 0.1–2 (default 1); refused when factor ≠ 1 and the scaled width + height reaches 4000 px. */
  scale_factor?: number;
  seed?: number;
  prompt?: string;
  output_format?: 'jpg' | 'png';
  output_quality?: number;
  lora_index?: number;
  filter_strength?: number;
  filter_index?: 0 | 1;
  filter_prompt?: string;
  upper_lip?: boolean;
  lower_lip?: boolean;
  left_eyebrow?: boolean;
  right_eyebrow?: boolean;
  nose?: boolean;
  hair?: boolean;
}

/** Options of {@link DewyClient}'s constructor. */
export interface DewyClientOptions {
  /** The secret API key, `dewy_sk_…`. */
  apiKey: string;
  /** The server's origin, e.g. `https://dewy.example.com` (a trailing slash is ignored). */
  baseUrl: string;
  /** The `fetch` to use (default the global one): for a proxy, a test double or request logging. */
  fetch?: typeof fetch;
  /** On 429, wait `Retry-After` and try again, once per call (default false: the 429 is thrown). */
  retryOnRateLimit?: boolean;
}

/** Options of {@link DewyClient.createJob}. */
export interface CreateJobOptions {
  /**
   * Sent as `Idempotency-Key` (1–255 characters): a retry with the same key answers the same job and
   * charges nothing again; the same key with another body is refused (422).
   */
  idempotencyKey?: string;
  /**
   * An absolute http(s) URL (at most 2048 characters, no user name or password) where the server POSTs
   * the job once it completed or failed, signed (Standard Webhooks); sent as `webhook_url`.
   */
  webhookUrl?: string;
  /** Aborts the request. */
  signal?: AbortSignal;
}

/** Options of {@link DewyClient.waitForJob}. */
export interface WaitForJobOptions {
  /** Pause between two reads of the job (ms, default 1000). Each read counts against the key's rate limit. */
  intervalMs?: number;
  /** Give up after this long (ms, default 600 000): throws {@link DewyTimeoutError}. */
  timeoutMs?: number;
  /** Stops waiting: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The error body of the API: `{success: false, code, error, message, details?}` (`error` repeats the message). */
interface ErrorBody {
  success?: false;
  code?: string;
  error?: string;
  message?: string;
  details?: unknown;
}

/**
 * An answer of the API that was not 2xx. `code` is the API's error code (`API_KEY_INVALID`,
 * `RATE_LIMITED`, `INSUFFICIENT_CREDITS`, `VALIDATION_FAILED`, `NOT_FOUND`, …), or `HTTP_<status>` when
 * the body was not the API's error body (e.g. a proxy's error page).
 */
export class DewyApiError extends Error {
  /** The HTTP status (401, 404, 422, 429, …). */
  readonly status: number;
  /** The API's error code. */
  readonly code: string;
  /** The body's `details` (field rules of a validation error, …), when present. */
  readonly details: unknown;
  /** Seconds to wait before trying again (from `Retry-After`), on a 429 or 503; else null. */
  readonly retryAfterSeconds: number | null;

  constructor(status: number, code: string, message: string, details: unknown, retryAfterSeconds: number | null) {
    super(message);
    this.name = 'DewyApiError';
    this.status = status;
    this.code = code;
    this.details = details;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** {@link DewyClient.waitForJob} ran out of time; `job` is the last state read. */
export class DewyTimeoutError extends Error {
  /** The job as last read (still processing). */
  readonly job: Job;

  constructor(job: Job, timeoutMs: number) {
    super(`job ${job.id} still ${job.status} after ${timeoutMs} ms`);
    this.name = 'DewyTimeoutError';
    this.job = job;
  }
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v);
  const at = Date.parse(v);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - now) / 1000));
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const MIME_BY_EXTENSION: Record<string, string> = { jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png' };

/** One request: method, path under the base URL, optional body and headers. */
interface RequestSpec {
  method: 'GET' | 'POST';
  path: string;
  /** Built again for each attempt (a body stream cannot be sent twice). */
  body?: () => string | FormData;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** A client of Dewy's `/v1` API for one API key. Safe to share between concurrent calls. */
export class DewyClient {
  /**
   * The account's balance from the last answer's `X-Credits-Remaining` (errors included); null before
   * the first answer that carried it.
   */
  lastCreditsRemaining: number | null = null;

  private readonly apiKey: string;
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly retryOnRateLimit: boolean;

  /** @param options the API key, the server's origin, and optionally a `fetch` and `retryOnRateLimit`. */
  constructor(options: DewyClientOptions) {
    if (!options.apiKey) throw new TypeError('DewyClient: apiKey is required');
    if (!options.baseUrl) throw new TypeError('DewyClient: baseUrl is required');
    this.apiKey = options.apiKey;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.retryOnRateLimit = options.retryOnRateLimit ?? false;
  }

  /**
   * Uploads a photo (JPEG or PNG) as the account's upload: `POST /v1/uploads`, multipart field `file`.
   * @param bytes the file's bytes (a Blob keeps its own type; bytes are typed from the file name)
   * @param filename the file's name, e.g. `portrait.jpg`
   * @returns the upload; name its `imageUrl` in a job's input
   * @throws DewyApiError (e.g. UNSUPPORTED_IMAGE_TYPE, IMAGE_TOO_LARGE, NSFW_CONTENT_DETECTED)
   */
  async upload(bytes: Uint8Array | Blob, filename: string, options: { signal?: AbortSignal } = {}): Promise<Upload> {
    const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase() ?? '';
    const type = MIME_BY_EXTENSION[ext] ?? 'application/octet-stream';
    // A copy into a plain ArrayBuffer: a view over a SharedArrayBuffer (or a Node Buffer's pool) is not a BlobPart everywhere.
    const blob = bytes instanceof Uint8Array ? new Blob([new Uint8Array(bytes).buffer as ArrayBuffer], { type }) : bytes;
    const res = await this.request({
      method: 'POST',
      path: '/v1/uploads',
      body: () => {
        const form = new FormData();
        form.append('file', blob, filename);
        return form;
      },
      signal: options.signal,
    });
    return (await res.json()) as Upload;
  }

  /**
   * Starts a job: `POST /v1/jobs {tool, input, webhook_url?}`. The server checks the input against the
   * tool, charges the credits and queues the job; read it with {@link getJob} or {@link waitForJob}.
   * @param tool the tool's public name (`upscale`, `face-edit`, `image-edit`, `kling-generation`)
   * @param input that tool's input (for `upscale`, see {@link UpscaleInput})
   * @param options `idempotencyKey` (recommended: a retry then never charges twice), `webhookUrl`, `signal`
   * @returns the new job (status `processing`), or the same job again for a replayed idempotency key
   * @throws DewyApiError (e.g. INSUFFICIENT_CREDITS, VALIDATION_FAILED, UPSCALE_BLOCKED)
   */
  createJob(tool: 'upscale', input: UpscaleInput, options?: CreateJobOptions): Promise<Job>;
  createJob(tool: ToolName, input: Record<string, unknown>, options?: CreateJobOptions): Promise<Job>;
  async createJob(tool: ToolName, input: object, options: CreateJobOptions = {}): Promise<Job> {
    const payload: Record<string, unknown> = { tool, input };
    if (options.webhookUrl !== undefined) payload.webhook_url = options.webhookUrl;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    const res = await this.request({ method: 'POST', path: '/v1/jobs', body: () => JSON.stringify(payload), headers, signal: options.signal });
    return (await res.json()) as Job;
  }

  /**
   * Reads one of the account's jobs: `GET /v1/jobs/:id`.
   * @throws DewyApiError NOT_FOUND for an unknown id or another account's job
   */
  async getJob(id: string, options: { signal?: AbortSignal } = {}): Promise<Job> {
    const res = await this.request({ method: 'GET', path: `/v1/jobs/${encodeURIComponent(id)}`, signal: options.signal });
    return (await res.json()) as Job;
  }

  /**
   * Lists the account's jobs, newest first: `GET /v1/jobs?limit&cursor`.
   * @param options `limit` 1–100 (server default 20); `cursor` the previous page's `next_cursor`
   */
  async listJobs(options: { limit?: number; cursor?: string; signal?: AbortSignal } = {}): Promise<JobList> {
    const q = new URLSearchParams();
    if (options.limit !== undefined) q.set('limit', String(options.limit));
    if (options.cursor !== undefined) q.set('cursor', options.cursor);
    const qs = q.toString();
    const res = await this.request({ method: 'GET', path: `/v1/jobs${qs ? `?${qs}` : ''}`, signal: options.signal });
    return (await res.json()) as JobList;
  }

  /**
   * Cancels a job no worker has started yet: `POST /v1/jobs/:id/cancel`. The job is then `failed` with
   * error `JOB_CANCELLED`, and its credits are back at once.
   * @returns the job, failed
   * @throws DewyApiError JOB_NOT_CANCELLABLE (409) once a worker started it or it finished; NOT_FOUND
   */
  async cancelJob(id: string, options: { signal?: AbortSignal } = {}): Promise<Job> {
    const res = await this.request({ method: 'POST', path: `/v1/jobs/${encodeURIComponent(id)}/cancel`, signal: options.signal });
    return (await res.json()) as Job;
  }

  /**
   * Downloads a finished job's image: `GET /v1/jobs/:id/result?index=`.
   * @param index which image of a multi-image job (default 0, the first)
   * @returns the image's bytes (JPEG or PNG, as the job's input asked)
   * @throws DewyApiError NOT_FOUND while the job is not completed, or for an index it has no image at
   */
  async downloadResult(id: string, index = 0, options: { signal?: AbortSignal } = {}): Promise<Uint8Array> {
    const res = await this.request({ method: 'GET', path: `/v1/jobs/${encodeURIComponent(id)}/result?index=${index}`, signal: options.signal });
    return new Uint8Array(await res.arrayBuffer());
  }

  /**
   * Reads the job every `intervalMs` until it is `completed` or `failed`, and returns it (a failed job
   * is returned, not thrown: look at its `error`).
   * @throws DewyTimeoutError after `timeoutMs`; the signal's reason when `signal` aborts; DewyApiError
   */
  async waitForJob(id: string, options: WaitForJobOptions = {}): Promise<Job> {
    const { intervalMs = 1000, timeoutMs = 600_000, signal } = options;
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.getJob(id, { signal });
      if (job.status !== 'processing') return job;
      const left = deadline - Date.now();
      if (left <= 0) throw new DewyTimeoutError(job, timeoutMs);
      await sleep(Math.min(intervalMs, left), signal);
    }
  }

  /** Sends one request (and, with `retryOnRateLimit`, a second one after a 429); throws DewyApiError unless 2xx. */
  private async request(spec: RequestSpec): Promise<Response> {
    let retried = false;
    for (;;) {
      const headers: Record<string, string> = { accept: 'application/json', authorization: `Bearer ${this.apiKey}`, ...spec.headers };
      const res = await this.fetchImpl(`${this.baseUrl}${spec.path}`, { method: spec.method, headers, body: spec.body?.(), signal: spec.signal });
      const credits = res.headers.get('x-credits-remaining');
      if (credits !== null && credits.trim() !== '' && Number.isFinite(Number(credits))) this.lastCreditsRemaining = Number(credits);
      if (res.ok) return res;
      const error = await this.toError(res);
      if (res.status === 429 && this.retryOnRateLimit && !retried) {
        retried = true;
        await sleep((error.retryAfterSeconds ?? 1) * 1000, spec.signal);
        continue;
      }
      throw error;
    }
  }

  /** The DewyApiError of a non-2xx answer (its body read). */
  private async toError(res: Response): Promise<DewyApiError> {
    const text = await res.text().catch(() => '');
    let body: ErrorBody | null = null;
    try {
      const parsed: unknown = JSON.parse(text);
      if (parsed && typeof parsed === 'object') body = parsed as ErrorBody;
    } catch {
      // not JSON: a proxy's page or an empty body
    }
    let retryAfter = parseRetryAfter(res.headers.get('retry-after'));
    const fromDetails = (body?.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    if (retryAfter === null && typeof fromDetails === 'number') retryAfter = fromDetails;
    const code = typeof body?.code === 'string' ? body.code : `HTTP_${res.status}`;
    const message = typeof body?.message === 'string' ? body.message : typeof body?.error === 'string' ? body.error : text.slice(0, 200) || `HTTP ${res.status}`;
    return new DewyApiError(res.status, code, message, body?.details, retryAfter);
  }
}
