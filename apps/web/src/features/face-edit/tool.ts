import { FACE_EDIT, faceEditCost, type HistoryImage } from '@dewy/contracts';
import { FACE_EDIT_POLLING_SCHEDULE, defineClientTool, fetchJobStatus, imageHistory, isAcceptedImageType } from '../../shared/tool-job';
import { postFaceEdit } from './api/create-face-edit';
import { FACE_EDIT_FAILED_KEY, FACE_EDIT_TIMEOUT_KEY, faceEditErrorKey } from './lib/errors';
import { FACE_EDIT_JPEG_QUALITY, FACE_EDIT_RESIZE_FACTOR, faceEditResizeTarget } from './lib/run-input';

/**
 * The face-edit tool on the page (spec 001 §2–§9): history kind `face_edit`, status by
 * `GET /api/image/status/{jobId}?source=face_edit` on the 001 §4 schedule (1 s, 2 s × 1.25 up to 10 s,
 * 120 polls), history 10 first / 15 on reload / 10 more (a completed result goes to its top at once, as a
 * temporary item, until the reload lists it), every message in its error dialog (a failed
 * job too), the contracts' cost rule at the page's resize factor, JPEG/PNG uploads brought to
 * width + height = 3000 (JPEG 0.92).
 */
export const faceEditTool = defineClientTool<HistoryImage, { width: number; height: number }, { create: typeof postFaceEdit }>({
  name: 'face-edit',
  source: 'face_edit',
  schedule: FACE_EDIT_POLLING_SCHEDULE,
  readStatus: (jobId, signal) => fetchJobStatus(jobId, signal, 'face_edit'),
  history: imageHistory('face_edit', { first: FACE_EDIT.historyPage.first, reload: FACE_EDIT.historyPage.reload, more: FACE_EDIT.historyPage.first }, { provisional: true }),
  messages: {
    display: 'dialog',
    callFailed: (err, { online }) => {
      const key = faceEditErrorKey(err, online);
      return key ? { key } : null;
    },
    jobFailed: () => ({ key: FACE_EDIT_FAILED_KEY }),
    jobTimeout: { key: FACE_EDIT_TIMEOUT_KEY },
    failureByCode: false,
    announceJobFailure: true,
  },
  cost: ({ width, height }) => faceEditCost(width, height, FACE_EDIT_RESIZE_FACTOR),
  upload: {
    kind: 'face-edit-original',
    accepts: (file) => isAcceptedImageType(file.type),
    fileTypeKey: 'faceEdit.error.fileType',
    resizeTarget: faceEditResizeTarget,
    jpegQuality: FACE_EDIT_JPEG_QUALITY,
  },
  download: { failedKey: 'faceEdit.error.download', offlineKey: 'faceEdit.error.downloadOffline' },
  api: { create: postFaceEdit },
});
