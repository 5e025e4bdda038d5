import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { imagePartsOf, startFakeOpenAi, type FakeOpenAi } from '../../../test/fakes/fake-openai.server';
import { LlmError, type LlmProvider } from './llm-provider';
import { createOpenAiCompatibleLlm } from './openai-compatible.llm';

/** The OpenAI-compatible adapter against the fake chat-completions server (issue 15). */
describe('OpenAI-compatible LLM adapter', () => {
  let fake: FakeOpenAi;
  let llm: LlmProvider;
  const make = (over: Partial<Parameters<typeof createOpenAiCompatibleLlm>[0]> = {}) =>
    createOpenAiCompatibleLlm({ baseUrl: fake.baseUrl, apiKey: 'sk-test', model: 'text-model', visionModel: 'vision-model', timeoutMs: 1500, maxRetries: 2, retryBaseMs: 10, ...over });
  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
    llm = make();
  });

  const failureOf = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(LlmError);
    return (err as LlmError).failure;
  };

  it('answers a non-streamed call with the bearer key and the text model', async () => {
    expect(await llm.complete('sys', 'hello')).toBe('Echo: hello');
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.authorization).toBe('Bearer sk-test');
    expect(fake.requests[0]!.body).toMatchObject({ model: 'text-model', stream: false, messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'hello' }] });
  });

  it('streams deltas in order and returns the whole text', async () => {
    fake.script({ kind: 'text', text: 'one two three four' });
    const deltas: string[] = [];
    const text = await llm.chat([{ role: 'user', text: 'q' }], { onDelta: (d) => deltas.push(d) });
    expect(text).toBe('one two three four');
    expect(deltas).toEqual(['one ', 'two ', 'three ', 'four']);
    expect(fake.requests[0]!.body.stream).toBe(true);
  });

  it('sends images as image_url parts with data URIs to the vision model', async () => {
    const img = { mime: 'image/jpeg' as const, bytes: Buffer.from([0xff, 0xd8, 0xff, 1, 2, 3]) };
    const text = await llm.describe('sys', 'describe', [img, img]);
    expect(text).toBe('Echo: describe [2 image(s)]');
    const r = fake.requests[0]!;
    expect(r.body.model).toBe('vision-model');
    expect(imagePartsOf(r)).toEqual([`data:image/jpeg;base64,${img.bytes.toString('base64')}`, `data:image/jpeg;base64,${img.bytes.toString('base64')}`]);
  });

  it('retries a 429 after its Retry-After and then succeeds', async () => {
    fake.script({ kind: 'status', status: 429, headers: { 'retry-after': '0.3' }, body: { error: { message: 'slow down', type: 'rate_limit_error', code: 'rate_limit_exceeded' } } });
    const t0 = Date.now();
    expect(await llm.complete('s', 'again')).toBe('Echo: again');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(280);
    expect(fake.requests).toHaveLength(2);
  });

  it('reads Retry-After as an HTTP date too', async () => {
    fake.script({ kind: 'status', status: 503, headers: { 'retry-after': new Date(Date.now() + 1500).toUTCString() } });
    const t0 = Date.now();
    expect(await llm.complete('s', 'dated')).toBe('Echo: dated');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(400); // a date has 1 s resolution: at least ~0.5 s of the 1.5 s
    expect(fake.requests).toHaveLength(2);
  });

  it('retries 5xx with backoff, then gives up as unavailable after maxRetries', async () => {
    fake.script({ kind: 'status', status: 500 }, { kind: 'status', status: 502 }, { kind: 'status', status: 503 });
    expect(await failureOf(llm.complete('s', 'x'))).toBe('unavailable');
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a 400 and does not wait for a Retry-After longer than its cap', async () => {
    fake.script({ kind: 'status', status: 400, body: { error: { message: 'bad', type: 'invalid_request_error', code: null } } });
    expect(await failureOf(llm.complete('s', 'x'))).toBe('unavailable');
    expect(fake.requests).toHaveLength(1);
    fake.reset();
    fake.script({ kind: 'status', status: 429, headers: { 'retry-after': '3600' } });
    expect(await failureOf(make({ retryMaxMs: 1000 }).complete('s', 'x'))).toBe('unavailable');
    expect(fake.requests).toHaveLength(1);
  });

  it('maps moderation to refused: content-policy error body, finish_reason content_filter (JSON and stream)', async () => {
    fake.script({ kind: 'status', status: 400, body: { error: { message: 'blocked', type: 'invalid_request_error', code: 'content_policy_violation' } } });
    expect(await failureOf(llm.complete('s', 'x'))).toBe('refused');
    fake.script({ kind: 'content_filter' });
    expect(await failureOf(llm.complete('s', 'x'))).toBe('refused');
    fake.script({ kind: 'content_filter' });
    expect(await failureOf(llm.chat([{ role: 'user', text: 'x' }], { onDelta: () => {} }))).toBe('refused');
  });

  it('times out a call that never answers, and a stream that stalls', async () => {
    fake.script({ kind: 'hang' });
    const t0 = Date.now();
    expect(await failureOf(make({ timeoutMs: 300, maxRetries: 0 }).complete('s', 'x'))).toBe('timeout');
    expect(Date.now() - t0).toBeLessThan(1500);
    fake.script({ kind: 'stall' });
    const deltas: string[] = [];
    expect(await failureOf(make({ timeoutMs: 300, maxRetries: 0 }).chat([{ role: 'user', text: 'x' }], { onDelta: (d) => deltas.push(d) }))).toBe('timeout');
    expect(deltas).toEqual(['Wait']);
  });

  it('fails a malformed chunk and a stream that breaks off without [DONE]', async () => {
    fake.script({ kind: 'malformed' });
    expect(await failureOf(llm.chat([{ role: 'user', text: 'x' }], { onDelta: () => {} }))).toBe('unavailable');
    fake.script({ kind: 'broken' });
    expect(await failureOf(llm.chat([{ role: 'user', text: 'x' }], { onDelta: () => {} }))).toBe('unavailable');
    fake.script({ kind: 'malformed' });
    expect(await failureOf(llm.complete('s', 'x'))).toBe('unavailable');
  });

  it('stops when the caller aborts', async () => {
    fake.script({ kind: 'hang' });
    const ctl = new AbortController();
    setTimeout(() => ctl.abort(), 100);
    expect(await failureOf(llm.chat([{ role: 'user', text: 'x' }], { signal: ctl.signal, onDelta: () => {} }))).toBe('aborted');
  });

  it('a caller that aborted before the call starts is not kept waiting for the vendor timeout', async () => {
    // The page's stop can land while the server still reads the thread, before the model call: the
    // call must end at once as aborted (before, it ignored the spent signal and hung until timeoutMs).
    const slow = make({ timeoutMs: 3_600_000 });
    fake.script({ kind: 'hang' });
    const ctl = new AbortController();
    ctl.abort();
    expect(await failureOf(slow.chat([{ role: 'user', text: 'x' }], { signal: ctl.signal, onDelta: () => {} }))).toBe('aborted');
    expect(await failureOf(slow.complete('sys', 'x', { signal: ctl.signal }))).toBe('aborted');
  });
});
