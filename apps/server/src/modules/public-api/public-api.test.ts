import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ERROR_MESSAGES } from '@dewy/contracts';
import { creditLedger, jobs, uploads } from '../../db/schema';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { waitFor } from '../../../test/helpers/wait';
import { toolJobHandler } from '../tool-jobs';

/** The public `/v1` API (decision 040 §2) on each database: API-key callers of the kernel. */
describe.each(TEST_DATABASES)('the /v1 API on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { API_REQUESTS_PER_MINUTE: '1000' }, { workers: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A verified customer with an API key. */
  async function customer() {
    const u = await signUpAndLogin(t.app);
    const created = (await t.app.inject({ method: 'POST', url: '/api/account/api-keys', headers: { cookie: u.cookie }, payload: { name: 'program' } })).json() as { key: { id: number }; secret: string };
    return { ...u, keyId: created.key.id, auth: { authorization: `Bearer ${created.secret}` } };
  }
  async function upload(auth: Record<string, string>) {
    const form = multipartBody('file', 'portrait.jpg', 'image/jpeg', await makeJpeg(320, 240));
    return t.app.inject({ method: 'POST', url: '/v1/uploads', headers: { ...auth, ...form.headers }, payload: form.payload });
  }
  const startJob = (auth: Record<string, string>, body: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/v1/jobs', headers: { ...auth, ...headers }, payload: body as object });

  it('uploads a photo, starts a retouch as the key, reports it until completed and serves the result; every answer carries the remaining credits', async () => {
    const c = await customer();
    const up = await upload(c.auth);
    expect(up.statusCode, up.body).toBe(201);
    expect(up.headers['x-credits-remaining']).toBe('300');
    const image = up.json().imageUrl as string;

    const res = await startJob(c.auth, { tool: 'upscale', input: { image, scale_factor: 1 } });
    expect(res.statusCode, res.body).toBe(201);
    const job = res.json() as { id: string; tool: string; status: string; cost: number; started_by: string };
    expect(job).toMatchObject({ tool: 'upscale', status: 'processing', started_by: 'api_key' });
    expect(Number(res.headers['x-credits-remaining'])).toBe(300 - job.cost);
    const [row] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, job.id));
    expect(row).toMatchObject({ userId: c.user.id, actorKind: 'api_key', apiKeyId: c.keyId });

    const done = await waitFor(async () => {
      const r = (await t.app.inject({ url: `/v1/jobs/${job.id}`, headers: c.auth })).json() as { status: string; results: string[] };
      return r.status === 'processing' ? undefined : r;
    });
    expect(done.status).toBe('completed');
    expect(done.results).toHaveLength(1);
    const result = await t.app.inject({ url: `/v1/jobs/${job.id}/result`, headers: c.auth });
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toMatch(/^image\/(jpeg|png)$/);
    expect(result.rawPayload.length).toBeGreaterThan(100);
    expect((await t.app.inject({ url: `/v1/jobs/${job.id}/result?index=1`, headers: c.auth })).statusCode).toBe(404);
  });

  it('every /v1 route refuses a missing, malformed, unknown or revoked key with 401, and answers another account\'s job as unknown (404)', async () => {
    const owner = await customer();
    const image = (await upload(owner.auth)).json().imageUrl as string;
    const job = (await startJob(owner.auth, { tool: 'upscale', input: { image, scale_factor: 1 } })).json() as { id: string };
    const other = await customer();
    const routes = [
      { method: 'GET' as const, url: `/v1/jobs/${job.id}` },
      { method: 'GET' as const, url: '/v1/jobs' },
      { method: 'GET' as const, url: `/v1/jobs/${job.id}/result` },
      { method: 'POST' as const, url: '/v1/jobs', payload: { tool: 'upscale', input: { image, scale_factor: 1 } } },
      { method: 'POST' as const, url: '/v1/uploads' },
      { method: 'POST' as const, url: `/v1/jobs/${job.id}/cancel` },
    ];
    const revoked = await customer();
    await t.app.inject({ method: 'DELETE', url: `/api/account/api-keys/${revoked.keyId}`, headers: { cookie: revoked.cookie } });
    for (const r of routes) {
      for (const headers of [{}, { authorization: 'Bearer' }, { authorization: 'Basic abc' }, { authorization: `Bearer dewy_sk_${'A'.repeat(43)}` }, revoked.auth, { cookie: owner.cookie }]) {
        const res = await t.app.inject({ ...r, headers: { ...headers, 'accept-language': 'en' } });
        expect(res.statusCode, `${r.method} ${r.url} ${JSON.stringify(headers)}`).toBe(401);
        expect(res.json()).toMatchObject({ success: false, code: 'API_KEY_INVALID', error: ERROR_MESSAGES.API_KEY_INVALID.en });
        expect(res.headers['x-credits-remaining']).toBeUndefined();
      }
    }
    // Another account's key sees nothing of the owner's.
    expect((await t.app.inject({ url: `/v1/jobs/${job.id}`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/v1/jobs/${job.id}/result`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `/v1/jobs/${job.id}/cancel`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ url: '/v1/jobs', headers: other.auth })).json().jobs).toEqual([]);
    const foreign = await startJob(other.auth, { tool: 'upscale', input: { image, scale_factor: 1 } });
    expect(foreign.statusCode).toBe(403);
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, other.user.id))).toEqual([]);
    // An API key never reaches the account's session routes.
    for (const url of ['/api/account/api-keys', '/api/auth/check', '/api/credits/history']) {
      const res = await t.app.inject({ url, headers: owner.auth });
      expect(res.statusCode === 401 || (res.statusCode === 200 && res.json().user === null), url).toBe(true);
    }
  });

  it('50 parallel POSTs under one Idempotency-Key make one job and one charge; the same key with another body is 422', async () => {
    const c = await customer();
    const image = (await upload(c.auth)).json().imageUrl as string;
    const body = { tool: 'upscale', input: { image, scale_factor: 1 } };
    const answers = await Promise.all(Array.from({ length: 50 }, () => startJob(c.auth, body, { 'idempotency-key': 'batch-7-photo-1' })));
    for (const a of answers) expect(a.statusCode, a.body).toBe(201);
    expect(new Set(answers.map((a) => a.json().id)).size).toBe(1);
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, c.user.id))).toHaveLength(1);
    const spends = (await t.ctx.database.db.select().from(creditLedger).where(eq(creditLedger.userId, c.user.id))).filter((e) => e.kind === 'spend');
    expect(spends).toHaveLength(1);
    const reused = await startJob(c.auth, { tool: 'upscale', input: { image, scale_factor: 2 } }, { 'idempotency-key': 'batch-7-photo-1' });
    expect(reused.statusCode).toBe(422);
    expect(reused.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('refuses an unknown tool, a bad input, a bad cursor and a missing file with the field named, charging nothing', async () => {
    const c = await customer();
    const image = (await upload(c.auth)).json().imageUrl as string;
    for (const body of [{}, { tool: 'nope', input: {} }, { tool: 'upscale' }, { tool: 'upscale', input: { image, scale_factor: 9 } }, { tool: 'upscale', input: { scale_factor: 1 } }, { tool: 'upscale', input: { image, scale_factor: 1 }, extra: 1 }]) {
      const res = await startJob(c.auth, body, { 'accept-language': 'ko' });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED', error: ERROR_MESSAGES.VALIDATION_FAILED.ko });
    }
    const bad = await startJob(c.auth, { tool: 'upscale', input: { image, scale_factor: 9 } });
    expect(JSON.stringify(bad.json().details)).toContain('input.scale_factor');
    expect((await t.app.inject({ url: '/v1/jobs?cursor=not-ours', headers: c.auth })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/v1/jobs?limit=0', headers: c.auth })).statusCode).toBe(400);
    const noFile = await t.app.inject({ method: 'POST', url: '/v1/uploads', headers: { ...c.auth, 'content-type': 'application/json' }, payload: {} });
    expect(noFile.statusCode).toBe(400);
    const notImage = multipartBody('file', 'x.jpg', 'image/jpeg', Buffer.from('not an image at all'));
    expect((await t.app.inject({ method: 'POST', url: '/v1/uploads', headers: { ...c.auth, ...notImage.headers }, payload: notImage.payload })).statusCode).toBe(400);
    expect(await t.ctx.database.db.select().from(jobs).where(eq(jobs.userId, c.user.id))).toEqual([]);
    expect((await t.app.inject({ url: '/v1/jobs', headers: c.auth })).headers['x-credits-remaining']).toBe('300');
  });

  it('lists the account\'s jobs newest first, page by page, with an opaque cursor', async () => {
    const c = await customer();
    const image = (await upload(c.auth)).json().imageUrl as string;
    const ids: string[] = [];
    // Three retouches fit the welcome credits.
    for (let i = 0; i < 3; i++) {
      const res = await startJob(c.auth, { tool: 'upscale', input: { image, scale_factor: 1 } });
      expect(res.statusCode, res.body).toBe(201);
      ids.push(res.json().id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = (await t.app.inject({ url: `/v1/jobs?limit=2${cursor ? `&cursor=${cursor}` : ''}`, headers: c.auth })).json() as { jobs: { id: string }[]; next_cursor: string | null };
      expect(page.jobs.length).toBeLessThanOrEqual(2);
      seen.push(...page.jobs.map((j) => j.id));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });
});

describe.each(TEST_DATABASES)('the /v1 rate limit on $name', (kind) => {
  it('answers 429 with Retry-After past the per-key limit, counted exactly under a parallel burst; another key is not affected', async () => {
    const t = await createTestApp(kind, { API_REQUESTS_PER_MINUTE: '5' });
    try {
      const u = await signUpAndLogin(t.app);
      const mk = async () => `Bearer ${((await t.app.inject({ method: 'POST', url: '/api/account/api-keys', headers: { cookie: u.cookie }, payload: { name: 'k' } })).json() as { secret: string }).secret}`;
      const [a, b] = [await mk(), await mk()];
      const burst = await Promise.all(Array.from({ length: 12 }, () => t.app.inject({ url: '/v1/jobs', headers: { authorization: a } })));
      expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(5);
      const refused = burst.filter((r) => r.statusCode !== 200);
      expect(refused).toHaveLength(7);
      for (const r of refused) {
        expect(r.statusCode).toBe(429);
        expect(r.json().code).toBe('RATE_LIMITED');
        expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(Number(r.headers['retry-after'])).toBeLessThanOrEqual(60);
      }
      expect((await t.app.inject({ url: '/v1/jobs', headers: { authorization: b } })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

/** `POST /v1/jobs/:id/cancel` and the Idempotency-Key of the POSTs that are not kernel jobs (decision 040 §2): jobs stay queued here (no workers) until a test runs the handler. */
describe.each(TEST_DATABASES)('cancelling a /v1 job on $name', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { API_REQUESTS_PER_MINUTE: '1000' }, { workers: false });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function customerWithJob() {
    const u = await signUpAndLogin(t.app);
    const secret = (await t.app.inject({ method: 'POST', url: '/api/account/api-keys', headers: { cookie: u.cookie }, payload: { name: 'program' } })).json().secret as string;
    const auth = { authorization: `Bearer ${secret}` };
    const form = multipartBody('file', 'portrait.jpg', 'image/jpeg', await makeJpeg(320, 240));
    const image = (await t.app.inject({ method: 'POST', url: '/v1/uploads', headers: { ...auth, ...form.headers }, payload: form.payload })).json().imageUrl as string;
    const job = (await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: auth, payload: { tool: 'upscale', input: { image, scale_factor: 1 } } })).json() as { id: string; cost: number };
    return { ...u, auth, job };
  }
  const refunds = async (userId: number) => (await t.ctx.database.db.select().from(creditLedger).where(eq(creditLedger.userId, userId))).filter((e) => e.kind === 'refund');
  const handlerOf = () => toolJobHandler(t.ctx, t.ctx.tools.find((x) => x.jobName === 'upscale')!, t.app.log);

  it('a queued job is cancelled once under 20 parallel cancels and refunded once; then, or for a finished job, 409; another account 404', async () => {
    const c = await customerWithJob();
    expect(c.job.cost).toBeGreaterThan(0);
    const answers = await Promise.all(Array.from({ length: 20 }, () => t.app.inject({ method: 'POST', url: `/v1/jobs/${c.job.id}/cancel`, headers: { ...c.auth, 'accept-language': 'en' } })));
    const ok = answers.filter((a) => a.statusCode === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.json()).toMatchObject({ id: c.job.id, status: 'failed', error: 'JOB_CANCELLED' });
    expect(ok[0]!.headers['x-credits-remaining']).toBe('300');
    for (const a of answers.filter((x) => x.statusCode !== 200)) {
      expect(a.statusCode).toBe(409);
      expect(a.json()).toMatchObject({ code: 'JOB_NOT_CANCELLABLE', error: ERROR_MESSAGES.JOB_NOT_CANCELLABLE.en });
    }
    expect(await refunds(c.user.id)).toHaveLength(1);
    // The queue's job then finds the row failed and runs nothing.
    await handlerOf().handle({ imageId: (await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, c.job.id)))[0]!.id }, { signal: new AbortController().signal } as never);
    const [row] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, c.job.id));
    expect(row).toMatchObject({ status: 'failed', errorCode: 'JOB_CANCELLED', resultKey: null });

    const other = await customerWithJob();
    expect((await t.app.inject({ method: 'POST', url: `/v1/jobs/${c.job.id}/cancel`, headers: other.auth })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/v1/jobs/not-a-job/cancel', headers: other.auth })).statusCode).toBe(404);
    // A finished job is not cancellable, and keeps its charge.
    const [otherRow] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, other.job.id));
    await handlerOf().handle({ imageId: otherRow!.id }, { signal: new AbortController().signal } as never);
    const late = await t.app.inject({ method: 'POST', url: `/v1/jobs/${other.job.id}/cancel`, headers: other.auth });
    expect(late.statusCode).toBe(409);
    expect((await t.app.inject({ url: `/v1/jobs/${other.job.id}`, headers: other.auth })).json().status).toBe('completed');
    expect(await refunds(other.user.id)).toEqual([]);
  });

  it('a cancel racing the worker: the job is either cancelled and refunded without a result, or run and charged, never both', async () => {
    for (let i = 0; i < 4; i++) {
      const c = await customerWithJob();
      const [row] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, c.job.id));
      const [cancel] = await Promise.all([
        t.app.inject({ method: 'POST', url: `/v1/jobs/${c.job.id}/cancel`, headers: c.auth }),
        handlerOf().handle({ imageId: row!.id }, { signal: new AbortController().signal } as never),
      ]);
      const [after] = await t.ctx.database.db.select().from(jobs).where(eq(jobs.jobId, c.job.id));
      if (cancel.statusCode === 200) {
        expect(after).toMatchObject({ status: 'failed', errorCode: 'JOB_CANCELLED', resultKey: null });
        expect(await refunds(c.user.id)).toHaveLength(1);
      } else {
        expect(cancel.statusCode).toBe(409);
        expect(after!.status).toBe('completed');
        expect(await refunds(c.user.id)).toEqual([]);
      }
    }
  });

  it('10 parallel uploads under one key store one file and answer it (or "in progress"); another file under the key is 422; a cancel retried under its key answers the job again', async () => {
    const u = await signUpAndLogin(t.app);
    const secret = (await t.app.inject({ method: 'POST', url: '/api/account/api-keys', headers: { cookie: u.cookie }, payload: { name: 'program' } })).json().secret as string;
    const auth = { authorization: `Bearer ${secret}` };
    const photo = await makeJpeg(320, 240);
    const send = (bytes: Buffer, key: string) => {
      const form = multipartBody('file', 'portrait.jpg', 'image/jpeg', bytes);
      return t.app.inject({ method: 'POST', url: '/v1/uploads', headers: { ...auth, ...form.headers, 'idempotency-key': key }, payload: form.payload });
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => send(photo, 'upload-0001')));
    const ok = answers.filter((a) => a.statusCode === 201);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    for (const a of answers.filter((x) => x.statusCode !== 201)) expect(a.json().code).toBe('REQUEST_IN_PROGRESS');
    expect(new Set(ok.map((a) => a.json().imageUrl.split('?')[0])).size).toBe(1);
    const stored = await t.ctx.database.db.select().from(uploads).where(eq(uploads.userId, u.user.id));
    expect(stored).toHaveLength(1);
    // A retry once it finished: the same answer, nothing stored again.
    const again = await send(photo, 'upload-0001');
    expect(again.statusCode).toBe(201);
    expect(again.json().imageUrl.split('?')[0]).toBe(ok[0]!.json().imageUrl.split('?')[0]);
    const other = await send(await makeJpeg(321, 240), 'upload-0001');
    expect(other.statusCode).toBe(422);
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
    // A refused upload frees its key: the corrected retry under the same key is stored.
    const bad = multipartBody('file', 'x.jpg', 'image/jpeg', Buffer.from('not an image'));
    expect((await t.app.inject({ method: 'POST', url: '/v1/uploads', headers: { ...auth, ...bad.headers, 'idempotency-key': 'upload-0002' }, payload: bad.payload })).statusCode).toBe(400);
    expect((await send(await makeJpeg(322, 240), 'upload-0002')).statusCode).toBe(201);

    const image = ok[0]!.json().imageUrl as string;
    const job = (await t.app.inject({ method: 'POST', url: '/v1/jobs', headers: auth, payload: { tool: 'upscale', input: { image, scale_factor: 1 } } })).json() as { id: string };
    const cancel = () => t.app.inject({ method: 'POST', url: `/v1/jobs/${job.id}/cancel`, headers: { ...auth, 'idempotency-key': 'cancel-0001' } });
    expect((await cancel()).statusCode).toBe(200);
    const retried = await cancel();
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ id: job.id, status: 'failed', error: 'JOB_CANCELLED' });
    // Without a key a second cancel says what happened.
    expect((await t.app.inject({ method: 'POST', url: `/v1/jobs/${job.id}/cancel`, headers: auth })).statusCode).toBe(409);
  });
});
