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

/** A chat message as the page reads it (002 §3: role, text, image_url). */
export interface ChatMessage {
  id: number;
  role: 'user' | 'assistant';
  text: string;
  /** Signed view URL of the attached image, or null. */
  image_url: string | null;
  created_at: string;
}

/** A chat thread (002 §3: id, title). */
export interface ChatThread {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
}

/** GET /api/ai/threads?limit=50&cursor= (002 §7). `nextCursor` is null on the last page. */
export const ThreadListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(AI_LIMITS.threadPageSize).default(AI_LIMITS.threadPageSize),
  cursor: safeText().max(200).optional(),
});
export interface ThreadListResponse {
  success: true;
  threads: ChatThread[];
  nextCursor: string | null;
}

/** GET /api/ai/threads/{id}/messages?limit=100[&before=<message id>]: the newest page, oldest first. */
export const MessageListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(AI_LIMITS.messagePageSize).default(AI_LIMITS.messagePageSize),
  before: z.coerce.number().int().positive().optional(),
});
export interface MessageListResponse {
  success: true;
  messages: ChatMessage[];
  /** Older messages exist: ask again with `before` = the first message's id. */
  hasMore: boolean;
}

export const ThreadIdParamsSchema = z.object({ id: ThreadIdSchema });

/** GET /api/ai/chat/charge-enabled (002 §7). `cost` is what one send costs while enabled. */
export interface ChargeEnabledResponse {
  success: true;
  enabled: boolean;
  cost: number;
  /** False when no language model is configured: the page says the tool is not configured. */
  configured: boolean;
}

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
export interface RewriteResponse {
  success: true;
  rewrittenPrompt: string;
  threadId: string;
  /** The rewrite's charge; POST /api/credit/use with it confirms (never repeats) that charge. */
  rewriteId: string;
  charged: number;
  credits: number;
}

/** POST /api/ai/extract-prompt-from-image answer (002 §7: success, prompt). Body: the image's raw bytes. */
export interface ExtractPromptResponse {
  success: true;
  prompt: string;
}

/** POST /api/seedream/auto-prompt (002 §5, §7): up to 4 image URLs of the caller's own images + notes. */
export const AutoPromptRequestSchema = z.object({
  images: z.array(imageUrlText(4096)).min(1).max(AI_LIMITS.autoPromptMaxImages),
  userNotes: safeText({ multiline: true }).max(AI_LIMITS.promptMax).default(''),
});
export type AutoPromptRequest = z.infer<typeof AutoPromptRequestSchema>;
export interface AutoPromptResponse {
  success: true;
  prompt: string;
  charged: number;
  credits: number;
}

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
export interface CreditUseResponse {
  success: true;
  /** The rewrite whose charge this confirms. */
  rewriteId: string;
  amount: number;
  /** True: the charge was already made by the rewrite; nothing was taken now. */
  alreadyCharged: true;
  credits: number;
}
