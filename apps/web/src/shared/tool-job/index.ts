/**
 * The shared tool layer (GUIDE §3): what every paid tool's page uses — upload (presign → PUT with
 * checksum → confirm, multipart fallback), job status pushed by the job event stream with the spec's
 * polling as fallback, history by source, download, and the result stage with the comparison slider and
 * a progress bar. A tool's feature folder keeps only its options, cost display and page.
 * Features import from here; this layer never imports a feature or the app (eslint.config.js).
 */
export { uploadImage, type UploadKind } from './api/upload-image';
export { fetchJobStatus } from './api/job-status';
export { fetchToolHistory, fetchToolHistoryPage, toolHistoryKey, toolHistoryOptions, useToolHistory } from './api/history';
export { downloadImage } from './api/download';

export { useImageUpload, type ImageUploadConfig, type UploadedImage } from './hooks/use-image-upload';
export { useImageDownload, type ImageDownloadCopy } from './hooks/use-image-download';
export { pagedToolHistoryKey, usePagedToolHistory } from './hooks/use-paged-history';
export { jobEventsClient, useJobEvents, useJobSnapshot } from './hooks/use-job-events';
export { JOB_FAILED_KEY, JOB_TIMEOUT_KEY, useToolJob, type ToolJobState, type UseToolJobOptions } from './hooks/use-tool-job';

export { isAcceptedImageName, isAcceptedImageType, loadImage, nameFromImageUrl } from './lib/image-file';
export { firstPageLimit, mergeHistoryPage, type HistoryPaging } from './lib/history-paging';
export { JobEventsClient, type JobEventsConnection, type JobProgress as JobProgressValue, type JobSnapshot } from './lib/job-events';
export { trackJob, type JobOutcome, type SettledVia } from './lib/job-tracker';
export {
  FACE_EDIT_POLLING_SCHEDULE,
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
export { JobProgress } from './components/job-progress';
export { ResultStage, type ResultStageCopy } from './components/result-stage';
export { UploadArea } from './components/upload-area';
export { RunButton, type RunButtonProps } from './components/run-button';
