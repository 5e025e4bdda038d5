import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import { AI_COSTS } from '@dewy/contracts';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { startFakeOpenAi, type FakeOpenAi } from '../../../test/fakes/fake-openai.server';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { creditLedger, meteredCalls } from '../../db/schema';
import { getBalance, ledgerSums, spend } from '../credits';
import { refundStaleMeteredCalls } from '../tool-jobs';

/**
 * Issue 23 point 2 (decision 036): the AI text calls are inline metered calls of the kernel. Their
 * Idempotency-Key (accepted like the queued tools'), and the money invariants re-run on them: the ledger sums
 * to the balance, a call is refunded exactly once whatever races its failure (parallel failures, stale
 * sweeps), 20 parallel calls with credits for 3 charge exactly 3. The stored reasons are codes. Both databases.
 */

/** A multipart chat body. */
function chatForm(fields: Record<string, string>) {
  const boundary = `----dewy${Math.random().toString(16).slice(2)}`;
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { payload: Buffer.from(`${parts.join('')}--${boundary}--\r\n`), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function sseEvents(body: string): { event: string; data: Record<string, unknown> }[] {
  return body
    .split('\n\n')
    .filter((b) => b.includes('data:'))
    .map((b) => ({ event: /event: (\w+)/.exec(b)?.[1] ?? 'message', data: JSON.parse(/data: (.*)/.exec(b)![1]!) as Record<string, unknown> }));
}

describe.each(TEST_DATABASES)('inline metered calls on $name', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await createTestApp(kind, { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'text-model', LLM_API_KEY: 'sk-x', LLM_RETRY_BASE_MS: '5', LLM_TIMEOUT_MS: '3600000', LLM_MAX_RETRIES: '0', AI_REQUESTS_PER_MINUTE: '10000' });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });
  beforeEach(() => fake.reset());

  const db = () => t.ctx.database.db;
  const balance = async (userId: number) => (await getBalance(db(), userId)).total;
  const booksBalance = async (userId: number) => expect(await ledgerSums(db(), userId)).toEqual(await getBalance(db(), userId));
  const rewrite = (cookie: string, body: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie, ...headers }, payload: body });
  const chat = (cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const f = chatForm(fields);
    return t.app.inject({ method: 'POST', url: '/api/ai/chat', headers: { cookie, ...f.headers, ...headers }, payload: f.payload });
  };
  const upload = async (cookie: string) => {
    const m = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(96, 64));
    const r = await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...m.headers }, payload: m.payload });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().imageUrl as string;
  };
  const callsOf = (userId: number) => db().select().from(meteredCalls).where(eq(meteredCalls.userId, userId));

  it('rewrite with an Idempotency-Key: a replay answers the first rewrite and charges once; another body is 422', async () => {
    const u = await signUpAndLogin(t.app);
    const key = { 'idempotency-key': 'rewrite-click-0001' };
    const body = { userPrompt: 'brighter', currentPrompt: 'a cat' };
    const first = await rewrite(u.cookie, body, key);
    expect(first.statusCode, first.body).toBe(200);
    const again = await rewrite(u.cookie, { currentPrompt: 'a cat', userPrompt: 'brighter' }, key); // key order does not matter
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toEqual(first.json());
    expect(first.json()).toMatchObject({ charged: AI_COSTS.rewrite, credits: 300 - AI_COSTS.rewrite });
    expect(fake.requests).toHaveLength(1);
    expect(await balance(u.user.id)).toBe(300 - AI_COSTS.rewrite);

    for (const lang of ['en', 'ko'] as const) {
      const other = await rewrite(u.cookie, { ...body, userPrompt: 'darker' }, { ...key, 'accept-language': lang });
      expect(other.statusCode).toBe(422);
      expect(other.json()).toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    }
    // The key is the caller's: another user with the same key gets a rewrite of their own.
    const v = await signUpAndLogin(t.app);
    const theirs = await rewrite(v.cookie, body, key);
    expect(theirs.json().rewriteId).not.toBe(first.json().rewriteId);
    expect(fake.requests).toHaveLength(2);
    // A key too short for the header schema is refused before anything runs.
    expect((await rewrite(u.cookie, body, { 'idempotency-key': 'short' })).statusCode).toBe(400);
    expect(await balance(u.user.id)).toBe(300 - AI_COSTS.rewrite);
    await booksBalance(u.user.id);
  });

  it('the same key sent 10 times at once: one model call, one charge; every answer is that call or 409 REQUEST_IN_PROGRESS', async () => {
    const u = await signUpAndLogin(t.app);
    const results = await Promise.all(Array.from({ length: 10 }, () => rewrite(u.cookie, { userPrompt: 'brighter', currentPrompt: 'a dog' }, { 'idempotency-key': 'double-click-77' })));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThan(0);
    expect(new Set(ok.map((r) => r.json().rewriteId)).size).toBe(1);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().code).toBe('REQUEST_IN_PROGRESS');
    }
    expect(fake.requests).toHaveLength(1);
    expect(await callsOf(u.user.id)).toHaveLength(1);
    expect(await balance(u.user.id)).toBe(300 - AI_COSTS.rewrite);
    await booksBalance(u.user.id);
  });

  it('a failed call replayed with its key answers the same error, calls no model and charges nothing', async () => {
    const u = await signUpAndLogin(t.app);
    fake.script({ kind: 'status', status: 503 });
    const key = { 'idempotency-key': 'rewrite-fails-01', 'accept-language': 'en' };
    const failed = await rewrite(u.cookie, { userPrompt: 'x', currentPrompt: '' }, key);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().code).toBe('AI_UNAVAILABLE');
    const replay = await rewrite(u.cookie, { userPrompt: 'x', currentPrompt: '' }, key);
    expect(replay.statusCode).toBe(502);
    expect(replay.json()).toEqual(failed.json());
    expect(fake.requests).toHaveLength(1);
    expect(await balance(u.user.id)).toBe(300);
    const [call] = await callsOf(u.user.id);
    expect(call).toMatchObject({ status: 'refunded', errorCode: 'AI_UNAVAILABLE' });
    expect(await db().select().from(creditLedger).where(eq(creditLedger.idempotencyKey, `refund:${call!.spendKey}`))).toHaveLength(1);
    await booksBalance(u.user.id);
  });

  it('auto prompt and prompt extraction accept the key too', async () => {
    const u = await signUpAndLogin(t.app);
    const images = [await upload(u.cookie)];
    const send = (notes: string) => t.app.inject({ method: 'POST', url: '/api/seedream/auto-prompt', headers: { cookie: u.cookie, 'idempotency-key': 'auto-prompt-001' }, payload: { images, userNotes: notes } });
    const a = await send('keep the face');
    expect(a.statusCode, a.body).toBe(200);
    expect((await send('keep the face')).json()).toEqual(a.json());
    expect((await send('change the face')).statusCode).toBe(422);
    expect(await balance(u.user.id)).toBe(300 - AI_COSTS.autoPrompt);

    const jpeg = await makeJpeg(64, 64);
    const extract = (bytes: Buffer) =>
      t.app.inject({ method: 'POST', url: '/api/ai/extract-prompt-from-image', headers: { cookie: u.cookie, 'content-type': 'application/octet-stream', 'idempotency-key': 'extract-0001' }, payload: bytes });
    const x = await extract(jpeg);
    expect(x.statusCode, x.body).toBe(200);
    expect((await extract(jpeg)).json()).toEqual(x.json());
    expect((await extract(await makeJpeg(64, 65))).statusCode).toBe(422); // other bytes under the same key
    expect(fake.requests).toHaveLength(2);
    expect(await balance(u.user.id)).toBe(300 - AI_COSTS.autoPrompt); // extraction is free
    await booksBalance(u.user.id);
  });

  it('chat with a key: the JSON replay answers the stored message; a streamed replay sends it again as start, one delta, done', async () => {
    const u = await signUpAndLogin(t.app);
    const key = { 'idempotency-key': 'chat-send-00001' };
    fake.script({ kind: 'text', text: 'Hello there, friend' });
    const first = await chat(u.cookie, { text: 'hi' }, { ...key, accept: 'text/event-stream' });
    const ev = sseEvents(first.body);
    const done = ev.at(-1)!;
    expect(done).toMatchObject({ event: 'done', data: { success: true, message: { role: 'assistant', text: 'Hello there, friend' }, charged: 3, credits: 297 } });

    const json = await chat(u.cookie, { text: 'hi' }, key);
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json()).toEqual(done.data);
    const streamed = sseEvents((await chat(u.cookie, { text: 'hi' }, { ...key, accept: 'text/event-stream' })).body);
    expect(streamed.map((e) => e.event)).toEqual(['start', 'delta', 'done']);
    expect(streamed[0]!.data).toMatchObject({ threadId: done.data.threadId, charged: 3, credits: 297 });
    expect(streamed[1]!.data).toEqual({ text: 'Hello there, friend' });
    expect(streamed[2]!.data).toEqual(done.data);
    expect((await chat(u.cookie, { text: 'hello' }, key)).statusCode).toBe(422);
    expect(fake.requests).toHaveLength(1);
    expect(await balance(u.user.id)).toBe(297);
    const threads = (await t.app.inject({ url: '/api/ai/threads', headers: { cookie: u.cookie } })).json().threads;
    expect(threads).toHaveLength(1); // a replay stores no second message
    await booksBalance(u.user.id);
  });

  for (const op of ['rewrite', 'auto_prompt'] as const) {
    it(`${op}: 20 parallel calls with credits for exactly 3 charge exactly 3; the books balance`, async () => {
      const u = await signUpAndLogin(t.app);
      const images = op === 'auto_prompt' ? [await upload(u.cookie)] : [];
      const cost = op === 'rewrite' ? AI_COSTS.rewrite : AI_COSTS.autoPrompt;
      await spend(db(), { userId: u.user.id, amount: 300 - 3 * cost, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `drain-${op}-${u.user.id}` });
      const call = (i: number) =>
        op === 'rewrite'
          ? rewrite(u.cookie, { userPrompt: `variant ${i}`, currentPrompt: 'a cat' })
          : t.app.inject({ method: 'POST', url: '/api/seedream/auto-prompt', headers: { cookie: u.cookie }, payload: { images, userNotes: `variant ${i}` } });
      const results = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i)));
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3);
      for (const r of results.filter((x) => x.statusCode !== 200)) expect(r.json().code, r.body).toBe('INSUFFICIENT_CREDITS');
      expect(await balance(u.user.id)).toBe(0);
      expect(await callsOf(u.user.id)).toHaveLength(3); // a refused charge leaves no record
      expect(fake.requests).toHaveLength(3);
      await booksBalance(u.user.id);
    });
  }

  it('parallel failures racing stale sweeps: every call ends charged or refunded exactly once', async () => {
    const u = await signUpAndLogin(t.app);
    const start = await balance(u.user.id);
    // Half of the calls fail at the vendor; a sweep with age 0 treats every pending call as a dead process's.
    fake.script(...Array.from({ length: 12 }, (_, i) => (i % 2 ? { kind: 'status' as const, status: 500 } : { kind: 'text' as const, text: `prompt ${i}` })));
    let finished = false;
    const sweeper = (async () => {
      const refunded: string[] = [];
      while (!finished) {
        refunded.push(...(await refundStaleMeteredCalls(t.ctx, 0)));
        await new Promise((r) => setImmediate(r)); // let the requests' I/O run (PGlite answers within microtasks)
      }
      return refunded;
    })();
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => rewrite(u.cookie, { userPrompt: `try ${i}`, currentPrompt: 'a cat' })));
    finished = true;
    const swept = await sweeper;
    expect(results.every((r) => r.statusCode === 200 || r.statusCode === 502)).toBe(true);
    const calls = await callsOf(u.user.id);
    expect(calls).toHaveLength(12);
    const refunds = await db()
      .select()
      .from(creditLedger)
      .where(and(eq(creditLedger.kind, 'refund'), inArray(creditLedger.idempotencyKey, calls.map((c) => `refund:${c.spendKey}`))));
    for (const c of calls) {
      expect(['completed', 'refunded']).toContain(c.status);
      expect(refunds.filter((r) => r.idempotencyKey === `refund:${c.spendKey}`).length, c.id).toBe(c.status === 'refunded' ? 1 : 0);
    }
    expect(new Set(swept).size).toBe(swept.length); // no call swept twice
    const completed = calls.filter((c) => c.status === 'completed').length;
    expect(await balance(u.user.id)).toBe(start - completed * AI_COSTS.rewrite);
    await booksBalance(u.user.id);
  });

  it('the ledger and the credit history record inline calls as codes: ai_call with the operation, ai_call_refund with the error', async () => {
    const u = await signUpAndLogin(t.app);
    expect((await rewrite(u.cookie, { userPrompt: 'brighter', currentPrompt: 'a cat' })).statusCode).toBe(200);
    fake.script({ kind: 'content_filter' });
    expect((await chat(u.cookie, { text: 'something' })).statusCode).toBe(422);
    const items = (await t.app.inject({ url: '/api/credits/history', headers: { cookie: u.cookie } })).json().items as { kind: string; reason: string; reason_code: string; reason_params: unknown; delta: number }[];
    expect(items.map(({ kind, reason, reason_code, reason_params, delta }) => ({ kind, reason, reason_code, reason_params, delta }))).toEqual([
      { kind: 'refund', reason: 'ai failed: AI_REFUSED', reason_code: 'ai_call_refund', reason_params: { operation: 'chat', error: 'AI_REFUSED' }, delta: 3 },
      { kind: 'spend', reason: 'ai chat', reason_code: 'ai_call', reason_params: { operation: 'chat' }, delta: -3 },
      { kind: 'spend', reason: 'ai rewrite', reason_code: 'ai_call', reason_params: { operation: 'rewrite' }, delta: -3 },
      { kind: 'grant', reason: 'welcome', reason_code: 'welcome', reason_params: {}, delta: 300 },
    ]);
  });
});

