import { z } from 'zod';
import { imageUrlText, safeText } from './text';

/**
 * AI text tools (spec 002 §3, §4, §5, §7, §9; issue 15): the prompt chat, the consistency prompt rewrite,
 * prompt extraction from a reference image and the image-edit auto prompt. Declared once for the server,
 * the chat page and the tool pages (image edit, image generation) that call these routes.
 */

/** Credit costs (spec 002 §9). Chat costs `chat` only while charging is enabled (`GET /api/ai/chat/charge-enabled`). */
export const AI_COSTS = {
  /** One chat send, when charging is enabled (otherwise free, "beta"). */
  chat: 3,
  /** One consistency "Edit" rewrite. */
  rewrite: 3,
  /** One image-edit auto prompt. */
  autoPrompt: 5,
  /** Prompt extraction from a reference image: the spec lists no cost (decision 022). */
  extractPrompt: 0,
} as const;

/** Limits (spec 002 §9 for the page sizes and the 4 auto-prompt images; the rest are ours, decision 022). */
export const AI_LIMITS = {
  /** Chat thread page size (002 §9). */
  threadPageSize: 50,
  /** Chat message page size (002 §9). */
  messagePageSize: 100,
  /** Characters of one chat message. */
  chatTextMax: 4000,
  /** Characters of a prompt or instruction sent to rewrite / auto prompt. */
  promptMax: 4000,
  /** Images sent to auto prompt (002 §5: at most 4). */
  autoPromptMaxImages: 4,
  /** Bytes of the raw body of extract-prompt-from-image (the image-edit upload limit, 002 §9: 9 MB). */
  extractMaxBytes: 9_437_184,
  /** Thread titles are the first characters of the first message. */
  threadTitleMax: 60,
  /** A rewrite may be confirmed by POST /api/credit/use for this long after it was made (ms). */
  creditUseWindowMs: 15 * 60_000,
} as const;

/** The optional thread id of a chat or rewrite call (our thread ids are UUIDs). */
const ThreadIdSchema = z.string().uuid();

/** Multipart fields of POST /api/ai/chat besides the file `image` (002 §7). */
export const ChatSendFieldsSchema = z.object({
  text: safeText({ multiline: true }).max(AI_LIMITS.chatTextMax).default(''),
  threadId: z.union([ThreadIdSchema, z.literal('')]).optional(),
});
export type ChatSendFields = z.infer<typeof ChatSendFieldsSchema>;

// The answers of the AI text calls are declared on their routes (decision 038: the contract carries them).

/** A chat message as the page reads it (002 §3: role, text, image_url). */
export const ChatMessageSchema = z.object({
  id: z.number().int(),
  role: z.enum(['user', 'assistant']),
  text: z.string(),
  /** Signed view URL of the attached image, or null. */
  image_url: z.string().nullable(),
  created_at: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** A chat thread (002 §3: id, title). */
export const ChatThreadSchema = z.object({
  id: z.string(),
  title: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ChatThread = z.infer<typeof ChatThreadSchema>;

/** GET /api/ai/threads?limit=50&cursor= (002 §7). `nextCursor` is null on the last page. */
export const ThreadListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(AI_LIMITS.threadPageSize).default(AI_LIMITS.threadPageSize),
  cursor: safeText().max(200).optional(),
});
export const ThreadListResponseSchema = z.object({
  success: z.literal(true),
  threads: z.array(ChatThreadSchema),
  nextCursor: z.string().nullable(),
});
export type ThreadListResponse = z.infer<typeof ThreadListResponseSchema>;

/** GET /api/ai/threads/{id}/messages?limit=100[&before=<message id>]: the newest page, oldest first. */
export const MessageListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(AI_LIMITS.messagePageSize).default(AI_LIMITS.messagePageSize),
  before: z.coerce.number().int().positive().optional(),
});
export const MessageListResponseSchema = z.object({
  success: z.literal(true),
  messages: z.array(ChatMessageSchema),
  /** Older messages exist: ask again with `before` = the first message's id. */
  hasMore: z.boolean(),
});
export type MessageListResponse = z.infer<typeof MessageListResponseSchema>;

export const ThreadIdParamsSchema = z.object({ id: ThreadIdSchema });

/** DELETE /api/ai/threads/{id} (002 §7: success). */
export const ThreadDeleteResponseSchema = z.object({ success: z.literal(true) });
export type ThreadDeleteResponse = z.infer<typeof ThreadDeleteResponseSchema>;

