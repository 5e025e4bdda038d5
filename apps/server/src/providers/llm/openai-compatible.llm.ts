import { LlmError, type LlmCallOptions, type LlmMessage, type LlmProvider } from './llm-provider';
import { abortableSleep } from '../../lib/abortable-sleep';

/** Settings of the OpenAI-compatible adapter (config.llm). */
export interface OpenAiCompatibleOptions {
  /** API root including the version, e.g. `https://api.openai.com/v1`, `http://localhost:11434/v1`. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when set (Ollama, vLLM and LM Studio need none). */
  apiKey?: string;
  model: string;
  visionModel: string;
  /** Whole-answer timeout of a non-streamed call, and the longest silence between streamed chunks (ms). */
  timeoutMs: number;
  /** Further attempts after a 429 / 5xx / network error before any text arrived. */
  maxRetries: number;
  /** First backoff (ms), doubled per retry; a Retry-After header overrides it. */
  retryBaseMs?: number;
  /** Longest wait before a retry (ms); a longer Retry-After fails the call instead. */
  retryMaxMs?: number;
  fetch?: typeof fetch;
}

/** Error `code`s vendors use for content-policy refusals (OpenAI, Azure OpenAI). */
const REFUSAL_CODES = new Set(['content_policy_violation', 'content_filter', 'ResponsibleAIPolicyViolation']);

interface ChoiceLike {
  finish_reason?: string | null;
  message?: { content?: unknown; refusal?: unknown };
  delta?: { content?: unknown; refusal?: unknown };
}

/** Chat-completions `messages`: text as a string, text + images as content parts with data URIs. */
function toWire(messages: LlmMessage[]) {
  return messages.map((m) => {
    if (!m.images?.length) return { role: m.role, content: m.text };
    const parts: unknown[] = [];
    if (m.text) parts.push({ type: 'text', text: m.text });
    for (const img of m.images) parts.push({ type: 'image_url', image_url: { url: `data:${img.mime};base64,${img.bytes.toString('base64')}` } });
    return { role: m.role, content: parts };
  });
}

