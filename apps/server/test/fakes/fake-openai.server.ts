import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

/**
 * A fake OpenAI-compatible chat-completions server (`POST /v1/chat/completions`) on 127.0.0.1 for the LLM
 * adapter's contract tests and the chat's browser tests. It speaks the documented protocol: a JSON
 * `chat.completion` answer, or with `stream: true` an SSE stream of `data: <chat.completion.chunk>` lines
 * ended by `data: [DONE]`; errors as `{error: {message, type, code}}` with the HTTP status.
 *
 * Each request takes the next scripted behaviour (`script(...)`), else the default: answer
 * `Echo: <last user text>` (+ ` [N image(s)]` when the last user turn has image parts). Every request is
 * recorded (body, authorization) so tests can count calls and look at image parts.
 */
export type FakeBehaviour =
  | { kind: 'text'; text: string }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answers (the client's timeout must fire). */
  | { kind: 'hang' }
  /** Streams one good chunk, then a chunk that is not JSON. */
  | { kind: 'malformed' }
  /** Answers with `finish_reason: content_filter` (streamed or not). */
  | { kind: 'content_filter' }
  /** Streams one chunk, then the connection ends without [DONE]. */
  | { kind: 'broken' }
  /** Streams one chunk, then stays silent with the connection open. */
  | { kind: 'stall' };

export interface RecordedRequest {
  path: string;
  authorization?: string;
  body: { model?: string; stream?: boolean; messages?: { role: string; content: unknown }[] } & Record<string, unknown>;
}

export interface FakeOpenAi {
  /** Base URL to use as LLM_BASE_URL (`http://127.0.0.1:<port>/v1`). */
  baseUrl: string;
  requests: RecordedRequest[];
  script(...b: FakeBehaviour[]): void;
  reset(): void;
  close(): Promise<void>;
}

/** `image_url` parts of a recorded request's messages (all turns). */
export function imagePartsOf(r: RecordedRequest): string[] {
  const urls: string[] = [];
  for (const m of r.body.messages ?? []) {
    if (Array.isArray(m.content)) for (const p of m.content as { type?: string; image_url?: { url?: string } }[]) if (p.type === 'image_url' && p.image_url?.url) urls.push(p.image_url.url);
  }
  return urls;
}

function lastUser(r: RecordedRequest): { text: string; images: number } {
  const users = (r.body.messages ?? []).filter((m) => m.role === 'user');
  const m = users[users.length - 1];
  if (!m) return { text: '', images: 0 };
  if (typeof m.content === 'string') return { text: m.content, images: 0 };
  const parts = m.content as { type?: string; text?: string }[];
  return { text: parts.filter((p) => p.type === 'text').map((p) => p.text).join(' '), images: parts.filter((p) => p.type === 'image_url').length };
}

/** A user message containing this gets half an answer and a stream held open (see below). */
export const HOLD_MARK = '#hold';

/** @param opts.chunkDelayMs pause between streamed chunks (browser tests watch the text grow). */
export async function startFakeOpenAi(opts: { chunkDelayMs?: number; port?: number } = {}): Promise<FakeOpenAi> {
  const queue: FakeBehaviour[] = [];
  const requests: RecordedRequest[] = [];
  const delay = opts.chunkDelayMs ?? 0;
  const sockets = new Set<import('node:net').Socket>();
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
    req.on('end', () => {
      void (async () => {
        if (req.method === 'GET' && req.url === '/health') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
          return;
        }
        if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
          res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error', code: null } }));
          return;
        }
        let body: RecordedRequest['body'];
        try {
          body = JSON.parse(raw) as RecordedRequest['body'];
        } catch {
          res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'bad json', type: 'invalid_request_error', code: null } }));
          return;
        }
        const rec: RecordedRequest = { path: req.url, authorization: req.headers.authorization, body };
        requests.push(rec);
        const u = lastUser(rec);
        const b: FakeBehaviour = queue.shift() ?? { kind: 'text', text: `Echo: ${u.text}${u.images ? ` [${u.images} image(s)]` : ''}` };
        const id = `chatcmpl-${requests.length}`;
        const chunk = (delta: Record<string, unknown>, finish: string | null) =>
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: 0, model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

        if (b.kind === 'hang') return;
        if (b.kind === 'status') {
          res.writeHead(b.status, { 'content-type': 'application/json', ...(b.headers ?? {}) }).end(JSON.stringify(b.body ?? { error: { message: `status ${b.status}`, type: 'server_error', code: null } }));
          return;
        }
        if (!body.stream) {
          const filtered = b.kind === 'content_filter';
          const text = b.kind === 'text' ? b.text : filtered ? '' : 'x';
          if (b.kind === 'malformed' || b.kind === 'broken' || b.kind === 'stall') {
            res.writeHead(200, { 'content-type': 'application/json' }).end('{"choices": [');
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' }).end(
            JSON.stringify({ id, object: 'chat.completion', created: 0, model: body.model, choices: [{ index: 0, message: { role: 'assistant', content: filtered ? null : text, refusal: null }, finish_reason: filtered ? 'content_filter' : 'stop' }] }),
          );
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(chunk({ role: 'assistant', content: '' }, null));
        if (b.kind === 'content_filter') {
          res.write(chunk({ content: 'Partial ' }, null));
          res.end(chunk({}, 'content_filter') + 'data: [DONE]\n\n');
          return;
        }
        if (b.kind === 'malformed') {
          res.write(chunk({ content: 'Good ' }, null));
          res.end('data: {not json\n\n');
          return;
        }
        if (b.kind === 'stall') {
          res.write(chunk({ content: 'Wait' }, null));
          return;
        }
        if (b.kind === 'broken') {
          res.write(chunk({ content: 'Half an ans' }, null));
          req.socket.destroy();
          return;
        }
        const words = b.text.split(/(?<= )/);
        // A message with HOLD_MARK streams half of its answer, then holds the stream open until the
        // client goes away: a browser test stops it mid-answer without racing the stream's end.
        const holdAt = u.text.includes(HOLD_MARK) ? Math.ceil(words.length / 2) : Infinity;
        for (const [i, w] of words.entries()) {
          if (res.destroyed) return;
          if (i === holdAt) return;
          res.write(chunk({ content: w }, null));
          if (delay) await wait(delay);
        }
        res.end(chunk({}, 'stop') + 'data: [DONE]\n\n');
      })();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...b) => void queue.push(...b),
    reset() {
      queue.length = 0;
      requests.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

// Run as a program (the browser tests start it before the app): FAKE_OPENAI_PORT, FAKE_OPENAI_CHUNK_MS.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const fake = await startFakeOpenAi({ port: Number(process.env.FAKE_OPENAI_PORT ?? 0), chunkDelayMs: Number(process.env.FAKE_OPENAI_CHUNK_MS ?? 120) });
  console.log(`fake OpenAI-compatible server at ${fake.baseUrl}`);
  const stop = () => void fake.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
