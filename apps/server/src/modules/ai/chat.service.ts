import { and, desc, eq, lt, or, sql } from 'drizzle-orm';
import { AI_LIMITS, type ChatMessage, type ChatSendResponse, type ChatThread, type MessageListResponse, type ThreadListResponse } from '@dewy/contracts';
import type { AppContext } from '../../context';
import type { DbOrTx } from '../../db/client';
import { aiMessages, aiThreads, type AiMessageRow, type AiThreadRow } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import { LlmError, type LlmImage, type LlmMessage } from '../../providers/llm';
import { keyFromImageUrl, viewUrl, storeDirectUpload } from '../uploads';
import { modelImage } from './ai-images';
import { runMeteredCall, requestFingerprint } from '../tool-jobs';
import { assertNoBannedKeyword, balanceOf, bytesHash, chatCost, chatOperation, requireLlm } from './ai-operations';
import { CHAT_SYSTEM_PROMPT } from './prompts';

/** Messages of the thread sent to the model with each turn (the newest), and of those the images. */
const HISTORY_MESSAGES = 20;
const HISTORY_IMAGES = 4;

const iso = (d: Date) => d.toISOString();

function presentThread(t: AiThreadRow): ChatThread {
  return { id: t.id, title: t.title, created_at: iso(t.createdAt), updated_at: iso(t.updatedAt) };
}

async function presentMessage(ctx: AppContext, m: AiMessageRow): Promise<ChatMessage> {
  return { id: m.id, role: m.role, text: m.text, image_url: m.imageKey ? await viewUrl(ctx, m.imageKey) : null, created_at: iso(m.createdAt) };
}

/** The caller's thread of `kind`. Another user's (or an unknown) id is NOT_FOUND, never FORBIDDEN (no probing). */
export async function ownThread(db: DbOrTx, userId: number, threadId: string, kind: 'chat' | 'rewrite' = 'chat'): Promise<AiThreadRow> {
  const row = (await db.select().from(aiThreads).where(and(eq(aiThreads.id, threadId), eq(aiThreads.userId, userId), eq(aiThreads.kind, kind))))[0];
  if (!row) throw new AppError('NOT_FOUND', { message: 'thread not found' });
  return row;
}

/** Cursor of the thread list: the last thread's `updated_at` (µs precision kept by the ISO string of the DB) and id. */
function encodeCursor(t: { updatedAt: Date; id: string; cursorTs: string }): string {
  return Buffer.from(`${t.cursorTs}|${t.id}`).toString('base64url');
}
function decodeCursor(cursor: string): { ts: string; id: string } {
  const [ts, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!ts || !id || Number.isNaN(Date.parse(ts)) || !/^[0-9a-f-]{36}$/i.test(id)) throw new AppError('VALIDATION_FAILED', { message: 'invalid cursor' });
  return { ts, id };
}

/**
 * GET /api/ai/threads?limit=50&cursor= (002 §7, §9): the caller's chat threads, most recently active first,
 * `limit` (≤ 50) per page; `nextCursor` continues, null at the end.
 */
