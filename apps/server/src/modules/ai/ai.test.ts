import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { TEST_DATABASES } from '../../../test/helpers/databases';
import { imagePartsOf, startFakeOpenAi, type FakeOpenAi } from '../../../test/fakes/fake-openai.server';
import { makeJpeg, multipartBody } from '../../../test/helpers/images';
import { createTestApp, signUpAndLogin, type TestApp } from '../../../test/helpers/test-app';
import { meteredCalls } from '../../db/schema';
import { clearSettingsCache } from '../settings';
import { getBalance, ledgerSums, spend } from '../credits';
import { refundStaleMeteredCalls, runMeteredCall } from '../tool-jobs';
import { rewriteOperation } from './ai-operations';

/** A multipart body with text fields and at most one `image` file. */
function chatForm(fields: Record<string, string>, image?: { type: string; bytes: Buffer }) {
  const boundary = `----dewy${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (image) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.jpg"\r\nContent-Type: ${image.type}\r\n\r\n`), image.bytes, Buffer.from('\r\n'));
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Parses an SSE body into its events. */
function sseEvents(body: string): { event: string; data: Record<string, unknown> }[] {
  return body
    .split('\n\n')
    .filter((b) => b.includes('data:'))
    .map((b) => ({ event: /event: (\w+)/.exec(b)?.[1] ?? 'message', data: JSON.parse(/data: (.*)/.exec(b)![1]!) as Record<string, unknown> }));
}

