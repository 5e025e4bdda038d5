/**
 * The language-model interface, shaped by our use (issue 15, spec 002 §4–§7): a chat turn with history and
 * images (streamed or not), a single-shot text completion (the rewrite) and a single-shot vision call (prompt
 * extraction, auto prompt). One adapter speaks the OpenAI-compatible chat-completions protocol
 * (`openai-compatible.llm.ts`); `index.ts` builds it from config or answers null (not configured).
 */

/** An image given to the model: the stored, re-encoded bytes (JPEG or PNG). */
export interface LlmImage {
  mime: 'image/jpeg' | 'image/png';
  bytes: Buffer;
}

/** One turn of a conversation; `images` only on user turns. */
export interface LlmMessage {
  role: 'system' | 'user' | 'assistant';
  text: string;
  images?: LlmImage[];
}

export interface LlmCallOptions {
  /** Aborts the call (the page's stop button, a closed connection); rejects with LlmError `aborted`. */
  signal?: AbortSignal;
  /** Called with each piece of text as it streams; when given, the call streams (SSE). */
  onDelta?: (text: string) => void;
  /** Upper bound of the answer (tokens). */
  maxTokens?: number;
}

/** Why a model call failed; the AI service maps each to an error code (decision 022). */
export type LlmFailure =
  /** Moderation / refusal: HTTP 400 content-policy error, `finish_reason: content_filter`, or `refusal`. */
  | 'refused'
  /** No answer (or no next chunk) within the timeout. */
  | 'timeout'
  /** 429 or 5xx after the retries, a network error, a broken stream, an unusable body. */
  | 'unavailable'
  /** The caller aborted. */
  | 'aborted';

/** The one error type of the LLM adapters. `status` is the vendor's HTTP status when there was one. */
export class LlmError extends Error {
  readonly failure: LlmFailure;
  readonly status?: number;
  constructor(failure: LlmFailure, message: string, opts: { status?: number; cause?: unknown } = {}) {
    super(message, { cause: opts.cause });
    this.name = 'LlmError';
    this.failure = failure;
    this.status = opts.status;
  }
}

export interface LlmProvider {
  /** The text model's name (LLM_MODEL). */
  readonly model: string;
  /** The model used when a call carries images (LLM_VISION_MODEL, default LLM_MODEL). */
  readonly visionModel: string;
  /**
   * One chat turn: `messages` is the system prompt, the history and the new user turn (oldest first).
   * Uses the vision model when any message carries images. Streams when `opts.onDelta` is given.
   * @returns the whole answer text (never empty). @throws LlmError
   */
  chat(messages: LlmMessage[], opts?: LlmCallOptions): Promise<string>;
  /** Single-shot text: a system instruction and one user text. @returns the answer. @throws LlmError */
  complete(system: string, user: string, opts?: LlmCallOptions): Promise<string>;
  /** Single-shot vision: a system instruction, one user text and 1..n images. @returns the answer. @throws LlmError */
  describe(system: string, user: string, images: LlmImage[], opts?: LlmCallOptions): Promise<string>;
}
