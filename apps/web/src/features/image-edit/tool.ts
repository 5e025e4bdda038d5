import { IMAGE_EDIT, fromSeedreamTaskId, imageEditCost, type SeedreamHistoryItem, type SeedreamStatusResponse } from '@dewy/contracts';
import { ApiError } from '../../lib/api-client';
import { IMAGE_EDIT_POLLING_SCHEDULE, defineClientTool, isInsufficientCredits, type ToolJobStatus, type ToolMessage } from '../../shared/tool-job';
import { fetchSeedreamConfig, fetchSeedreamHistory, fetchSeedreamStatus, postAutoPrompt, postSeedreamGenerate } from './api/seedream';
import { errorDialogFor, type ErrorDialogContent } from './lib/rules';

/** What an image-edit run costs: 15 per ordered image, 5 more with the auto prompt (002 §9). */
export interface ImageEditCostInput {
  numImages: number;
  autoPrompt: boolean;
}

/** A 002 §8 dialog as the workspace's message. */
const asMessage = (d: ErrorDialogContent): ToolMessage => ({ titleKey: d.titleKey, key: d.messageKey, values: d.values });

/** The 002 §8 dialog of a code of ours or the vendor's (e.g. NOT_CONFIGURED, INSUFFICIENT_CREDITS, TIMEOUT). */
export function imageEditDialog(code: string, message?: string): ToolMessage {
  return asMessage(errorDialogFor(code, message));
}

/** Upload codes of 002 §8: a transport failure of an upload is told as PRESIGN_FAILED. */
function uploadCode(code: string | undefined): string | undefined {
  return code === 'NETWORK' ? 'PRESIGN_FAILED' : code;
}

/**
 * A failed call of the image-edit page (an upload, the auto prompt, the generate call) as its 002 §8
 * dialog: by the server's code (or the vendor's), with the server's text.
 */
export function imageEditCallMessage(err: unknown, step: 'upload' | 'run'): ToolMessage {
  const code = err instanceof ApiError ? (isInsufficientCredits(err) ? 'INSUFFICIENT_CREDITS' : err.code) : undefined;
  const message = err instanceof Error ? err.message : undefined;
  return asMessage(errorDialogFor(step === 'upload' ? uploadCode(code) : code, message));
}

/** `GET /api/seedream/status/{id}` (002 §7) in the status shape the workspace follows: up to 8 results. */
export function imageEditStatus(s: SeedreamStatusResponse): ToolJobStatus {
  const urls = s.urls.slice(0, IMAGE_EDIT.maxDisplayed);
  return { status: s.status, imageUrl: urls[0] ?? null, originalImageUrl: null, images: urls, partial: s.partial, error: s.error?.code ?? null, errorMessage: s.error?.message ?? null };
}

/**
 * The image-edit tool on the page (spec 002 §2–§9, Seedream): history kind `seedream`, its own status
 * and history calls (002 §7), followed by push with the 3 s / 240 s polling as fallback (the stream
 * names the job by its kernel id: `seedream-<id>` without the prefix), history 9 first then 5, searched
 * by prompt, every message in the 002 §8 dialog (title and text), cost 15 per image + 5 for the auto
 * prompt. Its reference tiles and mask upload through the workspace's `uploadFile` (kind `seedream-ref`).
 */
export const imageEditTool = defineClientTool<
  SeedreamHistoryItem,
  ImageEditCostInput,
  {
    config: typeof fetchSeedreamConfig;
    generate: typeof postSeedreamGenerate;
    history: typeof fetchSeedreamHistory;
    autoPrompt: typeof postAutoPrompt;
  }
>({
  name: 'image-edit',
  source: 'seedream',
  schedule: IMAGE_EDIT_POLLING_SCHEDULE,
  readStatus: async (taskId) => imageEditStatus(await fetchSeedreamStatus(taskId)),
  eventJobId: fromSeedreamTaskId,
  history: {
    paging: { first: IMAGE_EDIT.historyPage.first, reload: IMAGE_EDIT.historyPage.first, more: IMAGE_EDIT.historyPage.more },
    showLatest: false,
    fetchPage: async (_userId, page) => {
      const res = await fetchSeedreamHistory({ limit: page.limit, offset: page.offset, q: page.q });
      return { items: res.items, nextOffset: res.pagination.hasMore ? res.pagination.nextOffset : null };
    },
    keyOf: (item) => item.id,
    jobOf: (item) => ({ jobId: item.seedream_task_id, status: item.status, urls: item.image_urls.slice(0, IMAGE_EDIT.maxDisplayed), originalUrl: item.original_image_url }),
  },
  messages: {
    display: 'dialog',
    callFailed: (err, { step }) => imageEditCallMessage(err, step),
    jobFailed: ({ code, message }) => asMessage(errorDialogFor(code ?? undefined, message ?? undefined)),
    jobTimeout: imageEditDialog('TIMEOUT'),
    failureByCode: true,
    announceJobFailure: true,
  },
  cost: ({ numImages, autoPrompt }) => imageEditCost(numImages) + (autoPrompt ? IMAGE_EDIT.autoPromptCost : 0),
  download: { failedKey: 'imageEdit.error.download' },
  api: { config: fetchSeedreamConfig, generate: postSeedreamGenerate, history: fetchSeedreamHistory, autoPrompt: postAutoPrompt },
});
