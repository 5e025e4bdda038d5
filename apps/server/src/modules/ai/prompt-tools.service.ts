import { and, desc, eq, gt, sql } from 'drizzle-orm';
import {
  AI_LIMITS,
  type AutoPromptRequest,
  type AutoPromptResponse,
  type CreditUseRequest,
  type CreditUseResponse,
  type ExtractPromptResponse,
  type RewriteRequest,
  type RewriteResponse,
} from '@dewy/contracts';
import type { AppContext } from '../../context';
import { aiMessages, aiThreads, meteredCalls } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { LlmMessage } from '../../providers/llm';
import { readableKeyFromUrl } from '../images';
import { confirmMeteredCall, runMeteredCall, requestFingerprint } from '../tool-jobs';
import { prepareOriginal, webpToPng } from '../uploads';
import { modelImage } from './ai-images';
import { assertNoBannedKeyword, autoPromptOperation, balanceOf, bytesHash, extractPromptOperation, requireLlm, rewriteOperation } from './ai-operations';
import { ownThread } from './chat.service';
import { AUTO_PROMPT_SYSTEM_PROMPT, EXTRACT_SYSTEM_PROMPT, REWRITE_SYSTEM_PROMPT, autoPromptUserText, cleanPrompt, rewriteUserText } from './prompts';

/** Earlier turns of a rewrite thread sent with the next rewrite. */
const REWRITE_HISTORY = 10;

/** A model's answer as a prompt (cleaned); an empty one is a failure (AI_UNAVAILABLE, refunded). */
function promptOf(text: string): string {
  const prompt = cleanPrompt(text);
  if (!prompt) throw new AppError('AI_UNAVAILABLE', { message: 'empty prompt' });
  return prompt;
}

/** Options of a paid AI call: the caller's Idempotency-Key (decision 036). */
export interface AiCallOptions {
  idempotencyKey?: string;
}

/**
 * POST /api/ai/rewrite (002 §4 "Edit tab", §5, §7), an inline metered call (`rewriteOperation`, decision 036):
 * applies the instruction `userPrompt` to `currentPrompt` for AI_COSTS.rewrite (3) credits, charged with the
 * call; the page then confirms it applied the result (POST /api/credit/use), else housekeeping refunds it after
 * AI_LIMITS.creditUseWindowMs. The exchange is kept in a rewrite thread (`threadId`, created when absent) so that
 * a next instruction continues it. The charge, the call's record and the instruction are one transaction; the
 * result and the completion another; a model failure refunds. `opts.idempotencyKey`: a replay answers the first
 * rewrite (same `rewriteId`) without charging again.
 * @throws AppError NOT_CONFIGURED, AI_PROMPT_EMPTY, NSFW_PROMPT_BLOCKED, NOT_FOUND (another's thread),
 *   INSUFFICIENT_CREDITS, AI_REFUSED, AI_TIMEOUT, AI_UNAVAILABLE, IDEMPOTENCY_KEY_REUSED, REQUEST_IN_PROGRESS
 */