/** GET /api/ai/chat/charge-enabled (002 §7). `cost` is what one send costs while enabled. */
export const ChargeEnabledResponseSchema = z.object({
  success: z.literal(true),
  enabled: z.boolean(),
  cost: z.number().int(),
  /** False when no language model is configured: the page says the tool is not configured. */
  configured: z.boolean(),
});
export type ChargeEnabledResponse = z.infer<typeof ChargeEnabledResponseSchema>;

/** POST /api/ai/chat answer (002 §7: success, threadId, message). */
export interface ChatSendResponse {
  success: true;
  threadId: string;
  /** The assistant's reply. */
  message: ChatMessage;
  /** The user's message as stored (with its signed image URL). */
  userMessage: ChatMessage;
  /** Credits charged for this send (0 while charging is off). */
  charged: number;
  /** The caller's balance after the send. */
  credits: number;
}

/**
 * Events of POST /api/ai/chat with `Accept: text/event-stream` (ours, issue 15): `start` once the user's
 * message is stored and charged, `delta` per piece of text, then `done` (same body as the JSON answer) or
 * `error` (`{success:false, code, error, message, credits}` — the charge is refunded by then).
 */
export type ChatStreamEvent =
  | { event: 'start'; data: { threadId: string; userMessage: ChatMessage; charged: number; credits: number } }
  | { event: 'delta'; data: { text: string } }
  | { event: 'done'; data: ChatSendResponse }
  | { event: 'error'; data: { success: false; code: string; error: string; message: string; credits: number } };

/** POST /api/ai/rewrite (002 §4, §7): the instruction, the prompt to rewrite, the rewrite thread to continue. */
export const RewriteRequestSchema = z.object({
  // Empty is refused by the server with AI_PROMPT_EMPTY (002 §5), not a generic validation error.
  userPrompt: safeText({ multiline: true }).trim().max(AI_LIMITS.promptMax),
  currentPrompt: safeText({ multiline: true }).max(AI_LIMITS.promptMax).default(''),
  threadId: z.union([ThreadIdSchema, z.literal(''), z.null()]).optional(),
});
export type RewriteRequest = z.infer<typeof RewriteRequestSchema>;
export const RewriteResponseSchema = z.object({
  success: z.literal(true),
  rewrittenPrompt: z.string(),
  threadId: z.string(),
  /** The rewrite's charge; POST /api/credit/use with it confirms (never repeats) that charge. */
  rewriteId: z.string(),
  charged: z.number().int(),
  credits: z.number().int(),
});
export type RewriteResponse = z.infer<typeof RewriteResponseSchema>;

/** POST /api/ai/extract-prompt-from-image answer (002 §7: success, prompt). Body: the image's raw bytes. */
export const ExtractPromptResponseSchema = z.object({
  success: z.literal(true),
  prompt: z.string(),
});
export type ExtractPromptResponse = z.infer<typeof ExtractPromptResponseSchema>;

/** POST /api/seedream/auto-prompt (002 §5, §7): up to 4 image URLs of the caller's own images + notes. */
export const AutoPromptRequestSchema = z.object({
  images: z.array(imageUrlText(4096)).min(1).max(AI_LIMITS.autoPromptMaxImages),
  userNotes: safeText({ multiline: true }).max(AI_LIMITS.promptMax).default(''),
});
export type AutoPromptRequest = z.infer<typeof AutoPromptRequestSchema>;
export const AutoPromptResponseSchema = z.object({
  success: z.literal(true),
  prompt: z.string(),
  charged: z.number().int(),
  credits: z.number().int(),
});
export type AutoPromptResponse = z.infer<typeof AutoPromptResponseSchema>;

/**
 * POST /api/credit/use (002 §7: JSON with amount 3). Never a charge of its own (decision 022): it confirms
 * the charge a successful rewrite already made — `rewriteId` names it, else the caller's latest rewrite of
 * the last 15 minutes. Repeating it changes nothing.
 */
export const CreditUseRequestSchema = z.object({
  amount: z.literal(AI_COSTS.rewrite),
  rewriteId: z.string().uuid().optional(),
});
export type CreditUseRequest = z.infer<typeof CreditUseRequestSchema>;
export const CreditUseResponseSchema = z.object({
  success: z.literal(true),
  /** The rewrite whose charge this confirms. */
  rewriteId: z.string(),
  amount: z.number().int(),
  /** True: the charge was already made by the rewrite; nothing was taken now. */
  alreadyCharged: z.literal(true),
  credits: z.number().int(),
});
export type CreditUseResponse = z.infer<typeof CreditUseResponseSchema>;
