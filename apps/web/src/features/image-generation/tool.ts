import { IMAGE_GENERATION, imageGenerationCost } from '@dewy/contracts';
import { GENERATION_POLLING_SCHEDULE, defineClientTool } from '../../shared/tool-job';
import {
  confirmRewriteCharge,
  extractPromptFromImage,
  fetchBannedKeywords,
  fetchGenerationHistory,
  fetchGenerationStatus,
  postGeneration,
  resultToUpload,
  rewritePrompt,
} from './api/generation-api';
import { fromHistoryImage, generationErrorKey, jobFailureKey, readLocalHistory, saveLocalHistory, type GenerationItem } from './lib/generation';

/**
 * The consistency (image generation) tool on the page (spec 002 §2–§9, Kling): history kind `kling`,
 * status by `GET /api/image/status/{taskId}` on the 002 §4 schedule (2, 4, 8 s, then 10–15 s, 60 polls),
 * the grouped history (10 first, 25 on reload, 5 more, searched by prompt) with the local copy of 002 §3,
 * messages as toasts (a failed job by its reason code; a timeout is a notice to check the history),
 * cost 15 per image. The reference image travels in the create call (no separate upload).
 */
export const imageGenerationTool = defineClientTool<
  GenerationItem,
  number,
  {
    create: typeof postGeneration;
    bannedKeywords: typeof fetchBannedKeywords;
    extractPrompt: typeof extractPromptFromImage;
    rewrite: typeof rewritePrompt;
    confirmRewriteCharge: typeof confirmRewriteCharge;
    resultToUpload: typeof resultToUpload;
  }
>({
  name: 'image-generation',
  source: 'kling',
  schedule: GENERATION_POLLING_SCHEDULE,
  readStatus: (taskId) => fetchGenerationStatus(taskId),
  history: {
    paging: { first: IMAGE_GENERATION.historyPage.first, reload: IMAGE_GENERATION.historyPage.refresh, more: IMAGE_GENERATION.historyPage.more },
    showLatest: false,
    fetchPage: async (userId, page) => {
      const res = await fetchGenerationHistory(userId, { group_limit: page.limit, group_offset: page.offset, q: page.q });
      const more = res.pagination.groupHasMore ?? res.pagination.hasMore;
      return { items: res.images.map(fromHistoryImage), nextOffset: more ? (res.pagination.nextGroupOffset ?? res.pagination.nextOffset ?? null) : null };
    },
    keyOf: (item) => item.id,
    jobOf: (item) => ({ jobId: item.id, status: 'completed', urls: item.urls, originalUrl: item.referenceUrl, partial: item.partial }),
    local: { read: (userId) => readLocalHistory(userId), save: (userId, items) => void saveLocalHistory(userId, items) },
  },
  messages: {
    display: 'toast',
    callFailed: (err) => generationErrorKey(err),
    jobFailed: ({ code }) => ({ key: jobFailureKey(code) }),
    jobTimeout: { key: 'imageGeneration.error.timeout', tone: 'info' },
    failureByCode: true,
    announceJobFailure: true,
  },
  cost: (count) => imageGenerationCost(count),
  api: {
    create: postGeneration,
    bannedKeywords: fetchBannedKeywords,
    extractPrompt: extractPromptFromImage,
    rewrite: rewritePrompt,
    confirmRewriteCharge,
    resultToUpload,
  },
});
