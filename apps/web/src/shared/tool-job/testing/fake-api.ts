import { vi } from 'vitest';
import { AUTH_INVALID_EVENT } from '../../../lib/api-client';

/** A Storage in memory. */
export function memoryStorage(): Storage {
  const m = new Map<string, string>();
  return {
    get length() {
      return m.size;
    },
    clear: () => m.clear(),
    getItem: (k) => m.get(k) ?? null,
    key: (i) => [...m.keys()][i] ?? null,
    removeItem: (k) => void m.delete(k),
    setItem: (k, v) => void m.set(k, String(v)),
  };
}

/** One request the page made: method, path, query and JSON body. */
export interface FakeCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

/** The server's answer: a status (default 200) and a JSON body. */
export interface FakeReply {
  status?: number;
  body: unknown;
}

/**
 * A scripted API for tests without a DOM: replaces `fetch` (the app's one client, lib/api-client.ts,
 * runs unchanged) and `window` (an EventTarget, so a 401 raises `auth:invalid` as in the page, with a
 * `localStorage` in memory). The
 * test answers each call; every call and every `auth:invalid` is recorded. Undo with vi.unstubAllGlobals().
 */
export function installFakeApi(answer: (call: FakeCall) => FakeReply) {
  const calls: FakeCall[] = [];
  const authInvalid: unknown[] = [];
  const win = Object.assign(new EventTarget(), { localStorage: memoryStorage() });
  win.addEventListener(AUTH_INVALID_EVENT, (e) => authInvalid.push((e as CustomEvent).detail));
  vi.stubGlobal('window', win);
  vi.stubGlobal('fetch', async (input: string, init: { method?: string; body?: unknown } = {}) => {
    const url = new URL(input, 'http://dewy.test');
    const call: FakeCall = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : init.body,
    };
    calls.push(call);
    const reply = answer(call);
    const status = reply.status ?? 200;
    const text = JSON.stringify(reply.body);
    // The part of Response that apiRequest reads.
    return { ok: status >= 200 && status < 300, status, text: async () => text };
  });
  return { calls, authInvalid };
}
