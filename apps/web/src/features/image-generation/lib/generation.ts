import { IMAGE_GENERATION, type HistoryImage } from '@dewy/contracts';
import { ApiError } from '../../../lib/api-client';
import { INSUFFICIENT_CREDITS_KEY, isInsufficientCredits } from '../../../shared/tool-job/lib/tool-messages';

/**
 * The consistency tool's page rules (spec 002 §3/§5/§8/§9): the local history (at most 50 per user, a
 * guest fallback key) and the error catalogue's keys. Its polling schedule is GENERATION_POLLING_SCHEDULE
 * (shared/tool-job/lib/polling.ts), named by imageGenerationTool.
 */

/** One generation as the page keeps it (002 §3: id, reference image url, result urls, prompt, createdAt). */
export interface GenerationItem {
  id: string;
  referenceUrl: string | null;
  urls: string[];
  prompt: string;
  createdAt: string;
  partial?: boolean;
}

/** The local history key: per user, `guest` when signed out (002 §3). */
export function localHistoryKey(userId: number | undefined): string {
  return `dewy.consistency.history.${userId ?? 'guest'}`;
}

/** Reads the local history (newest first, at most 50); a broken entry reads as empty. */
export function readLocalHistory(userId: number | undefined, storage: Storage = window.localStorage): GenerationItem[] {
  try {
    const raw = storage.getItem(localHistoryKey(userId));
    const list = raw ? (JSON.parse(raw) as unknown) : [];
    if (!Array.isArray(list)) return [];
    return list
      .filter((i): i is GenerationItem => !!i && typeof i === 'object' && typeof (i as GenerationItem).id === 'string' && Array.isArray((i as GenerationItem).urls))
      .slice(0, IMAGE_GENERATION.localHistoryCap);
  } catch {
    return [];
  }
}

/** Puts `items` first in the local history (replacing entries with the same id), keeping at most 50. */
export function saveLocalHistory(userId: number | undefined, items: GenerationItem[], storage: Storage = window.localStorage): GenerationItem[] {
  const seen = new Set<string>();
  const merged = [...items, ...readLocalHistory(userId, storage)].filter((i) => (seen.has(i.id) ? false : (seen.add(i.id), true))).slice(0, IMAGE_GENERATION.localHistoryCap);
  try {
    storage.setItem(localHistoryKey(userId), JSON.stringify(merged));
  } catch {
    // storage full or disabled: the server history still has everything
  }
  return merged;
}

/** A server history item as a generation (002 §3 mapping). */
export function fromHistoryImage(item: HistoryImage): GenerationItem {
  return {
    id: item.runpod_job_id ?? String(item.id),
    referenceUrl: item.original_image_url,
    urls: item.all_image_urls.length ? item.all_image_urls.slice(0, IMAGE_GENERATION.count.max) : item.image_url ? [item.image_url] : [],
    prompt: item.prompt ?? '',
    createdAt: item.created_at,
  };
}

/** True when a file is an accepted reference: jpg, jpeg, png or webp by extension (002 §5). */
export function isAcceptedReference(file: File): boolean {
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  return (IMAGE_GENERATION.extensions as readonly string[]).includes(ext);
}

/** The i18n key of a failed generate call (002 §8); the server's own text for anything else. */
export function generationErrorKey(err: unknown): { key: string } | { text: string } {
  if (isInsufficientCredits(err)) return { key: INSUFFICIENT_CREDITS_KEY };
  if (err instanceof ApiError) {
    switch (err.code) {
      case 'NSFW_PROMPT_BLOCKED':
        return { key: 'imageGeneration.error.nsfw' };
      case 'NOT_CONFIGURED':
        return { key: 'imageGeneration.error.notConfigured' };
      case 'GENERATION_INPUT_REQUIRED':
        return { key: 'imageGeneration.error.inputRequired' };
      case 'GENERATION_IMAGE_TYPE':
        return { key: 'imageGeneration.error.fileType' };
      case 'UNAUTHENTICATED':
      case 'SESSION_EXPIRED':
        return { key: 'imageGeneration.error.loginRequired' };
      default:
        if (err.status === 0) return { key: 'imageGeneration.error.failed' };
        return err.serverError ? { text: err.serverError } : { key: 'imageGeneration.error.failed' };
    }
  }
  return { key: 'imageGeneration.error.invalidResponse' };
}

/** The i18n key of a failed job's reason code (status `error`), 'image generation failed' otherwise. */
export function jobFailureKey(code: string | null | undefined): string {
  switch (code) {
    case 'GENERATION_SAFETY_BLOCKED':
      return 'imageGeneration.error.safety';
    case 'VENDOR_BUSY':
      return 'imageGeneration.error.busy';
    case 'VENDOR_UNAVAILABLE':
    case 'VENDOR_AUTH_FAILED':
      return 'imageGeneration.error.unavailable';
    default:
      return 'imageGeneration.error.failed';
  }
}
