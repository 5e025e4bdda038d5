import type { AppConfig } from '../../config';
import type { LlmProvider } from './llm-provider';
import { createOpenAiCompatibleLlm } from './openai-compatible.llm';

export * from './llm-provider';

/**
 * The language model of config.llm, or null when none is configured (no LLM_MODEL): every AI text route
 * then answers NOT_CONFIGURED and charges nothing (issue 15).
 */
export function createLlmProvider(config: AppConfig): LlmProvider | null {
  const l = config.llm;
  if (!l.model) return null;
  return createOpenAiCompatibleLlm({
    baseUrl: l.baseUrl,
    apiKey: l.apiKey,
    model: l.model,
    visionModel: l.visionModel ?? l.model,
    timeoutMs: l.timeoutMs,
    maxRetries: l.maxRetries,
    retryBaseMs: l.retryBaseMs,
  });
}