export async function rewritePrompt(ctx: AppContext, userId: number, req: RewriteRequest, opts: AiCallOptions = {}): Promise<RewriteResponse> {
  const llm = requireLlm(ctx);
  const db = ctx.database.db;
  const instruction = req.userPrompt.trim();
  const userText = rewriteUserText(instruction, req.currentPrompt.trim());
  const res = await runMeteredCall(ctx, rewriteOperation, { userId }, req, opts, {
    prepare: async () => {
      if (!instruction) throw new AppError('AI_PROMPT_EMPTY');
      await assertNoBannedKeyword(ctx, instruction, req.currentPrompt);
      if (req.threadId) await ownThread(db, userId, req.threadId, 'rewrite');
    },
    open: async (tx) => {
      let threadId = req.threadId || '';
      if (threadId) await tx.update(aiThreads).set({ updatedAt: new Date() }).where(eq(aiThreads.id, threadId));
      else threadId = (await tx.insert(aiThreads).values({ userId, kind: 'rewrite', title: instruction.slice(0, AI_LIMITS.threadTitleMax) }).returning({ id: aiThreads.id }))[0]!.id;
      await tx.insert(aiMessages).values({ threadId, userId, role: 'user', text: userText });
      return { threadId };
    },
    run: async (call) => {
      const history = (await db.select().from(aiMessages).where(eq(aiMessages.threadId, call.state.threadId)).orderBy(desc(aiMessages.id)).limit(REWRITE_HISTORY)).reverse();
      const turns: LlmMessage[] = [{ role: 'system', text: REWRITE_SYSTEM_PROMPT }, ...history.map((m) => ({ role: m.role, text: m.text }))];
      return promptOf(await llm.chat(turns));
    },
    finish: async (tx, call, text) => {
      await tx.insert(aiMessages).values({ threadId: call.state.threadId, userId, role: 'assistant', text });
      return { success: true as const, rewrittenPrompt: text, threadId: call.state.threadId, rewriteId: call.id, charged: call.cost };
    },
  });
  return { ...res.answer, credits: await balanceOf(ctx, userId) };
}

/**
 * POST /api/ai/extract-prompt-from-image (002 §4 prompt lock, §7): the raw bytes of a reference image →
 * a prompt describing it, an inline metered call (`extractPromptOperation`: free, recorded). JPEG, PNG or
 * WebP (the types the generation page accepts, 002 §5; WebP is converted to PNG). The bytes pass
 * the upload checks (type by magic bytes, size, pixel cap before decoding, NSFW screen) and are not stored.
 * Free (the spec lists no cost; decision 022). `opts.idempotencyKey` (fingerprint: the bytes' hash): a replay
 * answers the first prompt without calling the model again.
 * @throws AppError NOT_CONFIGURED, UNSUPPORTED_IMAGE_TYPE, IMAGE_TOO_LARGE, IMAGE_TOO_MANY_PIXELS, IMAGE_CORRUPT,
 *   NSFW_CONTENT_DETECTED, AI_REFUSED, AI_TIMEOUT, AI_UNAVAILABLE
 */
export async function extractPromptFromImage(ctx: AppContext, userId: number, bytes: Buffer, opts: AiCallOptions = {}): Promise<ExtractPromptResponse> {
  const llm = requireLlm(ctx);
  const res = await runMeteredCall(ctx, extractPromptOperation, { userId }, { image: bytes }, { ...opts, requestHash: requestFingerprint({ image: bytesHash(bytes) }) }, {
    prepare: async () => {
      if (bytes.length > AI_LIMITS.extractMaxBytes) throw new AppError('IMAGE_TOO_LARGE');
      // Every type the generation page accepts as a reference (002 §5): WebP becomes PNG first.
      const prepared = await prepareOriginal(await webpToPng(bytes));
      await screen(ctx, userId, prepared.bytes);
      return { image: await modelImage(prepared.bytes) };
    },
    run: async (call) => promptOf(await llm.describe(EXTRACT_SYSTEM_PROMPT, 'Write the prompt for this image.', [call.prepared.image])),
    finish: async (_tx, _call, prompt) => ({ success: true as const, prompt }),
  });
  return res.answer;
}

async function screen(ctx: AppContext, userId: number, image: Buffer): Promise<void> {
  const verdict = await ctx.moderator.screen(image).catch((err: unknown) => {
    throw new AppError('INTERNAL', { message: 'screening failed', cause: err });
  });
  if (verdict.flagged) {
    ctx.log.warn({ userId, scores: verdict.scores }, 'ai image refused by the content screen');
    throw new AppError('NSFW_CONTENT_DETECTED');
  }
}