describe.each(TEST_DATABASES)('AI text tools on $name', (kind) => {
  let fake: FakeOpenAi;
  let t: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    fake = await startFakeOpenAi();
    t = await createTestApp(kind, { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'text-model', LLM_VISION_MODEL: 'vision-model', LLM_API_KEY: 'sk-x', LLM_RETRY_BASE_MS: '5', LLM_TIMEOUT_MS: '3600000', LLM_MAX_RETRIES: '1' });
    plain = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
    await plain?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.reset();
    t.moderator.flagAll = false;
  });

  const send = (cookie: string, fields: Record<string, string>, image?: { type: string; bytes: Buffer }, headers: Record<string, string> = {}) => {
    const f = chatForm(fields, image);
    return t.app.inject({ method: 'POST', url: '/api/ai/chat', headers: { cookie, ...f.headers, ...headers }, payload: f.payload });
  };
  const balance = async (app: TestApp, userId: number) => (await getBalance(app.ctx.database.db, userId)).total;
  const booksBalance = async (app: TestApp, userId: number) => {
    const [b, l] = [await getBalance(app.ctx.database.db, userId), await ledgerSums(app.ctx.database.db, userId)];
    expect(l).toEqual(b);
  };
  const upload = async (cookie: string) => {
    const m = multipartBody('image', 'a.jpg', 'image/jpeg', await makeJpeg(96, 64));
    const r = await t.app.inject({ method: 'POST', url: '/api/image/upload-s3', headers: { cookie, ...m.headers }, payload: m.payload });
    expect(r.statusCode, r.body).toBe(200);
    return r.json().imageUrl as string;
  };

  it('without a model every route answers NOT_CONFIGURED in both languages and charges nothing', async () => {
    const u = await signUpAndLogin(plain.app);
    const before = await balance(plain, u.user.id);
    const f = chatForm({ text: 'hi' });
    const calls = [
      { method: 'POST' as const, url: '/api/ai/chat', headers: f.headers, payload: f.payload },
      { method: 'POST' as const, url: '/api/ai/rewrite', payload: { userPrompt: 'brighter', currentPrompt: 'a cat' } },
      { method: 'POST' as const, url: '/api/ai/extract-prompt-from-image', headers: { 'content-type': 'application/octet-stream' }, payload: await makeJpeg(64, 64) },
      { method: 'POST' as const, url: '/api/seedream/auto-prompt', payload: { images: ['http://x/u/1/a.jpg'], userNotes: '' } },
    ];
    for (const c of calls) {
      for (const [lang, text] of [['en', 'This feature is not configured yet.'], ['ko', '이 기능은 아직 설정되지 않았습니다.']] as const) {
        const r = await plain.app.inject({ ...c, headers: { ...(c.headers ?? {}), cookie: u.cookie, 'accept-language': lang } });
        expect(r.statusCode, `${c.url} ${r.body}`).toBe(503);
        expect(r.json()).toMatchObject({ code: 'NOT_CONFIGURED', error: text });
      }
    }
    expect((await plain.app.inject({ url: '/api/ai/chat/charge-enabled', headers: { cookie: u.cookie } })).json()).toMatchObject({ enabled: true, cost: 3, configured: false });
    expect(await balance(plain, u.user.id)).toBe(before);
    expect((await plain.app.inject({ url: '/api/ai/threads', headers: { cookie: u.cookie } })).json().threads).toEqual([]);
  });

  it('every route needs a login', async () => {
    for (const [method, url] of [['GET', '/api/ai/threads'], ['GET', '/api/ai/chat/charge-enabled'], ['POST', '/api/ai/chat'], ['POST', '/api/ai/rewrite'], ['POST', '/api/credit/use'], ['POST', '/api/seedream/auto-prompt']] as const) {
      expect((await t.app.inject({ method, url, payload: method === 'POST' ? {} : undefined })).statusCode, url).toBe(401);
    }
  });

  it('a conversation with an image across two threads: images reach the vision model, history stays in its thread', async () => {
    const u = await signUpAndLogin(t.app);
    const img = await makeJpeg(320, 240);
    const first = await send(u.cookie, { text: 'What is in this photo?' }, { type: 'image/jpeg', bytes: img });
    expect(first.statusCode, first.body).toBe(200);
    const a = first.json();
    expect(a).toMatchObject({ success: true, charged: 3, message: { role: 'assistant', text: 'Echo: What is in this photo? [1 image(s)]', image_url: null } });
    expect(a.userMessage.image_url).toMatch(/key=u%2F\d+%2Foriginals%2F.+&sig=/);
    expect(fake.requests[0]!.body.model).toBe('vision-model');
    expect(imagePartsOf(fake.requests[0]!)[0]).toMatch(/^data:image\/jpeg;base64,/);

    const second = await send(u.cookie, { text: 'And the colours?', threadId: a.threadId });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().threadId).toBe(a.threadId);
    const msgs = fake.requests[1]!.body.messages!;
    expect(msgs.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(imagePartsOf(fake.requests[1]!)).toHaveLength(1); // the earlier image travels with the history

    const other = await send(u.cookie, { text: 'A new topic' });
    const b = other.json();
    expect(b.threadId).not.toBe(a.threadId);
    expect(fake.requests[2]!.body.messages!.map((m) => m.role)).toEqual(['system', 'user']);
    expect(fake.requests[2]!.body.model).toBe('text-model');

    const threads = (await t.app.inject({ url: '/api/ai/threads?limit=50', headers: { cookie: u.cookie } })).json();
    expect(threads.threads.map((x: { id: string }) => x.id)).toEqual([b.threadId, a.threadId]);
    expect(threads.threads[1].title).toBe('What is in this photo?');
    const list = (await t.app.inject({ url: `/api/ai/threads/${a.threadId}/messages?limit=100`, headers: { cookie: u.cookie } })).json();
    expect(list.messages.map((m: { role: string; text: string }) => `${m.role}:${m.text}`)).toEqual([
      'user:What is in this photo?',
      'assistant:Echo: What is in this photo? [1 image(s)]',
      'user:And the colours?',
      'assistant:Echo: And the colours?',
    ]);
    expect(list.messages[0].image_url).toMatch(/key=u%2F\d+%2Foriginals%2F/);
    expect((await t.app.inject({ url: list.messages[0].image_url })).statusCode).toBe(200);
    expect(list.hasMore).toBe(false);
    expect(await balance(t, u.user.id)).toBe(300 - 9);
    await booksBalance(t, u.user.id);
  });

  it('an image-only send is accepted and starts a thread without a title (the page names it)', async () => {
    const u = await signUpAndLogin(t.app);
    const r = await send(u.cookie, {}, { type: 'image/png', bytes: await makeJpeg(80, 80) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().userMessage).toMatchObject({ text: '', image_url: expect.stringContaining('key=') });
    expect((await t.app.inject({ url: '/api/ai/threads', headers: { cookie: u.cookie } })).json().threads[0].title).toBe('');
    expect(imagePartsOf(fake.requests[0]!)).toHaveLength(1);
  });

  it('pages threads by cursor and messages by `before`', async () => {
    const u = await signUpAndLogin(t.app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await send(u.cookie, { text: `topic ${i}` })).json().threadId);
    const p1 = (await t.app.inject({ url: '/api/ai/threads?limit=2', headers: { cookie: u.cookie } })).json();
    expect(p1.threads.map((x: { id: string }) => x.id)).toEqual([ids[2], ids[1]]);
    const p2 = (await t.app.inject({ url: `/api/ai/threads?limit=2&cursor=${p1.nextCursor}`, headers: { cookie: u.cookie } })).json();
    expect(p2.threads.map((x: { id: string }) => x.id)).toEqual([ids[0]]);
    expect(p2.nextCursor).toBeNull();
    const m1 = (await t.app.inject({ url: `/api/ai/threads/${ids[0]}/messages?limit=1`, headers: { cookie: u.cookie } })).json();
    expect(m1).toMatchObject({ hasMore: true, messages: [{ role: 'assistant' }] });
    const m2 = (await t.app.inject({ url: `/api/ai/threads/${ids[0]}/messages?limit=1&before=${m1.messages[0].id}`, headers: { cookie: u.cookie } })).json();
    expect(m2).toMatchObject({ hasMore: false, messages: [{ role: 'user', text: 'topic 0' }] });
    expect((await t.app.inject({ url: '/api/ai/threads?limit=51', headers: { cookie: u.cookie } })).statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/ai/threads?cursor=garbage', headers: { cookie: u.cookie } })).statusCode).toBe(400);
  });

  it('threads are visible only to their owner: another user gets 404 everywhere and is charged nothing', async () => {
    const owner = await signUpAndLogin(t.app);
    const intruder = await signUpAndLogin(t.app);
    const threadId = (await send(owner.cookie, { text: 'private' })).json().threadId as string;
    fake.reset();
    const before = await balance(t, intruder.user.id);
    expect((await t.app.inject({ url: `/api/ai/threads/${threadId}/messages`, headers: { cookie: intruder.cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/ai/threads/${threadId}`, headers: { cookie: intruder.cookie } })).statusCode).toBe(404);
    const r = await send(intruder.cookie, { text: 'hijack', threadId });
    expect(r.statusCode).toBe(404);
    expect((await t.app.inject({ url: '/api/ai/threads', headers: { cookie: intruder.cookie } })).json().threads).toEqual([]);
    expect(fake.requests).toHaveLength(0);
    expect(await balance(t, intruder.user.id)).toBe(before);
    const own = (await t.app.inject({ url: `/api/ai/threads/${threadId}/messages`, headers: { cookie: owner.cookie } })).json();
    expect(own.messages).toHaveLength(2);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/ai/threads/${threadId}`, headers: { cookie: owner.cookie } });
    expect(del.json()).toEqual({ success: true });
    expect((await t.app.inject({ url: `/api/ai/threads/${threadId}/messages`, headers: { cookie: owner.cookie } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/ai/threads/${threadId}`, headers: { cookie: owner.cookie, 'accept-language': 'en' } })).json()).toMatchObject({ code: 'NOT_FOUND' });
  });

  it('chat: a model failure, a refusal and a timeout refund the charge; the JSON answer says why', async () => {
    // The timeout on its own app with a short vendor timeout; `t` waits for the vendor as long as any
    // test runs, so no other answer can time out on a loaded machine.
    const quick = await createTestApp(kind, { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'text-model', LLM_API_KEY: 'sk-x', LLM_RETRY_BASE_MS: '5', LLM_TIMEOUT_MS: '1500', LLM_MAX_RETRIES: '1' });
    try {
      for (const [b, status, code, app] of [
        [{ kind: 'status', status: 500 }, 502, 'AI_UNAVAILABLE', t],
        [{ kind: 'content_filter' }, 422, 'AI_REFUSED', t],
        [{ kind: 'hang' }, 504, 'AI_TIMEOUT', quick],
      ] as const) {
        const u = await signUpAndLogin(app.app);
        fake.reset();
        fake.script(b, b); // the retry meets the same failure
        const f = chatForm({ text: 'hello' });
        const r = await app.app.inject({ method: 'POST', url: '/api/ai/chat', headers: { cookie: u.cookie, ...f.headers, 'accept-language': 'en' }, payload: f.payload });
        expect(r.statusCode, r.body).toBe(status);
        expect(r.json().code).toBe(code);
        expect(r.json().error).toMatch(/refunded/);
        expect(await balance(app, u.user.id)).toBe(300);
        const rows = await app.ctx.database.db.select().from(meteredCalls).where(eq(meteredCalls.userId, u.user.id));
        expect(rows.map((x) => x.status)).toEqual(['refunded']);
        await booksBalance(app, u.user.id);
      }
    } finally {
      await quick.close();
    }
  }, 180_000);

  it('chat streams with Accept: text/event-stream: start, deltas, done; a broken stream ends with an error event and a refund', async () => {
    const u = await signUpAndLogin(t.app);
    fake.script({ kind: 'text', text: 'Streaming is fun' });
    const r = await send(u.cookie, { text: 'stream please' }, undefined, { accept: 'text/event-stream' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/text\/event-stream/);
    const ev = sseEvents(r.body);
    expect(ev[0]).toMatchObject({ event: 'start', data: { charged: 3, credits: 297, userMessage: { role: 'user', text: 'stream please' } } });
    expect(ev.filter((e) => e.event === 'delta').map((e) => e.data.text).join('')).toBe('Streaming is fun');
    expect(ev.at(-1)).toMatchObject({ event: 'done', data: { success: true, message: { role: 'assistant', text: 'Streaming is fun' }, credits: 297 } });

    fake.script({ kind: 'broken' });
    const bad = await send(u.cookie, { text: 'again', threadId: String(ev[0]!.data.threadId) }, undefined, { accept: 'text/event-stream', 'accept-language': 'ko' });
    const badEv = sseEvents(bad.body);
    expect(badEv.at(-1)).toMatchObject({ event: 'error', data: { success: false, code: 'AI_UNAVAILABLE', credits: 297 } });
    expect(String(badEv.at(-1)!.data.error)).toMatch(/환불/);
    expect(await balance(t, u.user.id)).toBe(297);
    // Validation errors come before the stream: a plain JSON error with its status.
    const empty = await send(u.cookie, { text: '   ' }, undefined, { accept: 'text/event-stream', 'accept-language': 'en' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'AI_EMPTY_MESSAGE', error: 'Please enter a message or image' });
  });

  it('stop (the page closes the stream): text written so far is kept and charged; a stop before any text is refunded at once', async () => {
    // Its own app with a vendor timeout no test outlives (1 h): only the stop can end these requests, so
    // reaching the final status at all proves the stop did it; the polls below are deadlines, not margins.
    const slow = await createTestApp(kind, { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'text-model', LLM_API_KEY: 'sk-x', LLM_RETRY_BASE_MS: '5', LLM_TIMEOUT_MS: '3600000', LLM_MAX_RETRIES: '1' });
    try {
      const u = await signUpAndLogin(slow.app);
      const base = await slow.app.listen({ port: 0, host: '127.0.0.1' });
      /** Sends over real HTTP, reads events until `until` is seen, then aborts like the stop button. */
      const sendAndStop = async (text: string, until: 'start' | 'delta') => {
        const f = chatForm({ text });
        const ctl = new AbortController();
        const res = await fetch(`${base}/api/ai/chat`, { method: 'POST', headers: { cookie: u.cookie, accept: 'text/event-stream', ...f.headers }, body: f.payload, signal: ctl.signal });
        const reader = res.body!.getReader();
        let seen = '';
        while (!seen.includes(`event: ${until}`)) seen += new TextDecoder().decode((await reader.read()).value);
        ctl.abort();
        return /"threadId":"([0-9a-f-]{36})"/.exec(seen)![1]!;
      };
      const statusOf = async (threadId: string) => (await slow.ctx.database.db.select().from(meteredCalls).where(eq(meteredCalls.threadId, threadId)))[0]?.status;

      fake.script({ kind: 'stall' }); // one chunk ("Wait"), then silence
      const threadId = await sendAndStop('tell me a long story', 'delta');
      await expect.poll(() => statusOf(threadId), { timeout: 60_000, interval: 50 }).toBe('completed');
      const msgs = (await slow.app.inject({ url: `/api/ai/threads/${threadId}/messages`, headers: { cookie: u.cookie } })).json().messages;
      expect(msgs.map((m: { role: string; text: string }) => `${m.role}:${m.text}`)).toEqual(['user:tell me a long story', 'assistant:Wait']);
      expect(await balance(slow, u.user.id)).toBe(297);

      fake.script({ kind: 'hang' }); // nothing ever comes; only the stop can end this request in time
      const second = await sendAndStop('never mind', 'start');
      await expect.poll(() => statusOf(second), { timeout: 60_000, interval: 50 }).toBe('refunded');
      expect(await balance(slow, u.user.id)).toBe(297);
      await booksBalance(slow, u.user.id);
    } finally {
      await slow.close();
    }
  }, 180_000);

  it('limits the vendor calls one user starts per minute, all AI routes together, counted exactly under a parallel burst', async () => {
    const limited = await createTestApp(kind, { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'text-model', LLM_API_KEY: 'sk-x', LLM_RETRY_BASE_MS: '5', AI_REQUESTS_PER_MINUTE: '5' });
    try {
      const u = await signUpAndLogin(limited.app);
      const other = await signUpAndLogin(limited.app);
      const rewrite = (cookie: string, lang = 'en') =>
        limited.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie, 'accept-language': lang }, payload: { userPrompt: 'brighter', currentPrompt: 'a cat' } });
      const before = fake.requests.length;
      const burst = await Promise.all(Array.from({ length: 12 }, () => rewrite(u.cookie)));
      expect(burst.filter((r) => r.statusCode === 200)).toHaveLength(5);
      const refused = burst.filter((r) => r.statusCode !== 200);
      expect(refused).toHaveLength(7);
      for (const r of refused) {
        expect(r.statusCode).toBe(429);
        expect(r.json()).toMatchObject({ success: false, code: 'RATE_LIMITED' });
        expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(fake.requests.length - before).toBe(5); // a refused call never reaches the vendor
      // the limit is shared by the AI routes, and the message is in the caller's language
      const form = chatForm({ text: 'hi' });
      const chat = await limited.app.inject({ method: 'POST', url: '/api/ai/chat', headers: { cookie: u.cookie, 'accept-language': 'ko', ...form.headers }, payload: form.payload });
      expect(chat.statusCode).toBe(429);
      expect(chat.json().error).toMatch(/[가-힣]/);
      expect(await balance(limited, u.user.id)).toBe(300 - 5 * 3); // the 5 rewrites that ran (3 each); nothing for a refused call
      // another user is not affected
      expect((await rewrite(other.cookie)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });

  it('refuses bad input with the catalogue message, before any vendor call, and changes nothing', async () => {
    const u = await signUpAndLogin(t.app);
    const cases: [() => Promise<{ statusCode: number; json(): { code: string; error: string } }>, number, string, string][] = [
      [() => send(u.cookie, { text: '' }, undefined, { 'accept-language': 'ko' }), 400, 'AI_EMPTY_MESSAGE', '메시지나 이미지를 입력해주세요'],
      [() => send(u.cookie, { text: 'a\u0000b' }, undefined, { 'accept-language': 'en' }), 400, 'VALIDATION_FAILED', 'Please check the values you entered.'],
      [() => send(u.cookie, { text: 'x'.repeat(4001) }, undefined, { 'accept-language': 'en' }), 400, 'VALIDATION_FAILED', 'Please check the values you entered.'],
      [() => send(u.cookie, { text: 'hi', threadId: 'not-a-uuid' }, undefined, { 'accept-language': 'en' }), 400, 'VALIDATION_FAILED', 'Please check the values you entered.'],
      [() => send(u.cookie, { text: 'see' }, { type: 'image/gif', bytes: Buffer.from('GIF89a....') }, { 'accept-language': 'en' }), 400, 'UNSUPPORTED_IMAGE_TYPE', 'Only JPG and PNG files can be uploaded!'],
      [() => t.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie: u.cookie, 'accept-language': 'en' }, payload: { userPrompt: '  ', currentPrompt: 'a cat' } }), 400, 'AI_PROMPT_EMPTY', 'The AI prompt is empty.'],
      [() => t.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie: u.cookie, 'accept-language': 'ko' }, payload: { userPrompt: '  ', currentPrompt: 'a cat' } }), 400, 'AI_PROMPT_EMPTY', 'AI 프롬프트가 비어 있습니다.'],
      [() => t.app.inject({ method: 'POST', url: '/api/seedream/auto-prompt', headers: { cookie: u.cookie, 'accept-language': 'en' }, payload: { images: ['a', 'b', 'c', 'd', 'e'], userNotes: '' } }), 400, 'VALIDATION_FAILED', 'Please check the values you entered.'],
      [() => t.app.inject({ method: 'POST', url: '/api/ai/extract-prompt-from-image', headers: { cookie: u.cookie, 'accept-language': 'en', 'content-type': 'application/octet-stream' }, payload: Buffer.from('not an image at all') }), 400, 'UNSUPPORTED_IMAGE_TYPE', 'Only JPG and PNG files can be uploaded!'],
      [() => t.app.inject({ method: 'POST', url: '/api/ai/extract-prompt-from-image', headers: { cookie: u.cookie, 'accept-language': 'en', 'content-type': 'application/octet-stream' }, payload: Buffer.alloc(9_437_185, 1) }), 413, 'PAYLOAD_TOO_LARGE', 'The request is too large.'],
    ];
    for (const [call, status, code, text] of cases) {
      const r = await call();
      expect(r.statusCode, code).toBe(status);
      expect(r.json()).toMatchObject({ code, error: text });
    }
    expect(fake.requests).toHaveLength(0);
    expect(await balance(t, u.user.id)).toBe(300);
    expect((await t.app.inject({ url: '/api/ai/threads', headers: { cookie: u.cookie } })).json().threads).toEqual([]);
  });

  it('banned keywords are refused on the server before any vendor call (chat, rewrite, auto prompt)', async () => {
    const u = await signUpAndLogin(t.app);
    clearSettingsCache();
    const url = await upload(u.cookie);
    const calls = [
      () => send(u.cookie, { text: 'make it NuDe please' }, undefined, { 'accept-language': 'en' }),
      () => t.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie: u.cookie, 'accept-language': 'en' }, payload: { userPrompt: 'add porn', currentPrompt: 'a cat' } }),
      () => t.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie: u.cookie, 'accept-language': 'en' }, payload: { userPrompt: 'brighter', currentPrompt: 'a naked cat' } }),
      () => t.app.inject({ method: 'POST', url: '/api/seedream/auto-prompt', headers: { cookie: u.cookie, 'accept-language': 'en' }, payload: { images: [url], userNotes: 'NSFW style' } }),
    ];
    for (const c of calls) {
      const r = await c();
      expect(r.statusCode).toBe(400);
      expect(r.json()).toMatchObject({ code: 'NSFW_PROMPT_BLOCKED', error: 'NSFW risk: this prompt is not allowed.' });
    }
    expect(fake.requests).toHaveLength(0);
    expect(await balance(t, u.user.id)).toBe(300);
  });

  it('an NSFW image is refused by the upload screen before the model sees it, and charges nothing', async () => {
    const u = await signUpAndLogin(t.app);
    t.moderator.flagAll = true;
    const r = await send(u.cookie, { text: 'look' }, { type: 'image/jpeg', bytes: await makeJpeg(64, 64) });
    expect(r.json().code).toBe('NSFW_CONTENT_DETECTED');
    const x = await t.app.inject({ method: 'POST', url: '/api/ai/extract-prompt-from-image', headers: { cookie: u.cookie, 'content-type': 'application/octet-stream' }, payload: await makeJpeg(64, 64) });
    expect(x.json().code).toBe('NSFW_CONTENT_DETECTED');
    expect(fake.requests).toHaveLength(0);
    expect(await balance(t, u.user.id)).toBe(300);
  });

  it('20 concurrent sends with credits for exactly 3: exactly 3 are charged, the balance never goes below zero', async () => {
    const u = await signUpAndLogin(t.app);
    await spend(t.ctx.database.db, { userId: u.user.id, amount: 300 - 9, reason: { code: 'tool_job', source: 'upscale' }, idempotencyKey: `drain-${u.user.id}` });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => send(u.cookie, { text: `parallel ${i}` })));
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(3);
    expect(results.filter((r) => r.statusCode === 400).every((r) => r.json().code === 'INSUFFICIENT_CREDITS')).toBe(true);
    expect(ok.length + results.filter((r) => r.statusCode === 400).length).toBe(20);
    expect(await balance(t, u.user.id)).toBe(0);
    await booksBalance(t, u.user.id);
    const threads = (await t.app.inject({ url: '/api/ai/threads', headers: { cookie: u.cookie } })).json().threads;
    expect(threads).toHaveLength(3); // a refused send leaves no thread or message behind
    expect(fake.requests).toHaveLength(3);
  });

  it('rewrite: 3 credits with the result, continues its thread, refunds a failure; /api/credit/use only confirms it, once', async () => {
    const u = await signUpAndLogin(t.app);
    const other = await signUpAndLogin(t.app);
    const none = await t.app.inject({ method: 'POST', url: '/api/credit/use', headers: { cookie: u.cookie, 'accept-language': 'en' }, payload: { amount: 3 } });
    expect(none.statusCode).toBe(409);
    expect(none.json()).toMatchObject({ code: 'NOTHING_TO_CHARGE', error: 'There is no AI rewrite to charge for.' });
    expect(await balance(t, u.user.id)).toBe(300);

    fake.script({ kind: 'text', text: '"a bright cat, studio light"' });
    const r = await t.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie: u.cookie }, payload: { userPrompt: 'brighter', currentPrompt: 'a cat', threadId: null } });
    expect(r.statusCode, r.body).toBe(200);
    const rw = r.json();
    expect(rw).toMatchObject({ success: true, rewrittenPrompt: 'a bright cat, studio light', charged: 3, credits: 297 });
    expect(fake.requests[0]!.body.messages!.at(-1)!.content).toContain('Current prompt:\na cat');

    const again = await t.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie: u.cookie }, payload: { userPrompt: 'add a hat', currentPrompt: rw.rewrittenPrompt, threadId: rw.threadId } });
    expect(again.json().threadId).toBe(rw.threadId);
    expect(fake.requests[1]!.body.messages!.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    expect(await balance(t, u.user.id)).toBe(294);
    // Rewrite threads are not chat threads.
    expect((await t.app.inject({ url: '/api/ai/threads', headers: { cookie: u.cookie } })).json().threads).toEqual([]);
    expect((await t.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie: other.cookie }, payload: { userPrompt: 'x', currentPrompt: '', threadId: rw.threadId } })).statusCode).toBe(404);

    for (let i = 0; i < 3; i++) {
      const use = await t.app.inject({ method: 'POST', url: '/api/credit/use', headers: { cookie: u.cookie }, payload: { amount: 3, rewriteId: rw.rewriteId } });
      expect(use.json()).toMatchObject({ success: true, rewriteId: rw.rewriteId, alreadyCharged: true, credits: 294 });
    }
    const latest = await t.app.inject({ method: 'POST', url: '/api/credit/use', headers: { cookie: u.cookie }, payload: { amount: 3 } });
    expect(latest.json()).toMatchObject({ rewriteId: again.json().rewriteId, credits: 294 });
    expect((await t.app.inject({ method: 'POST', url: '/api/credit/use', headers: { cookie: u.cookie }, payload: { amount: 300 } })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'POST', url: '/api/credit/use', headers: { cookie: other.cookie }, payload: { amount: 3, rewriteId: rw.rewriteId } })).statusCode).toBe(409);
    expect(await balance(t, u.user.id)).toBe(294);
    expect(await balance(t, other.user.id)).toBe(300);

    fake.script({ kind: 'status', status: 503 }, { kind: 'status', status: 503 });
    const failed = await t.app.inject({ method: 'POST', url: '/api/ai/rewrite', headers: { cookie: u.cookie }, payload: { userPrompt: 'darker', currentPrompt: 'a cat' } });
    expect(failed.statusCode).toBe(502);
    expect(await balance(t, u.user.id)).toBe(294);
    const failedId = (await t.ctx.database.db.select().from(meteredCalls).where(eq(meteredCalls.status, 'refunded'))).find((x) => x.userId === u.user.id)!.id;
    expect((await t.app.inject({ method: 'POST', url: '/api/credit/use', headers: { cookie: u.cookie }, payload: { amount: 3, rewriteId: failedId } })).statusCode).toBe(409);
    await booksBalance(t, u.user.id);
  });

  it('auto prompt: own images only (no outside URL is ever fetched), 5 credits with the result, refunded on failure', async () => {
    const u = await signUpAndLogin(t.app);
    const other = await signUpAndLogin(t.app);
    const mine = [await upload(u.cookie), await upload(u.cookie)];
    const theirs = await upload(other.cookie);
    for (const images of [['http://169.254.169.254/latest/meta-data/'], ['file:///etc/passwd'], [theirs], [mine[0]!.replace(/u%2F\d+|u\/\d+/, `u/${other.user.id}`)]]) {
      const r = await t.app.inject({ method: 'POST', url: '/api/seedream/auto-prompt', headers: { cookie: u.cookie }, payload: { images, userNotes: '' } });
      expect([400, 403, 404], `${images[0]} → ${r.body}`).toContain(r.statusCode);
    }
    expect(fake.requests).toHaveLength(0);
    expect(await balance(t, u.user.id)).toBe(300);

    const ok = await t.app.inject({ method: 'POST', url: '/api/seedream/auto-prompt', headers: { cookie: u.cookie }, payload: { images: mine, userNotes: 'keep the face' } });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ success: true, prompt: expect.stringContaining('[2 image(s)]'), charged: 5, credits: 295 });
    expect(imagePartsOf(fake.requests[0]!)).toHaveLength(2);
    expect(fake.requests[0]!.body.model).toBe('vision-model');

    fake.script({ kind: 'content_filter' }, { kind: 'content_filter' });
    const refused = await t.app.inject({ method: 'POST', url: '/api/seedream/auto-prompt', headers: { cookie: u.cookie, 'accept-language': 'en' }, payload: { images: mine, userNotes: '' } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).toBe('AI_REFUSED');
    expect(await balance(t, u.user.id)).toBe(295);
    await booksBalance(t, u.user.id);
  });

  it('extract-prompt-from-image: raw bytes to the vision model, free, not stored', async () => {
    const u = await signUpAndLogin(t.app);
    fake.script({ kind: 'text', text: 'a gradient, soft light' });
    const r = await t.app.inject({ method: 'POST', url: '/api/ai/extract-prompt-from-image', headers: { cookie: u.cookie, 'content-type': 'application/octet-stream' }, payload: await makeJpeg(2000, 1500) });
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toEqual({ success: true, prompt: 'a gradient, soft light' });
    const part = imagePartsOf(fake.requests[0]!)[0]!;
    const sent = Buffer.from(part.split(',')[1]!, 'base64');
    const { default: sharp } = await import('sharp');
    expect((await sharp(sent).metadata()).width).toBe(1024); // made small for the model
    expect(await balance(t, u.user.id)).toBe(300);
    const labelled = await t.app.inject({ method: 'POST', url: '/api/ai/extract-prompt-from-image', headers: { cookie: u.cookie, 'content-type': 'image/png' }, payload: await makeJpeg(64, 64) });
    expect(labelled.json()).toMatchObject({ success: true, prompt: expect.stringContaining('[1 image(s)]') });
  });

  it('extract-prompt-from-image takes a WebP reference like the page does (002 §5), as raw bytes or labelled image/webp; a damaged one changes nothing', async () => {
    const u = await signUpAndLogin(t.app);
    const { default: sharp } = await import('sharp');
    const webp = await sharp(await makeJpeg(640, 480)).webp({ quality: 80 }).toBuffer();
    for (const type of ['application/octet-stream', 'image/webp']) {
      fake.script({ kind: 'text', text: `a webp sent as ${type}` });
      const r = await t.app.inject({ method: 'POST', url: '/api/ai/extract-prompt-from-image', headers: { cookie: u.cookie, 'content-type': type }, payload: webp });
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json()).toEqual({ success: true, prompt: `a webp sent as ${type}` });
    }
    // The model saw the picture (as a JPEG or PNG it reads), 640 × 480.
    for (const req of fake.requests) {
      const sent = Buffer.from(imagePartsOf(req)[0]!.split(',')[1]!, 'base64');
      expect(await sharp(sent).metadata()).toMatchObject({ width: 640, height: 480 });
      expect(['jpeg', 'png']).toContain((await sharp(sent).metadata()).format);
    }
    const calls = fake.requests.length;
    const damaged = await t.app.inject({ method: 'POST', url: '/api/ai/extract-prompt-from-image', headers: { cookie: u.cookie, 'accept-language': 'en', 'content-type': 'image/webp' }, payload: webp.subarray(0, 60) });
    expect(damaged.statusCode).toBe(400);
    expect(damaged.json().code).toBe('IMAGE_CORRUPT');
    expect(fake.requests).toHaveLength(calls);
    expect(await balance(t, u.user.id)).toBe(300);
  });

  it('charge-enabled follows AI_CHAT_CHARGE_ENABLED; with charging off a send is free', async () => {
    const u = await signUpAndLogin(t.app);
    expect((await t.app.inject({ url: '/api/ai/chat/charge-enabled', headers: { cookie: u.cookie } })).json()).toEqual({ success: true, enabled: true, cost: 3, configured: true });
    const free = await createTestApp(kind, { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'm', AI_CHAT_CHARGE_ENABLED: 'false' });
    try {
      const v = await signUpAndLogin(free.app);
      expect((await free.app.inject({ url: '/api/ai/chat/charge-enabled', headers: { cookie: v.cookie } })).json()).toMatchObject({ enabled: false });
      const f = chatForm({ text: 'free?' });
      const r = await free.app.inject({ method: 'POST', url: '/api/ai/chat', headers: { cookie: v.cookie, ...f.headers }, payload: f.payload });
      expect(r.json()).toMatchObject({ charged: 0, credits: 300 });
    } finally {
      await free.close();
    }
  });

  it('a call left pending by a dead process is refunded once by housekeeping; its late completion keeps the refund', async () => {
    const u = await signUpAndLogin(t.app);
    const db = t.ctx.database.db;
    // A call whose model never answers (the process "died" mid-call): charged and pending until released.
    let release!: () => void;
    const latch = new Promise<void>((r) => (release = r));
    let charged!: (id: string) => void;
    const started = new Promise<string>((r) => (charged = r));
    const call = runMeteredCall(t.ctx, rewriteOperation, { userId: u.user.id }, { userPrompt: 'brighter', currentPrompt: 'a cat' }, {}, {
      run: async (c) => {
        charged(c.id);
        await latch;
        return 'late';
      },
      finish: async () => 'late',
    });
    const id = await started;
    expect(await balance(t, u.user.id)).toBe(297);
    expect((await db.select().from(meteredCalls).where(eq(meteredCalls.id, id)))[0]).toMatchObject({ status: 'pending', operation: 'rewrite', cost: 3 });
    expect(await refundStaleMeteredCalls(t.ctx, 60_000)).not.toContain(id);
    await db.update(meteredCalls).set({ createdAt: sql`now() - interval '1 hour'` }).where(eq(meteredCalls.id, id));
    const sweeps = await Promise.all(Array.from({ length: 5 }, () => refundStaleMeteredCalls(t.ctx, 60_000)));
    expect(sweeps.flat().filter((x) => x === id)).toHaveLength(1);
    expect(await refundStaleMeteredCalls(t.ctx, 60_000)).not.toContain(id);
    expect(await balance(t, u.user.id)).toBe(300);
    // The "dead" call comes back after all: it answers, but the refund stands and nothing is charged again.
    release();
    expect((await call).answer).toBe('late');
    expect((await db.select().from(meteredCalls).where(eq(meteredCalls.id, id)))[0]).toMatchObject({ status: 'refunded', errorCode: 'AI_TIMEOUT' });
    expect(await balance(t, u.user.id)).toBe(300);
    await booksBalance(t, u.user.id);
  });
});
