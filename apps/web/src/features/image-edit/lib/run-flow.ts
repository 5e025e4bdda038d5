import { IMAGE_EDIT, SEEDREAM_TASK_PREFIX } from '@dewy/contracts';
import type { AutoPromptResponse } from '@dewy/contracts';

/**
 * The start of an image-edit run (002 §4) as a pure flow over injected calls (unit-tested with fakes):
 * optional auto prompt (3 tries, 1.5 s apart), then the generate call. The job it creates is then
 * followed by the shared workspace (push, with the 3 s / 240 s status polling of imageEditTool's
 * schedule as fallback). On HTTP 524 the job may exist without its id reaching the page: the history is
 * polled every 3 s for 240 s for the first item whose task id contains `seedream-` and that was
 * created after the run started.
 */

export interface RunDeps {
  autoPrompt(images: string[], notes: string): Promise<Pick<AutoPromptResponse, 'success' | 'prompt'>>;
  generate(prompt: string): Promise<{ seedream_task_id: string }>;
  latestHistory(): Promise<{ seedream_task_id: string; created_at: string; image_urls: string[] }[]>;
  sleep(ms: number): Promise<void>;
  now(): number;
  /** The generate call's HTTP status on failure (524 switches to history polling). */
  httpStatusOf(err: unknown): number | undefined;
}

export type RunStart =
  /** The job was created: follow `taskId`. `prompt` is the one sent (the auto prompt's, when used). */
  | { kind: 'started'; taskId: string; prompt: string }
  /** Found in the history after an HTTP 524. */
  | { kind: 'completed'; urls: string[]; partial: boolean; taskId: string; prompt: string }
  /** `cause` is the generate call's error, for the tool's catalogue; absent for AUTO_PROMPT_FAILED. */
  | { kind: 'failed'; code: string | undefined; message: string | undefined; taskId?: string; cause?: unknown }
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

/** Starts one image edit; `images` are uploaded URLs (image 1 first). Never throws for a failed run. */
export async function startImageEdit(deps: RunDeps, p: { prompt: string; autoPrompt: boolean; images: string[] }): Promise<RunStart> {
  let prompt = p.prompt;
  if (p.autoPrompt) {
    const auto = await autoPromptWithRetries(deps, p.images, p.prompt);
    if (auto === null) return { kind: 'failed', code: 'AUTO_PROMPT_FAILED', message: undefined };
    prompt = auto;
  }
  const started = deps.now();
  const deadline = started + IMAGE_EDIT.polling.timeoutMs;
  try {
    return { kind: 'started', taskId: (await deps.generate(prompt)).seedream_task_id, prompt };
  } catch (err) {
    if (deps.httpStatusOf(err) !== 524) {
      const e = err as { code?: string; message?: string };
      return { kind: 'failed', code: e.code, message: e.message, cause: err };
    }
  }
  // 524: the request outlived the gateway; the job may exist. Find it in the history.
  while (deps.now() < deadline) {
    await deps.sleep(IMAGE_EDIT.polling.intervalMs);
    try {
      const items = await deps.latestHistory();
      const hit = items.find((i) => i.seedream_task_id.includes(SEEDREAM_TASK_PREFIX) && Date.parse(i.created_at) >= started - 5000 && i.image_urls.length > 0);
      if (hit) return { kind: 'completed', urls: hit.image_urls.slice(0, IMAGE_EDIT.maxDisplayed), partial: false, taskId: hit.seedream_task_id, prompt };
    } catch {
      // a failed history read just retries
    }
  }
  return { kind: 'timeout' };
}
