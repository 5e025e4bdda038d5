import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DewyApiError, DewyClient, DewyTimeoutError, parseRetryAfter, type Job } from './dewy';

/** One request the fake server received. */
interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** What the fake answers: status, headers and a JSON value (or raw bytes). */
interface Answer {
  status: number;
  headers?: Record<string, string>;
  json?: unknown;
  raw?: Buffer;
}

const KEY = 'dewy_sk_testtesttesttesttesttesttesttesttesttes';

/**
 * A tiny server speaking the /v1 protocol as the tests script it: each request is recorded and answered
 * by `answer` (set per test); every answer carries X-Credits-Remaining unless the answer overrides it.
 */
let seen: Seen[] = [];
let answer: (req: Seen, n: number) => Answer = () => ({ status: 500, json: {} });
let server: http.Server;
let baseUrl: string;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const s: Seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) };
      seen.push(s);
      const a = answer(s, seen.length);
      const headers: Record<string, string> = { 'x-credits-remaining': '1000', ...a.headers };
      if (a.raw) {
        res.writeHead(a.status, { 'content-type': 'image/jpeg', ...headers });
        res.end(a.raw);
      } else {
        res.writeHead(a.status, { 'content-type': 'application/json; charset=utf-8', ...headers });
        res.end(JSON.stringify(a.json ?? {}));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  seen = [];
});

const JOB_ID = '3f1c2a4e-8b7d-4c6a-9e5f-1a2b3c4d5e6f';
function job(over: Partial<Job> = {}): Job {
  return {
    id: JOB_ID,
    tool: 'upscale',
    status: 'processing',
    cost: 125,
    created_at: '2025-01-01T00:00:00.000Z',
    updated_at: '2025-01-01T00:00:00.000Z',
    error: null,
    results: [],
    started_by: 'api_key',
    webhook_url: null,
    ...over,
  };
}

const client = (over: Partial<ConstructorParameters<typeof DewyClient>[0]> = {}) => new DewyClient({ apiKey: KEY, baseUrl: `${baseUrl}/`, ...over });

