import { upscaleCost, uploadResizeTarget, type HistoryImage } from '@dewy/contracts';
import {
  JOB_FAILED_KEY,
  JOB_TIMEOUT_KEY,
  UPSCALE_POLLING_SCHEDULE,
  defineClientTool,
  fetchJobStatus,
  imageHistory,
  isAcceptedImageName,
  type ToolMessage,
} from '../../shared/tool-job';
import { postUpscale } from './api/create-upscale';
import { upscaleFailure } from './lib/errors';

/** What the upscale cost depends on: the uploaded photo's size (px) and the scale factor. */
export interface UpscaleCostInput {
  width: number;
  height: number;
  scale: number;
}

/**
 * Upscale history page (001 §7: "all items of source upscale", limit not shown): 100 items, then 100
 * more per "load more".
 */
export const UPSCALE_HISTORY_PAGE = 100;

/** A failed create call (001 §8) as a message: the blocking rule opens the page's 'blocked' dialog. */
export function upscaleMessage(err: unknown): ToolMessage | null {
  const failure = upscaleFailure(err);
  if (failure.kind === 'session') return null;
  if (failure.kind === 'blocked') return { dialog: 'blocked' };
  return { key: failure.key };
}

/**
 * The retouch/upscale tool on the page (spec 001 §2–§9): history kind `upscale`, status by
 * `GET /api/image/status/{jobId}` on the 001 §4 schedule, its whole history, errors as toasts (a failed
 * or timed-out job is told on the result stage), cost 80 / 100 + 5 per 100 px (001 §9), JPG/PNG uploads
 * resized by the pixel-sum table (001 §5), adopting a handoff from another tool.
 */
export const upscaleTool = defineClientTool<HistoryImage, UpscaleCostInput, { create: typeof postUpscale }>({
  name: 'upscale',
  source: 'upscale',
  schedule: UPSCALE_POLLING_SCHEDULE,
  readStatus: (jobId, signal) => fetchJobStatus(jobId, signal),
  history: imageHistory('upscale', { first: UPSCALE_HISTORY_PAGE, reload: UPSCALE_HISTORY_PAGE, more: UPSCALE_HISTORY_PAGE }),
  messages: {
    display: 'toast',
    callFailed: (err) => upscaleMessage(err),
    jobFailed: () => ({ key: JOB_FAILED_KEY }),
    jobTimeout: { key: JOB_TIMEOUT_KEY },
    failureByCode: false,
    announceJobFailure: false,
  },
  cost: ({ width, height, scale }) => upscaleCost(width, height, scale),
  upload: {
    kind: 'upscale-original',
    accepts: (file) => isAcceptedImageName(file.name),
    fileTypeKey: 'upscale.error.fileType',
    resizeTarget: uploadResizeTarget,
    handoffTarget: 'upscale',
  },
  api: { create: postUpscale },
});