/**
 * POST /api/seedream/auto-prompt (002 §4 image-edit run, §5, §7, §9), an inline metered call
 * (`autoPromptOperation`, decision 036): up to 4 of the caller's own images (URLs this server handed out:
 * confirmed uploads or job results — read from our storage, never fetched from the URL, so no request leaves
 * for an address a client chose) and notes → one edit prompt, for AI_COSTS.autoPrompt (5) credits, charged with
 * the call's record in one transaction, refunded when the model fails. `opts.idempotencyKey`: a replay answers
 * the first prompt without charging again.
 * @throws AppError NOT_CONFIGURED, NSFW_PROMPT_BLOCKED, VALIDATION_FAILED / FORBIDDEN / NOT_FOUND (an image
 *   that is not the caller's), INSUFFICIENT_CREDITS, AI_REFUSED, AI_TIMEOUT, AI_UNAVAILABLE,
 *   IDEMPOTENCY_KEY_REUSED, REQUEST_IN_PROGRESS
 */
export async function autoPrompt(ctx: AppContext, userId: number, req: AutoPromptRequest, opts: AiCallOptions = {}): Promise<AutoPromptResponse> {
  const llm = requireLlm(ctx);
  const res = await runMeteredCall(ctx, autoPromptOperation, { userId }, req, opts, {
    prepare: async () => {
      await assertNoBannedKeyword(ctx, req.userNotes);
      const keys = await Promise.all(req.images.map((url, i) => readableKeyFromUrl(ctx, userId, url, `images.${i}`)));
      const images = await Promise.all(
        keys.map(async (k) => {
          const bytes = await ctx.storage.get(k).catch(() => null);
          if (!bytes) throw new AppError('NOT_FOUND', { message: 'image gone' });
          return modelImage(bytes);
        }),
      );
      return { images };
    },
    run: async (call) => promptOf(await llm.describe(AUTO_PROMPT_SYSTEM_PROMPT, autoPromptUserText(call.prepared.images.length, req.userNotes.trim()), call.prepared.images)),
    finish: async (_tx, call, prompt) => ({ success: true as const, prompt, charged: call.cost }),
  });
  return { ...res.answer, credits: await balanceOf(ctx, userId) };
}

/**
 * POST /api/credit/use {amount: 3} (002 §7; decision 022). Never a charge of its own: it confirms the charge a
 * successful rewrite already made — the rewrite `rewriteId`, or else the caller's latest rewrite of the last
 * AI_LIMITS.creditUseWindowMs. Repeating it is a no-op that answers the same. `amount` other than 3 is
 * refused by the schema (VALIDATION_FAILED). A rewrite left unconfirmed past that window is refunded by
 * housekeeping (`refundUnconfirmedRewrites`); confirming it afterwards answers NOTHING_TO_CHARGE, and the
 * confirmation and the refund are both conditional (`confirmMeteredCall`), so exactly one of them wins.
 * @throws AppError NOTHING_TO_CHARGE when there is no such completed rewrite of the caller (or it was refunded).
 */
export async function confirmRewriteCharge(ctx: AppContext, userId: number, req: CreditUseRequest): Promise<CreditUseResponse> {
  const db = ctx.database.db;
  const mine = and(eq(meteredCalls.userId, userId), eq(meteredCalls.operation, rewriteOperation.name), eq(meteredCalls.status, 'completed'));
  const rows = req.rewriteId
    ? await db.select().from(meteredCalls).where(and(mine, eq(meteredCalls.id, req.rewriteId)))
    : await db
        .select()
        .from(meteredCalls)
        .where(and(mine, gt(meteredCalls.createdAt, sql`now() - make_interval(secs => ${AI_LIMITS.creditUseWindowMs / 1000})`)))
        .orderBy(desc(meteredCalls.createdAt))
        .limit(1);
  const row = rows[0];
  if (!row) throw new AppError('NOTHING_TO_CHARGE');
  // Conditional on the charge still standing: the unconfirmed-rewrite sweep may have refunded it meanwhile.
  if (!row.confirmedAt && !(await confirmMeteredCall(db, row.id))) throw new AppError('NOTHING_TO_CHARGE', { message: 'rewrite refunded before it was confirmed' });
  return { success: true, rewriteId: row.id, amount: row.cost, alreadyCharged: true, credits: await balanceOf(ctx, userId) };
}
