import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AI_COSTS,
  AI_LIMITS,
  AutoPromptRequestSchema,
  AutoPromptResponseSchema,
  ChargeEnabledResponseSchema,
  ChatSendFieldsSchema,
  CreateUpscaleHeadersSchema,
  CreditUseRequestSchema,
  CreditUseResponseSchema,
  ExtractPromptResponseSchema,
  MessageListQuerySchema,
  MessageListResponseSchema,
  RewriteRequestSchema,
  RewriteResponseSchema,
  ThreadDeleteResponseSchema,
  ThreadIdParamsSchema,
  ThreadListQuerySchema,
  ThreadListResponseSchema,
  UPLOAD_LIMITS,
  apiErrorBody,
  errorMessage,
  type ChargeEnabledResponse,
  type ChatStreamEvent,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { requestLocale } from '../../lib/locale';
import { userOf } from '../../lib/request-user';
import { balanceOf, chatCost, llmErrorCode } from './ai-operations';
import { deleteThread, listMessages, listThreads, sendChat, type ChatSendInput } from './chat.service';
import { autoPrompt, confirmRewriteCharge, extractPromptFromImage, rewritePrompt } from './prompt-tools.service';

/** Reads POST /api/ai/chat's multipart body: fields `text`, `threadId`, file `image` (002 §7). */
async function readChatForm(req: FastifyRequest): Promise<ChatSendInput> {
  if (!req.isMultipart()) throw new AppError('VALIDATION_FAILED', { message: 'multipart/form-data expected' });
  const fields: Record<string, string> = {};
  let image: Buffer | undefined;
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'image' || image) throw new AppError('VALIDATION_FAILED', { message: 'one file field image expected' });
      image = await part.toBuffer().catch((err: { code?: string }) => {
        if (err.code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError('IMAGE_TOO_LARGE');
        throw err;
      });
      if (part.file.truncated) throw new AppError('IMAGE_TOO_LARGE');
      if (!image.length) image = undefined;
    } else if (typeof part.value === 'string') {
      fields[part.fieldname] = part.value;
    }
  }
  const parsed = ChatSendFieldsSchema.safeParse(fields);
  if (!parsed.success) throw new AppError('VALIDATION_FAILED', { details: parsed.error.issues });
  return { text: parsed.data.text, threadId: parsed.data.threadId || undefined, image };
}

/**
 * The AI text routes (spec 002 §7; issue 15): the prompt chat (threads, messages, charge flag, send — JSON, or
 * Server-Sent Events with `Accept: text/event-stream`), the consistency rewrite and its `/api/credit/use`
 * confirmation, prompt extraction from an image, and the image-edit auto prompt. Every route is the user's.
 * The model calls are inline metered calls of the kernel (decision 036) and accept an `Idempotency-Key`
 * header as the queued tools do (CreateUpscaleHeadersSchema).
 */