/** Retry-After (seconds or an HTTP date) or the `retry-after-ms` extension, in ms; undefined when absent. */
function retryAfterMs(res: Response): number | undefined {
  const ms = res.headers.get('retry-after-ms');
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Number(ms);
  const v = res.headers.get('retry-after');
  if (!v) return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function refusalIn(body: unknown): boolean {
  const err = (body as { error?: { code?: unknown; type?: unknown } } | null)?.error;
  return Boolean(err && (REFUSAL_CODES.has(String(err.code)) || REFUSAL_CODES.has(String(err.type))));
}

const sleep = (ms: number, signal?: AbortSignal): Promise<void> => abortableSleep(ms, signal, () => new LlmError('aborted', 'aborted'));

/**
 * The OpenAI-compatible chat-completions adapter (`POST {baseUrl}/chat/completions`), for OpenAI, Azure
 * OpenAI, Ollama, vLLM, LM Studio and most hosted models. Streaming reads the SSE `data:` lines up to
 * `[DONE]`; 429 and 5xx are retried with exponential backoff respecting Retry-After (only before any text
 * was passed on); `finish_reason: content_filter`, a `refusal`, or a content-policy error body → `refused`.
 */
export function createOpenAiCompatibleLlm(o: OpenAiCompatibleOptions): LlmProvider {
  const doFetch = o.fetch ?? fetch;
  const url = `${o.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const retryBase = o.retryBaseMs ?? 500;
  const retryMax = o.retryMaxMs ?? 20_000;

  /** One HTTP attempt with a timer that aborts it; the timer is re-armed by `kick` while a stream flows. */
  async function attempt(body: unknown, signal: AbortSignal | undefined) {
    const ctl = new AbortController();
    let timedOut = false;
    let timer: NodeJS.Timeout | undefined;
    const kick = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        ctl.abort();
      }, o.timeoutMs);
    };
    const onAbort = () => ctl.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    // A signal aborted before this attempt (the page stopped while the thread was read) fires no event.
    if (signal?.aborted) ctl.abort();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const why = (err: unknown): LlmError => {
      if (err instanceof LlmError) return err;
      if (signal?.aborted) return new LlmError('aborted', 'aborted', { cause: err });
      if (timedOut) return new LlmError('timeout', `no answer within ${o.timeoutMs} ms`, { cause: err });
      return new LlmError('unavailable', `request failed: ${(err as Error)?.message ?? err}`, { cause: err });
    };
    kick();
    try {
      const res = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(o.apiKey ? { authorization: `Bearer ${o.apiKey}` } : {}) },
        body: JSON.stringify(body),
        signal: ctl.signal,
      });
      return { res, kick, done, why };
    } catch (err) {
      done();
      throw why(err);
    }
  }

  async function call(model: string, messages: LlmMessage[], opts: LlmCallOptions = {}): Promise<string> {
    const stream = Boolean(opts.onDelta);
    const body = { model, messages: toWire(messages), stream, ...(opts.maxTokens ? { max_tokens: opts.maxTokens } : {}) };
    for (let tryNo = 0; ; tryNo++) {
      const a = await attempt(body, opts.signal);
      try {
        if (!a.res.ok) {
          const text = await a.res.text().catch(() => '');
          let parsed: unknown = null;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON: the status decides */
          }
          if (refusalIn(parsed)) throw new LlmError('refused', 'content policy', { status: a.res.status });
          const retryable = a.res.status === 429 || a.res.status >= 500;
          if (retryable && tryNo < o.maxRetries) {
            const wait = retryAfterMs(a.res) ?? retryBase * 2 ** tryNo;
            if (wait <= retryMax) {
              a.done();
              await sleep(wait, opts.signal);
              continue;
            }
          }
          throw new LlmError('unavailable', `vendor answered ${a.res.status}`, { status: a.res.status });
        }
        return stream ? await readStream(a.res, a.kick, opts.onDelta!) : await readJson(a.res);
      } catch (err) {
        throw a.why(err);
      } finally {
        a.done();
      }
    }
  }

  return {
    model: o.model,
    visionModel: o.visionModel,
    chat: (messages, opts) => call(messages.some((m) => m.images?.length) ? o.visionModel : o.model, messages, opts),
    complete: (system, user, opts) => call(o.model, [{ role: 'system', text: system }, { role: 'user', text: user }], opts),
    describe: (system, user, images, opts) => call(o.visionModel, [{ role: 'system', text: system }, { role: 'user', text: user, images }], opts),
  };
}

/** The non-streamed answer: `choices[0].message.content`. */
async function readJson(res: Response): Promise<string> {
  let body: { choices?: ChoiceLike[] };
  try {
    body = (await res.json()) as typeof body;
  } catch (err) {
    throw new LlmError('unavailable', 'answer is not JSON', { cause: err });
  }
  const choice = body?.choices?.[0];
  if (!choice) throw new LlmError('unavailable', 'answer without choices');
  if (choice.finish_reason === 'content_filter' || (typeof choice.message?.refusal === 'string' && choice.message.refusal)) throw new LlmError('refused', 'refused by the model');
  const text = typeof choice.message?.content === 'string' ? choice.message.content.trim() : '';
  if (!text) throw new LlmError('unavailable', 'empty answer');
  return text;
}

/**
 * The streamed answer: SSE events whose `data:` lines hold chat.completion.chunk objects, ended by
 * `data: [DONE]`. A chunk that is not JSON, an `error` object, a stream that ends without `[DONE]` or a
 * finish reason → unavailable; `content_filter` or a refusal → refused.
 */
async function readStream(res: Response, kick: () => void, onDelta: (t: string) => void): Promise<string> {
  if (!res.body) throw new LlmError('unavailable', 'no stream body');
  const decoder = new TextDecoder();
  let buffer = '';
  let text = '';
  let finished = false;
  const handle = (data: string): boolean => {
    if (data === '[DONE]') return true;
    let chunk: { choices?: ChoiceLike[]; error?: unknown };
    try {
      chunk = JSON.parse(data) as typeof chunk;
    } catch (err) {
      throw new LlmError('unavailable', 'malformed stream chunk', { cause: err });
    }
    if (chunk.error) throw new LlmError(refusalIn(chunk) ? 'refused' : 'unavailable', 'error in stream');
    const choice = chunk.choices?.[0];
    if (!choice) return false;
    if (choice.finish_reason === 'content_filter' || (typeof choice.delta?.refusal === 'string' && choice.delta.refusal)) throw new LlmError('refused', 'refused by the model');
    const piece = choice.delta?.content;
    if (typeof piece === 'string' && piece) {
      text += piece;
      onDelta(piece);
    }
    if (choice.finish_reason) finished = true;
    return false;
  };
  for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
    kick();
    buffer += decoder.decode(bytes, { stream: true });
    let nl: number;
    while ((nl = buffer.search(/\r?\n/)) >= 0) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + (buffer[nl] === '\r' ? 2 : 1));
      if (!line.startsWith('data:')) continue;
      if (handle(line.slice(5).trim())) return done(text);
    }
  }
  if (buffer.startsWith('data:') && handle(buffer.slice(5).trim())) return done(text);
  if (!finished) throw new LlmError('unavailable', 'stream ended early');
  return done(text);
}

function done(text: string): string {
  const t = text.trim();
  if (!t) throw new LlmError('unavailable', 'empty answer');
  return t;
}
