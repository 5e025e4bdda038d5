import { and, desc, eq, gt, sql } from 'drizzle-orm';
import {
  AI_COSTS,
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
import { aiMessages, aiRequests, aiThreads } from '../../db/schema';
import { AppError } from '../../lib/app-error';
import type { LlmMessage } from '../../providers/llm';
import { readableKeyFromUrl } from '../images/images.service';
import { assertNotInMaintenance } from '../settings/settings.service';
import { prepareOriginal } from '../uploads/image-reencode';
import { modelImage } from './ai-images';
import { assertNoBannedKeyword, balanceOf, beginAiRequest, completeAiRequest, llmErrorCode, lockUser, refundAiRequest, requireLlm } from './ai-requests';
import { ownThread } from './chat.service';
import { AUTO_PROMPT_SYSTEM_PROMPT, EXTRACT_SYSTEM_PROMPT, REWRITE_SYSTEM_PROMPT, autoPromptUserText, cleanPrompt, rewriteUserText } from './prompts';

/** Earlier turns of a rewrite thread sent with the next rewrite. */
const REWRITE_HISTORY = 10;

/**
 * Runs a paid model call: `call` gets the request id once the charge is made; on success `finish` stores
 * the result in the transaction that completes the request; on failure the charge is refunded and the
 * model's failure is thrown as AI_REFUSED / AI_TIMEOUT / AI_UNAVAILABLE.
 */
async function paidCall<T>(
  ctx: AppContext,
  requestId: string,
  call: () => Promise<string>,
  finish: (tx: Parameters<Parameters<AppContext['database']['db']['transaction']>[0]>[0], text: string) => Promise<T>,
): Promise<T> {
  let text: string;
  try {
    text = cleanPrompt(await call());
    if (!text) throw new AppError('AI_UNAVAILABLE', { message: 'empty prompt' });
  } catch (err) {
    const code = llmErrorCode(err);
    await refundAiRequest(ctx.database.db, requestId, code);
    ctx.log.warn({ err, requestId, code }, 'ai model call failed; refunded');
    throw err instanceof AppError ? err : new AppError(code, { message: 'model call failed', cause: err });
  }
  return ctx.database.db.transaction(async (tx) => {
    await completeAiRequest(tx, requestId);
    return finish(tx, text);
  });
}

/**
 * POST /api/ai/rewrite (002 §4 "Edit tab", §5, §7): applies the instruction `userPrompt` to `currentPrompt`
 * for AI_COSTS.rewrite (3) credits. The exchange is kept in a rewrite thread (`threadId`, created when absent)
 * so that a next instruction continues it. The charge, the request and the instruction are one transaction;
 * the result and the completion another; a model failure refunds.
 * @throws AppError NOT_CONFIGURED, AI_PROMPT_EMPTY, NSFW_PROMPT_BLOCKED, NOT_FOUND (another's thread),
 *   INSUFFICIENT_CREDITS, AI_REFUSED, AI_TIMEOUT, AI_UNAVAILABLE
 */
export async function rewritePrompt(ctx: AppContext, userId: number, req: RewriteRequest): Promise<RewriteResponse> {
  const llm = requireLlm(ctx);
  await assertNotInMaintenance(ctx);
  const instruction = req.userPrompt.trim();
  if (!instruction) throw new AppError('AI_PROMPT_EMPTY');
  await assertNoBannedKeyword(ctx, instruction, req.currentPrompt);
  const db = ctx.database.db;
  if (req.threadId) await ownThread(db, userId, req.threadId, 'rewrite');
  const userText = rewriteUserText(instruction, req.currentPrompt.trim());

  const { threadId, requestId } = await db.transaction(async (tx) => {
    await lockUser(tx, userId);
    let threadId = req.threadId || '';
    if (threadId) await tx.update(aiThreads).set({ updatedAt: new Date() }).where(eq(aiThreads.id, threadId));
    else threadId = (await tx.insert(aiThreads).values({ userId, kind: 'rewrite', title: instruction.slice(0, AI_LIMITS.threadTitleMax) }).returning({ id: aiThreads.id }))[0]!.id;
    await tx.insert(aiMessages).values({ threadId, userId, role: 'user', text: userText });
    const requestId = await beginAiRequest(tx, { userId, kind: 'rewrite', cost: AI_COSTS.rewrite, threadId });
    return { threadId, requestId };
  });

  const history = (await db.select().from(aiMessages).where(eq(aiMessages.threadId, threadId)).orderBy(desc(aiMessages.id)).limit(REWRITE_HISTORY)).reverse();
  const turns: LlmMessage[] = [{ role: 'system', text: REWRITE_SYSTEM_PROMPT }, ...history.map((m) => ({ role: m.role, text: m.text }))];
  const rewrittenPrompt = await paidCall(ctx, requestId, () => llm.chat(turns), async (tx, text) => {
    await tx.insert(aiMessages).values({ threadId, userId, role: 'assistant', text });
    return text;
  });
  return { success: true, rewrittenPrompt, threadId, rewriteId: requestId, charged: AI_COSTS.rewrite, credits: await balanceOf(ctx, userId) };
}

/**
 * POST /api/ai/extract-prompt-from-image (002 §4 prompt lock, §7): the raw bytes of a reference image →
 * a prompt describing it. The bytes pass the upload checks (type by magic bytes, size, pixel cap before
 * decoding, NSFW screen) and are not stored. Free (the spec lists no cost; decision 022).
 * @throws AppError NOT_CONFIGURED, UNSUPPORTED_IMAGE_TYPE, IMAGE_TOO_LARGE, IMAGE_TOO_MANY_PIXELS, IMAGE_CORRUPT,
 *   NSFW_CONTENT_DETECTED, AI_REFUSED, AI_TIMEOUT, AI_UNAVAILABLE
 */
export async function extractPromptFromImage(ctx: AppContext, userId: number, bytes: Buffer): Promise<ExtractPromptResponse> {
  const llm = requireLlm(ctx);
  await assertNotInMaintenance(ctx);
  if (bytes.length > AI_LIMITS.extractMaxBytes) throw new AppError('IMAGE_TOO_LARGE');
  const prepared = await prepareOriginal(bytes);
  await screen(ctx, userId, prepared.bytes);
  try {
    const prompt = cleanPrompt(await llm.describe(EXTRACT_SYSTEM_PROMPT, 'Write the prompt for this image.', [await modelImage(prepared.bytes)]));
    if (!prompt) throw new AppError('AI_UNAVAILABLE', { message: 'empty prompt' });
    return { success: true, prompt };
  } catch (err) {
    const code = llmErrorCode(err);
    ctx.log.warn({ err, userId, code }, 'prompt extraction failed');
    throw err instanceof AppError ? err : new AppError(code, { cause: err });
  }
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
 * POST /api/seedream/auto-prompt (002 §4 image-edit run, §5, §7, §9): up to 4 of the caller's own images
 * (URLs this server handed out: confirmed uploads or job results — read from our storage, never fetched
 * from the URL, so no request leaves for an address a client chose) and notes → one edit prompt, for
 * AI_COSTS.autoPrompt (5) credits, charged in one transaction, refunded when the model fails.
 * @throws AppError NOT_CONFIGURED, NSFW_PROMPT_BLOCKED, VALIDATION_FAILED / FORBIDDEN / NOT_FOUND (an image
 *   that is not the caller's), INSUFFICIENT_CREDITS, AI_REFUSED, AI_TIMEOUT, AI_UNAVAILABLE
 */
export async function autoPrompt(ctx: AppContext, userId: number, req: AutoPromptRequest): Promise<AutoPromptResponse> {
  const llm = requireLlm(ctx);
  await assertNotInMaintenance(ctx);
  await assertNoBannedKeyword(ctx, req.userNotes);
  const keys = await Promise.all(req.images.map((url, i) => readableKeyFromUrl(ctx, userId, url, `images.${i}`)));
  const images = await Promise.all(
    keys.map(async (k) => {
      const bytes = await ctx.storage.get(k).catch(() => null);
      if (!bytes) throw new AppError('NOT_FOUND', { message: 'image gone' });
      return modelImage(bytes);
    }),
  );
  const requestId = await ctx.database.db.transaction((tx) => beginAiRequest(tx, { userId, kind: 'auto_prompt', cost: AI_COSTS.autoPrompt }));
  const prompt = await paidCall(ctx, requestId, () => llm.describe(AUTO_PROMPT_SYSTEM_PROMPT, autoPromptUserText(images.length, req.userNotes.trim()), images), async (_tx, text) => text);
  return { success: true, prompt, charged: AI_COSTS.autoPrompt, credits: await balanceOf(ctx, userId) };
}

/**
 * POST /api/credit/use {amount: 3} (002 §7; decision 022). Never a charge of its own: it confirms the charge a
 * successful rewrite already made — the rewrite `rewriteId`, or else the caller's latest rewrite of the last
 * AI_LIMITS.creditUseWindowMs. Repeating it is a no-op that answers the same. `amount` other than 3 is
 * refused by the schema (VALIDATION_FAILED). A rewrite left unconfirmed past that window is refunded by
 * housekeeping (`refundUnconfirmedRewrites`); confirming it afterwards answers NOTHING_TO_CHARGE, and the
 * confirmation and the refund are both conditional, so exactly one of them wins.
 * @throws AppError NOTHING_TO_CHARGE when there is no such completed rewrite of the caller (or it was refunded).
 */
export async function confirmRewriteCharge(ctx: AppContext, userId: number, req: CreditUseRequest): Promise<CreditUseResponse> {
  const db = ctx.database.db;
  const mine = and(eq(aiRequests.userId, userId), eq(aiRequests.kind, 'rewrite'), eq(aiRequests.status, 'completed'));
  const rows = req.rewriteId
    ? await db.select().from(aiRequests).where(and(mine, eq(aiRequests.id, req.rewriteId)))
    : await db
        .select()
        .from(aiRequests)
        .where(and(mine, gt(aiRequests.createdAt, sql`now() - make_interval(secs => ${AI_LIMITS.creditUseWindowMs / 1000})`)))
        .orderBy(desc(aiRequests.createdAt))
        .limit(1);
  const row = rows[0];
  if (!row) throw new AppError('NOTHING_TO_CHARGE');
  if (!row.confirmedAt) {
    // Conditional on the charge still standing: the unconfirmed-rewrite sweep may have refunded it meanwhile.
    const confirmed = await db
      .update(aiRequests)
      .set({ confirmedAt: new Date() })
      .where(and(eq(aiRequests.id, row.id), eq(aiRequests.status, 'completed'), sql`${aiRequests.confirmedAt} is null`))
      .returning({ id: aiRequests.id });
    if (!confirmed.length) {
      const now = (await db.select({ confirmedAt: aiRequests.confirmedAt }).from(aiRequests).where(eq(aiRequests.id, row.id)))[0];
      if (!now?.confirmedAt) throw new AppError('NOTHING_TO_CHARGE', { message: 'rewrite refunded before it was confirmed' });
    }
  }
  return { success: true, rewriteId: row.id, amount: row.cost, alreadyCharged: true, credits: await balanceOf(ctx, userId) };
}