export function aiRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(multipart, { limits: { fileSize: UPLOAD_LIMITS.maxBytes, files: 1, fields: 4, parts: 5, fieldSize: AI_LIMITS.chatTextMax * 4 } });
    // The spec's client sends application/octet-stream; a client that names the image type is read the same way
    // (the bytes are sniffed, never trusted by their label).
    app.addContentTypeParser(['application/octet-stream', 'image/jpeg', 'image/png', 'image/webp'], { parseAs: 'buffer', bodyLimit: AI_LIMITS.extractMaxBytes }, (_req, body, done) => done(null, body));
    const USER = { access: 'user' as const };
    // Each of these calls a paid vendor, extraction is free to the user, and a rewrite's charge is returned
    // when the page never confirms it (decision 022), so credits alone do not bound them: one user's calls
    // are limited together (per minute, on the shared database store: every process counts them). Runs
    // after the session check (preHandler), keyed by the user, not the address.
    // A vendor call costs the operator money even when the user pays nothing (extraction is free): only
    // accounts with a verified e-mail may make one (decision 032).
    const VENDOR_CALL = {
      access: 'verified' as const,
      rateLimit: { max: ctx.config.llm.requestsPerMinute, timeWindow: 60_000, hook: 'preHandler' as const, keyGenerator: (req: FastifyRequest) => `ai:user:${userOf(req).id}` },
    };

    app.get('/api/ai/threads', { config: USER, schema: { tags: ['ai'], querystring: ThreadListQuerySchema, response: { 200: ThreadListResponseSchema } } }, async (req) => listThreads(ctx, userOf(req).id, req.query));

    app.delete('/api/ai/threads/:id', { config: USER, schema: { tags: ['ai'], params: ThreadIdParamsSchema, response: { 200: ThreadDeleteResponseSchema } } }, async (req) => {
      await deleteThread(ctx, userOf(req).id, req.params.id);
      return { success: true as const };
    });

    app.get('/api/ai/threads/:id/messages', { config: USER, schema: { tags: ['ai'], params: ThreadIdParamsSchema, querystring: MessageListQuerySchema, response: { 200: MessageListResponseSchema } } }, async (req) =>
      listMessages(ctx, userOf(req).id, req.params.id, req.query),
    );

    app.get('/api/ai/chat/charge-enabled', { config: USER, schema: { tags: ['ai'], response: { 200: ChargeEnabledResponseSchema } } }, async (): Promise<ChargeEnabledResponse> => ({
      success: true,
      enabled: chatCost(ctx) > 0,
      cost: AI_COSTS.chat,
      configured: ctx.engines.has('llm'),
    }));

    app.post('/api/ai/chat', { config: VENDOR_CALL, schema: { tags: ['ai'], consumes: ['multipart/form-data'], headers: CreateUpscaleHeadersSchema } }, async (req, reply) => {
      const user = userOf(req);
      const input = await readChatForm(req);
      const idem = { idempotencyKey: req.headers['idempotency-key'] };
      const wantsStream = /\btext\/event-stream\b/.test(String(req.headers.accept ?? ''));
      if (!wantsStream) return sendChat(ctx, user.id, input, {}, idem);

      const raw = reply.raw;
      const stop = new AbortController();
      let started = false;
      const send = (e: ChatStreamEvent) => {
        if (!raw.writableEnded && !raw.destroyed) raw.write(`event: ${e.event}\ndata: ${JSON.stringify(e.data)}\n\n`);
      };
      // The page's stop button (or a lost connection) closes the response: stop the model call.
      raw.on('close', () => {
        if (!raw.writableFinished) stop.abort();
      });
      try {
        const result = await sendChat(ctx, user.id, input, {
          signal: stop.signal,
          onStart: (data) => {
            reply.hijack();
            const headers = { ...reply.getHeaders() } as Record<string, string | string[] | number>;
            raw.writeHead(200, { ...headers, 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', connection: 'keep-alive', 'x-accel-buffering': 'no' });
            started = true;
            send({ event: 'start', data });
          },
          onDelta: (text) => send({ event: 'delta', data: { text } }),
        }, idem);
        send({ event: 'done', data: result });
      } catch (err) {
        if (!started) throw err;
        const code = llmErrorCode(err);
        const message = errorMessage(code, requestLocale(req.headers, req.cookies));
        send({ event: 'error', data: { ...apiErrorBody(code, message), credits: await balanceOf(ctx, user.id).catch(() => 0) } });
      }
      raw.end();
      return reply;
    });

    app.post('/api/ai/rewrite', { config: VENDOR_CALL, schema: { tags: ['ai'], body: RewriteRequestSchema, headers: CreateUpscaleHeadersSchema, response: { 200: RewriteResponseSchema } } }, async (req) =>
      rewritePrompt(ctx, userOf(req).id, req.body, { idempotencyKey: req.headers['idempotency-key'] }),
    );

    app.post('/api/ai/extract-prompt-from-image', { config: VENDOR_CALL, schema: { tags: ['ai'], consumes: ['application/octet-stream', 'image/jpeg', 'image/png', 'image/webp'], headers: CreateUpscaleHeadersSchema, response: { 200: ExtractPromptResponseSchema } } }, async (req) => {
      const body = req.body;
      if (!Buffer.isBuffer(body) || body.length === 0) throw new AppError('VALIDATION_FAILED', { message: 'image bytes expected as application/octet-stream' });
      return extractPromptFromImage(ctx, userOf(req).id, body, { idempotencyKey: req.headers['idempotency-key'] });
    });

    app.post('/api/seedream/auto-prompt', { config: VENDOR_CALL, schema: { tags: ['ai'], body: AutoPromptRequestSchema, headers: CreateUpscaleHeadersSchema, response: { 200: AutoPromptResponseSchema } } }, async (req) =>
      autoPrompt(ctx, userOf(req).id, req.body, { idempotencyKey: req.headers['idempotency-key'] }),
    );

    app.post('/api/credit/use', { config: USER, schema: { tags: ['ai'], body: CreditUseRequestSchema, response: { 200: CreditUseResponseSchema } } }, async (req) => confirmRewriteCharge(ctx, userOf(req).id, req.body));
  };
}