describe.each(TEST_DATABASES)('a streamed chat send with a key while it still runs on $name', (kind) => {
  let fake: FakeOpenAi;
  let slow: TestApp;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    // A vendor timeout no test outlives: only the stop can end the hanging call.
    slow = await createTestApp(kind, { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'text-model', LLM_API_KEY: 'sk-x', LLM_RETRY_BASE_MS: '5', LLM_TIMEOUT_MS: '3600000', LLM_MAX_RETRIES: '0' });
  });
  afterAll(async () => {
    await slow?.close();
    await fake?.close();
  });

  it('answers 409 REQUEST_IN_PROGRESS while the first send runs; after its stop before any text, the refunded error', async () => {
    const u = await signUpAndLogin(slow.app);
    const base = await slow.app.listen({ port: 0, host: '127.0.0.1' });
    const key = 'chat-in-flight-1';
    const f = chatForm({ text: 'a long story' });
    fake.script({ kind: 'hang' });
    const ctl = new AbortController();
    const res = await fetch(`${base}/api/ai/chat`, { method: 'POST', headers: { cookie: u.cookie, accept: 'text/event-stream', 'idempotency-key': key, ...f.headers }, body: f.payload, signal: ctl.signal });
    const reader = res.body!.getReader();
    let seen = '';
    while (!seen.includes('event: start')) seen += new TextDecoder().decode((await reader.read()).value);
    // Charged and pending: the same key now is refused without a second charge or model call.
    const again = chatForm({ text: 'a long story' });
    const busy = await slow.app.inject({ method: 'POST', url: '/api/ai/chat', headers: { cookie: u.cookie, 'idempotency-key': key, 'accept-language': 'en', ...again.headers }, payload: again.payload });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({ code: 'REQUEST_IN_PROGRESS', error: 'The same request is still being processed. Please try again in a moment.' });
    expect(await balance(u.user.id)).toBe(297);

    ctl.abort(); // the stop button before any text: refunded
    const status = async () => (await slow.ctx.database.db.select().from(meteredCalls).where(eq(meteredCalls.userId, u.user.id)))[0]?.status;
    await expect.poll(status, { timeout: 60_000, interval: 50 }).toBe('refunded');
    const after = chatForm({ text: 'a long story' });
    const replay = await slow.app.inject({ method: 'POST', url: '/api/ai/chat', headers: { cookie: u.cookie, 'idempotency-key': key, accept: 'text/event-stream', ...after.headers }, payload: after.payload });
    expect(replay.statusCode).toBe(502);
    expect(replay.json().code).toBe('AI_UNAVAILABLE');
    expect(fake.requests).toHaveLength(1);
    expect(await balance(u.user.id)).toBe(300);
    expect(await ledgerSums(slow.ctx.database.db, u.user.id)).toEqual(await getBalance(slow.ctx.database.db, u.user.id));
  }, 120_000);

  async function balance(userId: number) {
    return (await getBalance(slow.ctx.database.db, userId)).total;
  }
});
