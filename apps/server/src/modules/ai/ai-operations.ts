import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AI_COSTS, AI_LIMITS, AutoPromptRequestSchema, RewriteRequestSchema, type ErrorCode } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { LlmError, type LlmProvider } from '../../providers/llm';
import { bannedKeywords } from '../settings';
import { getBalance } from '../credits';
import { defineMeteredOperation, refundUnconfirmedMeteredCalls } from '../tool-jobs';

/**
 * The AI text tools as metered operations of the kernel (decisions 022 and 036): each model call runs
 * inside the request through `runMeteredCall` (modules/tool-jobs/metered-call.ts), which prices it on the
 * server, charges it with its record in one transaction and refunds a failure once. This file declares
 * the four operations and what they share (the model, its error codes, banned keywords).
 */

/** Whether a chat send costs credits now (AI_CHAT_CHARGE_ENABLED; 002 §4): AI_COSTS.chat or 0. */
export function chatCost(ctx: Pick<AppContext, 'config'>): number {
  return ctx.config.llm.chatChargeEnabled ? AI_COSTS.chat : 0;
}

/** The error code a failed model call answers with (decision 022). */
export function llmErrorCode(err: unknown): ErrorCode {
  if (err instanceof AppError) return err.code;
  if (err instanceof LlmError) {
    if (err.failure === 'refused') return 'AI_REFUSED';
    if (err.failure === 'timeout') return 'AI_TIMEOUT';
    return 'AI_UNAVAILABLE';
  }
  return 'INTERNAL';
}

const bytesSchema = z.custom<Buffer>((v) => Buffer.isBuffer(v), { message: 'bytes expected' });

/** A chat send as the kernel prices it: the trimmed text, the thread to continue, the attached image's bytes. */
export const ChatCallInputSchema = z.object({ text: z.string(), threadId: z.string().optional(), image: bytesSchema.optional() });

/** POST /api/ai/chat: AI_COSTS.chat (3) credits while AI_CHAT_CHARGE_ENABLED, else free. */
export const chatOperation = defineMeteredOperation({ name: 'chat', input: ChatCallInputSchema, cost: (_input, app) => chatCost(app), failureCode: llmErrorCode });

/**
 * POST /api/ai/rewrite: AI_COSTS.rewrite (3) credits, charged with the call; the page confirms that it applied
 * the result (POST /api/credit/use) within AI_LIMITS.creditUseWindowMs, else housekeeping refunds it.
 */
export const rewriteOperation = defineMeteredOperation({
  name: 'rewrite',
  input: RewriteRequestSchema,
  cost: () => AI_COSTS.rewrite,
  failureCode: llmErrorCode,
  confirmation: { windowMs: AI_LIMITS.creditUseWindowMs },
});

/** POST /api/seedream/auto-prompt: AI_COSTS.autoPrompt (5) credits. */
export const autoPromptOperation = defineMeteredOperation({ name: 'auto_prompt', input: AutoPromptRequestSchema, cost: () => AI_COSTS.autoPrompt, failureCode: llmErrorCode });

/** POST /api/ai/extract-prompt-from-image: free (the spec lists no cost, decision 022), recorded all the same. */
export const extractPromptOperation = defineMeteredOperation({ name: 'extract_prompt', input: z.object({ image: bytesSchema }), cost: () => 0, failureCode: llmErrorCode });

/** SHA-256 (hex) of a request's file: what an Idempotency-Key's fingerprint holds instead of the bytes. */
export function bytesHash(bytes: Buffer | undefined): string | null {
  return bytes ? createHash('sha256').update(bytes).digest('hex') : null;
}

/** How long a pending call may take before housekeeping refunds it: every attempt's timeout plus a margin (ms). */
export function staleMeteredCallAgeMs(config: AppContext['config']): number {
  return config.llm.timeoutMs * (config.llm.maxRetries + 1) * 2 + 5 * 60_000;
}

/**
 * Housekeeping (decision 022, issue 21 point 15): rewrites still unconfirmed AI_LIMITS.creditUseWindowMs after
 * they completed are refunded once (`refundUnconfirmedMeteredCalls` of the rewrite operation).
 * @param opts.now the clock (tests); opts.windowMs the window (default AI_LIMITS.creditUseWindowMs); opts.limit calls per sweep
 * @returns the ids (`rewriteId`s) this sweep refunded
 */
export async function refundUnconfirmedRewrites(ctx: Pick<AppContext, 'database'>, opts: { now?: Date; windowMs?: number; limit?: number } = {}): Promise<string[]> {
  return refundUnconfirmedMeteredCalls(ctx, rewriteOperation, opts);
}

/** The configured model. @throws AppError NOT_CONFIGURED when LLM_MODEL is unset (nothing is charged). */
export function requireLlm(ctx: Pick<AppContext, 'engines'>): LlmProvider {
  const llm = ctx.engines.find('llm');
  if (!llm) throw new AppError('NOT_CONFIGURED', { message: 'no language model configured (LLM_MODEL)' });
  return llm;
}

/**
 * Refuses text holding a banned keyword (002 §5: case-insensitive, the server's list) before any vendor
 * call or charge. @throws AppError NSFW_PROMPT_BLOCKED
 */
export async function assertNoBannedKeyword(ctx: Pick<AppContext, 'database'>, ...texts: (string | undefined)[]): Promise<void> {
  const words = await bannedKeywords(ctx);
  const hay = texts.filter(Boolean).join('\n').toLowerCase();
  if (words.some((w) => w && hay.includes(w.toLowerCase()))) throw new AppError('NSFW_PROMPT_BLOCKED');
}

/** The caller's total balance (credits). */
export async function balanceOf(ctx: Pick<AppContext, 'database'>, userId: number): Promise<number> {
  return (await getBalance(ctx.database.db, userId)).total;
}