describe('DewyClient', () => {
  it('sends the API key as a bearer token and reads X-Credits-Remaining', async () => {
    answer = () => ({ status: 200, json: job(), headers: { 'x-credits-remaining': '875' } });
    const dewy = client();
    expect(dewy.lastCreditsRemaining).toBeNull();
    const j = await dewy.getJob(JOB_ID);
    expect(j).toEqual(job());
    expect(seen).toHaveLength(1);
    expect(seen[0]!.method).toBe('GET');
    expect(seen[0]!.url).toBe(`/v1/jobs/${JOB_ID}`);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(dewy.lastCreditsRemaining).toBe(875);
  });

  it('creates a job with its Idempotency-Key and webhook_url beside tool and input', async () => {
    answer = () => ({ status: 201, json: job() });
    const dewy = client();
    await dewy.createJob('upscale', { image: '/api/image/view/x.jpg', scale_factor: 1.5 }, { idempotencyKey: 'key-123', webhookUrl: 'https://example.com/hook' });
    expect(seen[0]!.method).toBe('POST');
    expect(seen[0]!.url).toBe('/v1/jobs');
    expect(seen[0]!.headers['idempotency-key']).toBe('key-123');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(seen[0]!.body.toString('utf8'))).toEqual({ tool: 'upscale', input: { image: '/api/image/view/x.jpg', scale_factor: 1.5 }, webhook_url: 'https://example.com/hook' });
    expect(dewy.lastCreditsRemaining).toBe(1000);

    await dewy.createJob('face-edit', { image: 'u' });
    expect(seen[1]!.headers['idempotency-key']).toBeUndefined();
    expect(JSON.parse(seen[1]!.body.toString('utf8'))).toEqual({ tool: 'face-edit', input: { image: 'u' } });
  });

  it('turns the error body into a DewyApiError with its code, message and details', async () => {
    answer = () => ({
      status: 422,
      json: { success: false, code: 'VALIDATION_FAILED', error: 'input does not match the tool', message: 'input does not match the tool', details: [{ field: 'input.image', rule: 'invalid_type' }] },
      headers: { 'x-credits-remaining': '40' },
    });
    const dewy = client();
    const err = await dewy.createJob('upscale', { image: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DewyApiError);
    expect(err).toMatchObject({ status: 422, code: 'VALIDATION_FAILED', message: 'input does not match the tool', details: [{ field: 'input.image', rule: 'invalid_type' }], retryAfterSeconds: null });
    // the header is read from error answers too
    expect(dewy.lastCreditsRemaining).toBe(40);
  });

  it('names a body that is not the API error body by its HTTP status', async () => {
    answer = () => ({ status: 502, raw: Buffer.from('<html>Bad gateway</html>'), headers: { 'content-type': 'text/html' } });
    const err = await client().getJob(JOB_ID).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 502, code: 'HTTP_502', message: '<html>Bad gateway</html>' });
  });

  it('throws a 429 with Retry-After parsed, without retrying by default', async () => {
    answer = () => ({ status: 429, headers: { 'retry-after': '17' }, json: { success: false, code: 'RATE_LIMITED', error: 'Too many requests', message: 'Too many requests', details: { retryAfterSeconds: 17 } } });
    const err = await client().listJobs().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DewyApiError);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 17 });
    expect(seen).toHaveLength(1);
  });

  it('with retryOnRateLimit, waits Retry-After and tries once more per call', async () => {
    const limited: Answer = { status: 429, headers: { 'retry-after': '0' }, json: { success: false, code: 'RATE_LIMITED', error: 'x', message: 'x' } };
    answer = (_req, n) => (n === 1 ? limited : { status: 201, json: job() });
    const dewy = client({ retryOnRateLimit: true });
    await expect(dewy.createJob('upscale', { image: 'u' }, { idempotencyKey: 'k' })).resolves.toEqual(job());
    expect(seen).toHaveLength(2);
    // the retry sends the same request again
    expect(seen[1]!.headers['idempotency-key']).toBe('k');
    expect(seen[1]!.body.toString('utf8')).toBe(seen[0]!.body.toString('utf8'));

    seen = [];
    answer = () => limited;
    const err = await dewy.getJob(JOB_ID).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 0 });
    expect(seen).toHaveLength(2);
  });

  it('waitForJob reads the job until it is completed', async () => {
    answer = (_req, n) => ({ status: 200, json: n < 3 ? job() : job({ status: 'completed', results: ['/r/1.jpg'] }) });
    const done = await client().waitForJob(JOB_ID, { intervalMs: 0 });
    expect(done.status).toBe('completed');
    expect(done.results).toEqual(['/r/1.jpg']);
    expect(seen.map((s) => s.url)).toEqual([`/v1/jobs/${JOB_ID}`, `/v1/jobs/${JOB_ID}`, `/v1/jobs/${JOB_ID}`]);
  });

  it('waitForJob stops on a failed job and returns it', async () => {
    answer = (_req, n) => ({ status: 200, json: n < 3 ? job() : job({ status: 'failed', error: 'JOB_FAILED' }) });
    const done = await client().waitForJob(JOB_ID, { intervalMs: 0 });
    expect(done).toMatchObject({ status: 'failed', error: 'JOB_FAILED' });
    expect(seen).toHaveLength(3);
  });

  it('waitForJob gives up after timeoutMs with the last state, and stops when its signal aborts', async () => {
    answer = () => ({ status: 200, json: job() });
    const err = await client().waitForJob(JOB_ID, { intervalMs: 0, timeoutMs: 0 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DewyTimeoutError);
    expect((err as DewyTimeoutError).job.status).toBe('processing');

    seen = [];
    const aborted = AbortSignal.abort(new Error('stop'));
    await expect(client().waitForJob(JOB_ID, { signal: aborted })).rejects.toThrow();
    expect(seen).toHaveLength(0);
  });

  it('uploads the bytes as the multipart field file', async () => {
    answer = () => ({ status: 201, json: { success: true, imageUrl: '/api/image/view/u/1/a.jpg?sig=x', width: 1024, height: 1024 } });
    const bytes = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]);
    const up = await client().upload(bytes, 'portrait.jpg');
    expect(up).toEqual({ success: true, imageUrl: '/api/image/view/u/1/a.jpg?sig=x', width: 1024, height: 1024 });
    const s = seen[0]!;
    expect(s.method).toBe('POST');
    expect(s.url).toBe('/v1/uploads');
    expect(s.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = s.body.toString('latin1');
    expect(body).toContain('Content-Disposition: form-data; name="file"; filename="portrait.jpg"');
    expect(body).toContain('Content-Type: image/jpeg');
    expect(s.body.includes(Buffer.from(bytes))).toBe(true);
  });

  it('lists with limit and cursor, cancels without a body, and downloads a result by index', async () => {
    answer = (req) => {
      if (req.url.startsWith('/v1/jobs?')) return { status: 200, json: { jobs: [job()], next_cursor: 'ajE' } };
      if (req.url.endsWith('/cancel')) return { status: 200, json: job({ status: 'failed', error: 'JOB_CANCELLED' }) };
      return { status: 200, raw: Buffer.from([1, 2, 3]) };
    };
    const dewy = client();
    await expect(dewy.listJobs({ limit: 5, cursor: 'ajE' })).resolves.toEqual({ jobs: [job()], next_cursor: 'ajE' });
    await expect(dewy.cancelJob(JOB_ID)).resolves.toMatchObject({ status: 'failed', error: 'JOB_CANCELLED' });
    await expect(dewy.downloadResult(JOB_ID, 1)).resolves.toEqual(new Uint8Array([1, 2, 3]));
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /v1/jobs?limit=5&cursor=ajE', `POST /v1/jobs/${JOB_ID}/cancel`, `GET /v1/jobs/${JOB_ID}/result?index=1`]);
    expect(seen[1]!.body).toHaveLength(0);
    expect(seen[1]!.headers['content-type']).toBeUndefined();
  });

  it('uses the fetch it is given', async () => {
    const urls: string[] = [];
    const dewy = client({
      fetch: async (input, init) => {
        urls.push(String(input));
        return fetch(input, init);
      },
    });
    answer = () => ({ status: 200, json: job() });
    await dewy.getJob(JOB_ID);
    expect(urls).toEqual([`${baseUrl}/v1/jobs/${JOB_ID}`]);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('30')).toBe(30);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:12 GMT', now)).toBe(12);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:59:00 GMT', now)).toBe(0);
  });
});
