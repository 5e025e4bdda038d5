import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { ChargeEnabledResponse, JobStatusResponse, User } from '@dewy/contracts';
import { api, ApiError, apiUrl, EMAIL_NOT_VERIFIED_EVENT, undeclaredAnswer, type UndeclaredAnswer } from './api-client';

/** Decision 032: a refusal for an unverified e-mail raises one window event the verify banner listens to. */
describe('api client: EMAIL_NOT_VERIFIED', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('raises account:email-not-verified and throws the server message; other refusals raise nothing', async () => {
    const events: string[] = [];
    const target = new EventTarget();
    vi.stubGlobal('window', target);
    target.addEventListener(EMAIL_NOT_VERIFIED_EVENT, (e) => events.push(e.type));
    const answer = (code: string) => new Response(JSON.stringify({ success: false, code, error: 'Please verify your e-mail first', message: 'Please verify your e-mail first' }), { status: 403 });
    vi.stubGlobal('fetch', vi.fn(async () => answer('EMAIL_NOT_VERIFIED')));
    const err = await api.post('/api/ai/rewrite', { body: { userPrompt: 'x' } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('EMAIL_NOT_VERIFIED');
    expect((err as ApiError).message).toBe('Please verify your e-mail first');
    expect(events).toEqual([EMAIL_NOT_VERIFIED_EVENT]);
    vi.stubGlobal('fetch', vi.fn(async () => answer('FORBIDDEN')));
    await api.get('/api/auth/check').catch(() => {});
    expect(events).toHaveLength(1);
  });
});

/** Decision 038: every call is one fetch whose URL, method, headers and body come from the typed call. */
describe('api client: the typed calls', () => {
  afterEach(() => vi.unstubAllGlobals());

  function stub(answer: () => Response) {
    const calls: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('window', new EventTarget());
    vi.stubGlobal('fetch', vi.fn(async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return answer();
    }));
    return calls;
  }
  const json = (body: unknown, status = 200) => () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('fills path parameters (encoded), appends the query in the order given, and sends JSON with the cookie session and no cache', async () => {
    const calls = stub(json({ status: 'processing', imageUrl: null, originalImageUrl: null }));
    const status = await api.get('/api/image/status/{jobId}', { path: { jobId: 'a b/c' }, query: { source: 'face_edit' } });
    expect(status.status).toBe('processing');
    await api.get('/api/image/history/{userId}', { path: { userId: 42 }, query: { source: 'kling', status: 'completed', limit: 25, offset: 0, q: undefined } });
    await api.post('/api/auth/login', { body: { email: 'a@example.com', password: 'pw' }, header: undefined });
    expect(calls.map((c) => c.url)).toEqual(['/api/image/status/a%20b%2Fc?source=face_edit', '/api/image/history/42?source=kling&status=completed&limit=25&offset=0', '/api/auth/login']);
    expect(calls[2]!.init).toMatchObject({ method: 'POST', credentials: 'include', cache: 'no-store', body: '{"email":"a@example.com","password":"pw"}' });
    expect(calls[2]!.init.headers).toMatchObject({ Accept: 'application/json', 'Content-Type': 'application/json', 'Cache-Control': 'no-store' });
  });

  it('sends declared header parameters (Idempotency-Key) and FormData as multipart, without a JSON content type', async () => {
    const calls = stub(json({ success: true, status: 'processing', seedream_task_id: 't', urls: [], cost: 15, credits: 1 }));
    await api.post('/api/seedream/generate', { query: { async: '1' }, header: { 'idempotency-key': 'k-1' }, body: { prompt: 'a cat', image_urls: ['/u.jpg'] } as never });
    expect(calls[0]!.url).toBe('/api/seedream/generate?async=1');
    expect(calls[0]!.init.headers).toMatchObject({ 'idempotency-key': 'k-1' });
    await api.post('/api/seedream/generate', { header: { 'idempotency-key': undefined }, body: { prompt: 'a cat', image_urls: ['/u.jpg'] } as never });
    expect(calls[1]!.init.headers).not.toHaveProperty('idempotency-key');
    const form = new FormData();
    form.append('image', new Blob(['x']), 'x.jpg');
    await api.post('/api/image/upload-s3', { body: form });
    expect(calls[2]!.init.body).toBe(form);
    expect(calls[2]!.init.headers).not.toHaveProperty('Content-Type');
  });

  it('maps failures: success:false to ApiError, 401 raises auth:invalid unless skipAuthEvent, a network failure is status 0 NETWORK', async () => {
    stub(json({ success: false, code: 'INSUFFICIENT_CREDITS', error: 'no credits', message: '크레딧이 부족합니다.' }));
    const refused = (await api.post('/api/runpod-upscale', { body: { input: {} as never } }).catch((e: unknown) => e)) as ApiError;
    expect([refused.status, refused.code, refused.message, refused.serverError]).toEqual([200, 'INSUFFICIENT_CREDITS', '크레딧이 부족합니다.', 'no credits']);

    stub(json({ code: 'SESSION_EXPIRED', message: 'expired' }, 401));
    const ended: unknown[] = [];
    (window as unknown as EventTarget).addEventListener('auth:invalid', (e) => ended.push((e as CustomEvent).detail));
    const err = (await api.get('/api/auth/identities').catch((e: unknown) => e)) as ApiError;
    expect(err.sessionEnded).toBe(true);
    expect(ended).toEqual([{ message: 'expired', code: 'SESSION_EXPIRED' }]);
    await api.post('/api/auth/login', { body: { email: 'a@example.com', password: 'wrong' }, skipAuthEvent: true }).catch(() => {});
    expect(ended).toHaveLength(1);

    vi.stubGlobal('fetch', vi.fn(async () => { throw new TypeError('Failed to fetch'); }));
    const offline = (await api.get('/api/auth/check').catch((e: unknown) => e)) as ApiError;
    expect([offline.status, offline.code, offline.isNetwork]).toEqual([0, 'NETWORK', true]);
  });

  it('builds URLs for requests that cannot go through api (event streams, raw bytes, downloads) from the same contract', () => {
    expect(apiUrl('post', '/api/ai/chat')).toBe('/api/ai/chat');
    expect(apiUrl('get', '/api/image/download', { query: { url: '/files/a b.jpg' } })).toBe('/api/image/download?url=%2Ffiles%2Fa+b.jpg');
    expect(apiUrl('delete', '/api/auth/identities/{provider}', { path: { provider: 'google' } })).toBe('/api/auth/identities/google');
  });

  it('checks path, method, parameters, body and answer at compile time (tsc -b reads these lines; they never run)', () => {
    const compileOnly = async () => {
      expectTypeOf(await api.get('/api/image/status/{jobId}', { path: { jobId: 'j' } })).toMatchTypeOf<JobStatusResponse>();
      expectTypeOf(await api.post('/api/auth/login', { body: { email: 'a@example.com', password: 'pw' } })).toMatchTypeOf<User>();
      expectTypeOf(await api.get('/api/ai/chat/charge-enabled')).toMatchTypeOf<ChargeEnabledResponse>();
      // The chat send declares no JSON answer (an event stream on success): the page cannot read it untyped.
      expectTypeOf(api.post('/api/ai/chat', { body: new FormData() })).toEqualTypeOf<Promise<UndeclaredAnswer>>();
      // @ts-expect-error a path the server does not serve
      await api.get('/api/image/statuses/{jobId}', { path: { jobId: 'j' } });
      // @ts-expect-error the path parameter is required
      await api.get('/api/image/status/{jobId}');
      // @ts-expect-error a method the path does not answer
      await api.post('/api/auth/check');
      // @ts-expect-error the body lacks a required field
      await api.post('/api/auth/login', { body: { email: 'a@example.com' } });
      // @ts-expect-error a query parameter the route does not declare
      await api.get('/api/notices', { query: { pages: 1 } });
      // @ts-expect-error a field the answer does not have
      void (await api.get('/api/image/status/{jobId}', { path: { jobId: 'j' } })).imageURL;
      // @ts-expect-error the route declares its answer: no undeclaredAnswer there
      await undeclaredAnswer<JobStatusResponse>(api.get('/api/image/status/{jobId}', { path: { jobId: 'j' } }));
      // @ts-expect-error apiUrl checks paths too
      apiUrl('get', '/api/ai/chat');
    };
    expect(compileOnly).toBeTypeOf('function');
  });
});