export async function listThreads(ctx: AppContext, userId: number, q: { limit: number; cursor?: string }): Promise<ThreadListResponse> {
  const after = q.cursor ? decodeCursor(q.cursor) : null;
  const ts = sql<string>`to_char(${aiThreads.updatedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
  const rows = await ctx.database.db
    .select({ t: aiThreads, cursorTs: ts })
    .from(aiThreads)
    .where(
      and(
        eq(aiThreads.userId, userId),
        eq(aiThreads.kind, 'chat'),
        after ? or(lt(aiThreads.updatedAt, sql`${after.ts}::timestamptz`), and(eq(aiThreads.updatedAt, sql`${after.ts}::timestamptz`), lt(aiThreads.id, after.id))) : undefined,
      ),
    )
    .orderBy(desc(aiThreads.updatedAt), desc(aiThreads.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit);
  const last = page[page.length - 1];
  return {
    success: true,
    threads: page.map((r) => presentThread(r.t)),
    nextCursor: rows.length > q.limit && last ? encodeCursor({ ...last.t, cursorTs: last.cursorTs }) : null,
  };
}

/**
 * GET /api/ai/threads/{id}/messages?limit=100[&before=] (002 §7, §9): the newest `limit` messages before
 * `before` (a message id), oldest first. @throws AppError NOT_FOUND for a thread that is not the caller's.
 */
export async function listMessages(ctx: AppContext, userId: number, threadId: string, q: { limit: number; before?: number }): Promise<MessageListResponse> {
  await ownThread(ctx.database.db, userId, threadId);
  const rows = await ctx.database.db
    .select()
    .from(aiMessages)
    .where(and(eq(aiMessages.threadId, threadId), q.before ? lt(aiMessages.id, q.before) : undefined))
    .orderBy(desc(aiMessages.id))
    .limit(q.limit + 1);
  const page = rows.slice(0, q.limit).reverse();
  return { success: true, messages: await Promise.all(page.map((m) => presentMessage(ctx, m))), hasMore: rows.length > q.limit };
}

/** DELETE /api/ai/threads/{id} (002 §7): the thread and its messages. @throws AppError NOT_FOUND when not the caller's. */
export async function deleteThread(ctx: AppContext, userId: number, threadId: string): Promise<void> {
  const gone = await ctx.database.db
    .delete(aiThreads)
    .where(and(eq(aiThreads.id, threadId), eq(aiThreads.userId, userId), eq(aiThreads.kind, 'chat')))
    .returning({ id: aiThreads.id });
  if (!gone.length) throw new AppError('NOT_FOUND', { message: 'thread not found' });
}

/** What one chat send carries (multipart fields of POST /api/ai/chat, 002 §7). */
export interface ChatSendInput {
  text: string;
  threadId?: string;
  /** The attached file's bytes, when there is one. */
  image?: Buffer;
}

/** Streaming hooks of a send (`Accept: text/event-stream`). */
export interface ChatSendHooks {
  /** The user's message is stored and charged; the model is about to be asked. */
  onStart?(e: { threadId: string; userMessage: ChatMessage; charged: number; credits: number }): void;
  onDelta?(text: string): void;
  /** Aborts the model call (the page's stop button closes the connection). */
  signal?: AbortSignal;
}

/** A thread's title: the first message's text, shortened; empty for an image-only start (the page names it). */
function threadTitle(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  if (!line) return '';
  return line.length > AI_LIMITS.threadTitleMax ? `${line.slice(0, AI_LIMITS.threadTitleMax - 1)}…` : line;
}

/** The newest HISTORY_MESSAGES messages of a thread as model turns; the newest HISTORY_IMAGES images attached. */
async function historyFor(ctx: AppContext, threadId: string): Promise<LlmMessage[]> {
  const rows = (await ctx.database.db.select().from(aiMessages).where(eq(aiMessages.threadId, threadId)).orderBy(desc(aiMessages.id)).limit(HISTORY_MESSAGES)).reverse();
  let imagesLeft = HISTORY_IMAGES;
  const withImages = new Set<number>();
  for (let i = rows.length - 1; i >= 0 && imagesLeft > 0; i--) {
    if (rows[i]!.imageKey) {
      withImages.add(rows[i]!.id);
      imagesLeft--;
    }
  }
  return Promise.all(
    rows.map(async (m): Promise<LlmMessage> => {
      let images: LlmImage[] | undefined;
      if (m.imageKey && withImages.has(m.id)) {
        const bytes = await ctx.storage.get(m.imageKey).catch(() => null);
        if (bytes) images = [await modelImage(bytes)];
      }
      const text = m.text || (images ? '(image)' : '');
      return { role: m.role, text, images };
    }),
  );
}

/**
 * POST /api/ai/chat (002 §4, §5, §7; issue 15), an inline metered call of the kernel (`chatOperation`,
 * decision 036). Order: model configured (else NOT_CONFIGURED), an Idempotency-Key replay, maintenance, a
 * text or an image (AI_EMPTY_MESSAGE), banned keywords (NSFW_PROMPT_BLOCKED), the thread is the caller's
 * (NOT_FOUND), the balance covers the cost, the image passes the upload checks (type by magic bytes, size,
 * pixel cap, NSFW screen) and is stored; then ONE transaction creates the thread when needed, stores the
 * user's message, records the call and charges `chatCost` credits (INSUFFICIENT_CREDITS rolls it all back).
 * The model answers with the thread's history; its answer is stored with the call's completion in one
 * transaction. A model failure (error, timeout, refusal, broken stream) refunds the charge and throws
 * AI_UNAVAILABLE / AI_TIMEOUT / AI_REFUSED. A stop by the caller (signal) keeps a partial answer (charged) or
 * refunds when nothing came.
 *
 * Idempotency-Key (`opts.idempotencyKey`; the request's fingerprint is its text, thread and the image's
 * bytes): a replay of a completed send answers its stored answer — streamed, as `start`, the whole answer in
 * one `delta`, `done` — without calling the model or charging; while the first send still runs, 409
 * REQUEST_IN_PROGRESS; after it failed, its error again; another body, 422 IDEMPOTENCY_KEY_REUSED.
 */
export async function sendChat(ctx: AppContext, userId: number, input: ChatSendInput, hooks: ChatSendHooks = {}, opts: { idempotencyKey?: string } = {}): Promise<ChatSendResponse> {
  const llm = requireLlm(ctx);
  const text = input.text.trim();
  const requestHash = requestFingerprint({ text, threadId: input.threadId ?? null, image: bytesHash(input.image) });
  const db = ctx.database.db;

  const res = await runMeteredCall(ctx, chatOperation, { userId }, { text, threadId: input.threadId, image: input.image }, { idempotencyKey: opts.idempotencyKey, requestHash }, {
    prepare: async () => {
      if (!text && !input.image) throw new AppError('AI_EMPTY_MESSAGE');
      await assertNoBannedKeyword(ctx, text);
      if (input.threadId) await ownThread(db, userId, input.threadId);
      const cost = chatCost(ctx);
      if (cost > 0 && (await balanceOf(ctx, userId)) < cost) throw new AppError('INSUFFICIENT_CREDITS');
      return { imageKey: input.image ? keyFromImageUrl(ctx, (await storeDirectUpload(ctx, userId, input.image, 'chat-image')).imageUrl) : null };
    },
    open: async (tx, call) => {
      let threadId = input.threadId;
      if (threadId) {
        // Lock the thread: a parallel delete cannot slip between the check and the insert.
        const locked = await tx.select({ id: aiThreads.id }).from(aiThreads).where(and(eq(aiThreads.id, threadId), eq(aiThreads.userId, userId))).for('update');
        if (!locked.length) throw new AppError('NOT_FOUND', { message: 'thread not found' });
        await tx.update(aiThreads).set({ updatedAt: new Date() }).where(eq(aiThreads.id, threadId));
      } else {
        const [t] = await tx.insert(aiThreads).values({ userId, kind: 'chat', title: threadTitle(text) }).returning({ id: aiThreads.id });
        threadId = t!.id;
      }
      const [userRow] = await tx.insert(aiMessages).values({ threadId, userId, role: 'user', text, imageKey: call.prepared.imageKey }).returning();
      return { threadId, userRow: userRow! };
    },
    run: async (call) => {
      const { threadId } = call.state;
      const userMessage = await presentMessage(ctx, call.state.userRow);
      hooks.onStart?.({ threadId, userMessage, charged: call.cost, credits: call.credits });
      let partial = '';
      try {
        const history = await historyFor(ctx, threadId);
        const answer = await llm.chat([{ role: 'system', text: CHAT_SYSTEM_PROMPT }, ...history], {
          signal: hooks.signal,
          onDelta: hooks.onDelta
            ? (d) => {
                partial += d;
                hooks.onDelta!(d);
              }
            : undefined,
        });
        return { answer, userMessage };
      } catch (err) {
        // A stop after some text keeps that text as the (charged) answer; anything else refunds.
        if (err instanceof LlmError && err.failure === 'aborted' && partial.trim()) return { answer: partial.trim(), userMessage };
        throw err;
      }
    },
    finish: async (tx, call, { answer, userMessage }) => {
      const { threadId } = call.state;
      const alive = await tx.select({ id: aiThreads.id }).from(aiThreads).where(eq(aiThreads.id, threadId)).for('update');
      let message: ChatMessage = { id: 0, role: 'assistant', text: answer, image_url: null, created_at: new Date().toISOString() };
      if (alive.length) {
        await tx.update(aiThreads).set({ updatedAt: new Date() }).where(eq(aiThreads.id, threadId));
        const [row] = await tx.insert(aiMessages).values({ threadId, userId, role: 'assistant', text: answer }).returning();
        message = await presentMessage(ctx, row!);
      }
      return { success: true as const, threadId, message, userMessage, charged: call.cost };
    },
  });
  const credits = await balanceOf(ctx, userId);
  if (res.replayed) {
    hooks.onStart?.({ threadId: res.answer.threadId, userMessage: res.answer.userMessage, charged: res.answer.charged, credits });
    if (res.answer.message.text) hooks.onDelta?.(res.answer.message.text);
  }
  return { ...res.answer, credits };
}
