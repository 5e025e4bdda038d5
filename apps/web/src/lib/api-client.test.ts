import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, apiRequest, EMAIL_NOT_VERIFIED_EVENT } from './api-client';

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
    const err = await apiRequest('/api/ai/rewrite', { method: 'POST', body: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('EMAIL_NOT_VERIFIED');
    expect((err as ApiError).message).toBe('Please verify your e-mail first');
    expect(events).toEqual([EMAIL_NOT_VERIFIED_EVENT]);
    vi.stubGlobal('fetch', vi.fn(async () => answer('FORBIDDEN')));
    await apiRequest('/api/x').catch(() => {});
    expect(events).toHaveLength(1);
  });
});
