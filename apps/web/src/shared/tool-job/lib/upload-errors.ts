import { ApiError } from '../../../lib/api-client';
import { endedSession, sharedFailureKey } from './tool-messages';

/**
 * i18n key of an upload failure (001 §8). The file-type message differs per tool (the spec words it
 * differently for the retouch and face-edit uploads), so the tool passes its own key. Null when the
 * session ended during the upload: the session-expired modal is then the one message (issue 17).
 */
export function uploadErrorKey(err: unknown, fileTypeKey: string): string | null {
  if (endedSession(err)) return null;
  const shared = sharedFailureKey(err);
  if (shared) return shared;
  if (err instanceof ApiError) {
    if (err.code === 'UNSUPPORTED_IMAGE_TYPE') return fileTypeKey;
    if (err.code === 'IMAGE_TOO_LARGE' || err.code === 'PAYLOAD_TOO_LARGE') return 'toolJob.error.tooLarge';
    if (err.code === 'IMAGE_CORRUPT' || err.code === 'IMAGE_TOO_MANY_PIXELS') return 'toolJob.error.corrupt';
    if (err.code === 'UPLOAD_QUOTA_EXCEEDED') return 'toolJob.error.uploadQuota';
    // Decision 032: uploads need a verified e-mail (the banner under the header offers a new link), and stored uploads have a quota.
    if (err.code === 'EMAIL_NOT_VERIFIED') return 'toolJob.error.emailNotVerified';
    if (err.code === 'UPLOAD_STORAGE_FULL') return 'toolJob.error.storageFull';
  }
  return 'toolJob.error.uploadFailed';
}
