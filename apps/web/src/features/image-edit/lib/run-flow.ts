import { IMAGE_EDIT } from '@dewy/contracts';
import type { AutoPromptResponse } from '@dewy/contracts';

/**
 * The run of 002 §4 as a pure flow over injected calls (unit-tested with fakes): optional auto prompt
 * (3 tries, 1.5 s apart), the generate call, then status polling every 3 s for 240 s; on HTTP 524 the
 * history is polled the same way for the first item whose task id contains `seedream-` and that was
 * created after the run started.
 */

export interface RunDeps {
  autoPrompt(images: string[], notes: string): Promise<Pick<AutoPromptResponse, 'success' | 'prompt'>>;
  generate(prompt: string): Promise<{ seedream_task_id: string }>;
  status(taskId: string): Promise<{ status: string; urls: string[]; partial: boolean; error: { code: string; message: string } | null }>;
  latestHistory(): Promise<{ seedream_task_id: string; created_at: string; image_urls: string[] }[]>;
  sleep(ms: number): Promise<void>;
  now(): number;
  /** The generate call's HTTP status on failure (524 switches to history polling). */
  httpStatusOf(err: unknown): number | undefined;
}

export type RunOutcome =
  | { kind: 'completed'; urls: string[]; partial: boolean; taskId: string; prompt: string }
  | { kind: 'failed'; code: string | undefined; message: string | undefined; taskId?: string }
  | { kind: 'timeout'; taskId?: string };

/** Auto prompt: up to 3 tries 1.5 s apart; null after the third failure. */
export async function autoPromptWithRetries(deps: Pick<RunDeps, 'autoPrompt' | 'sleep'>, images: string[], notes: string): Promise<string | null> {
  for (let i = 0; i < IMAGE_EDIT.autoPrompt.tries; i++) {
    if (i > 0) await deps.sleep(IMAGE_EDIT.autoPrompt.delayMs);
    try {
      const r = await deps.autoPrompt(images.slice(0, IMAGE_EDIT.autoPrompt.maxImages), notes);
      if (r.success && r.prompt && r.prompt.trim()) return r.prompt.trim();
    } catch {
      // tried again below
    }
  }
  return null;
}

/** Runs one image edit; `images` are uploaded URLs (image 1 first). Never throws for a failed run. */
export async function runImageEdit(deps: RunDeps, p: { prompt: string; autoPrompt: boolean; images: string[] }): Promise<RunOutcome> {
  let prompt = p.prompt;
  if (p.autoPrompt) {
    const auto = await autoPromptWithRetries(deps, p.images, p.prompt);
    if (auto === null) return { kind: 'failed', code: 'AUTO_PROMPT_FAILED', message: undefined };
    prompt = auto;
  }
  const started = deps.now();
  const deadline = started + IMAGE_EDIT.polling.timeoutMs;
  let taskId: string;
  try {
    taskId = (await deps.generate(prompt)).seedream_task_id;
  } catch (err) {
    if (deps.httpStatusOf(err) !== 524) {
      const e = err as { code?: string; message?: string };
      return { kind: 'failed', code: e.code, message: e.message };
    }
    // 524: the request outlived the gateway; the job may exist. Find it in the history.
    while (deps.now() < deadline) {
      await deps.sleep(IMAGE_EDIT.polling.intervalMs);
      try {
        const items = await deps.latestHistory();
        const hit = items.find((i) => i.seedream_task_id.includes('seedream-') && Date.parse(i.created_at) >= started - 5000 && i.image_urls.length > 0);
        if (hit) return { kind: 'completed', urls: hit.image_urls, partial: false, taskId: hit.seedream_task_id, prompt };
      } catch {
        // a failed history read just retries
      }
    }
    return { kind: 'timeout' };
  }
  while (deps.now() < deadline) {
    await deps.sleep(IMAGE_EDIT.polling.intervalMs);
    try {
      const s = await deps.status(taskId);
      if (s.status === 'completed') return { kind: 'completed', urls: s.urls.slice(0, IMAGE_EDIT.maxDisplayed), partial: s.partial, taskId, prompt };
      if (s.status === 'failed') return { kind: 'failed', code: s.error?.code, message: s.error?.message, taskId };
    } catch {
      // a failed status request just retries
    }
  }
  return { kind: 'timeout', taskId };
}
