/**
 * The shared tool layer (GUIDE §3, decision 037): what every paid tool's page uses. A tool declares
 * itself once in a ClientToolDefinition (`features/<tool>/tool.ts`: history kind, status call and the
 * spec's polling schedule, history pages, error catalogue, cost rule, upload rules, calls); its page
 * runs it with `useToolWorkspace` — upload, the job pushed by the job event stream with the polling
 * as fallback, resume after a reload, history, errors, session-expired handling — and keeps only its
 * options and its layout, drawn with the components below.
 * Features import from here; this layer never imports a feature or the app (eslint.config.js).
 */
export { uploadImage, type UploadKind } from './api/upload-image';
export { fetchJobStatus } from './api/job-status';
export { deleteHistoryItems, fetchToolHistoryPage } from './api/history';
export { downloadImage } from './api/download';

export { useToolWorkspace, type ToolWorkspaceOptions } from './hooks/use-tool-workspace';
export { useImageUpload, type ImageUploadConfig, type UploadedImage } from './hooks/use-image-upload';
export { useImageDownload, type ImageDownloadCopy } from './hooks/use-image-download';
export { jobEventsClient, useJobEvents, useJobSnapshot } from './hooks/use-job-events';

export {
  defineClientTool,
  type CallContext,
  type ClientToolDefinition,
  type HistoryJob,
  type HistoryPage,
  type ToolHistory,
  type ToolJobStatus,
  type ToolMessage,
  type ToolMessages,
  type ToolUploadRules,
} from './lib/tool-definition';
export {
  PENDING_JOB_MAX_AGE_MS,
  ToolWorkspace,
  type PendingJob,
  type PendingJobStore,
  type StartResult,
  type ToolJobState,
  type WorkspaceDeps,
  type WorkspaceState,
} from './lib/workspace';
export { INSUFFICIENT_CREDITS_KEY, JOB_FAILED_KEY, JOB_TIMEOUT_KEY, endedSession, isInsufficientCredits, messageText, sharedFailureKey } from './lib/tool-messages';
export { historyImageJob, imageHistory } from './lib/image-history';
export { HANDOFF_STORAGE_KEY, giveHandoff, takeHandoff, type Handoff } from './lib/handoff';
export { isAcceptedImageName, isAcceptedImageType, loadImage, nameFromImageUrl } from './lib/image-file';
export { firstPageLimit, mergeHistoryPage, type HistoryPaging } from './lib/history-paging';
export { JobEventsClient, type JobEventsConnection, type JobProgress as JobProgressValue, type JobSnapshot } from './lib/job-events';
export { trackJob, type JobOutcome, type SettledVia } from './lib/job-tracker';
export {
  FACE_EDIT_POLLING_SCHEDULE,
  GENERATION_POLLING_SCHEDULE,
  IMAGE_EDIT_POLLING_SCHEDULE,
  UPSCALE_POLLING_SCHEDULE,
  faceEditPollDelayMs,
  faceEditPollTimedOut,
  pollDelayMs,
  pollTimedOut,
  type PollingSchedule,
} from './lib/polling';
export { uploadErrorKey } from './lib/upload-errors';

export { DownloadButton } from './components/download-button';
export { FullscreenCompare } from './components/fullscreen-compare';
export { HistoryList } from './components/history-list';
export { DeleteHistoryDialog } from './components/delete-history-dialog';
export { JobProgress } from './components/job-progress';
export { ResultStage, type ResultStageCopy } from './components/result-stage';
export { UploadArea } from './components/upload-area';
export { RunButton, type RunButtonProps } from './components/run-button';
