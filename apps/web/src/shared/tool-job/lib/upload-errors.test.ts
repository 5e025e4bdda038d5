import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { uploadErrorKey } from './upload-errors';

const apiError = (status: number, code?: string, serverError?: string) => new ApiError(status, code, serverError ?? 'x', serverError, null);

describe('upload failures (001 §8)', () => {
  it('maps refused content, maintenance and the rest', () => {
    expect(uploadErrorKey(apiError(400, 'NSFW_CONTENT_DETECTED'), 'upscale.error.fileType')).toBe('toolJob.error.nsfw');
    expect(uploadErrorKey(apiError(400, undefined, 'NSFW_CONTENT_DETECTED'), 'upscale.error.fileType')).toBe('toolJob.error.nsfw');
    expect(uploadErrorKey(apiError(503), 'upscale.error.fileType')).toBe('toolJob.error.maintenance');
    expect(uploadErrorKey(apiError(413, 'IMAGE_TOO_LARGE'), 'upscale.error.fileType')).toBe('toolJob.error.tooLarge');
    expect(uploadErrorKey(apiError(400, 'IMAGE_CORRUPT'), 'upscale.error.fileType')).toBe('toolJob.error.corrupt');
    expect(uploadErrorKey(apiError(429, 'UPLOAD_QUOTA_EXCEEDED'), 'upscale.error.fileType')).toBe('toolJob.error.uploadQuota');
    expect(uploadErrorKey(apiError(403, 'EMAIL_NOT_VERIFIED'), 'upscale.error.fileType')).toBe('toolJob.error.emailNotVerified');
    expect(uploadErrorKey(apiError(403, 'UPLOAD_STORAGE_FULL'), 'upscale.error.fileType')).toBe('toolJob.error.storageFull');
    expect(uploadErrorKey(apiError(0, 'NETWORK'), 'upscale.error.fileType')).toBe('toolJob.error.uploadFailed');
    expect(uploadErrorKey(new Error('x'), 'upscale.error.fileType')).toBe('toolJob.error.uploadFailed');
  });
  it('uses the tool’s own file-type message', () => {
    expect(uploadErrorKey(apiError(400, 'UNSUPPORTED_IMAGE_TYPE'), 'upscale.error.fileType')).toBe('upscale.error.fileType');
    expect(uploadErrorKey(apiError(400, 'UNSUPPORTED_IMAGE_TYPE'), 'faceEdit.error.fileType')).toBe('faceEdit.error.fileType');
  });

  it('a session that ended during the upload gets no message of its own: the expired modal is the one (issue 17)', () => {
    const ended = new ApiError(401, 'SESSION_EXPIRED', 'x', 'x', null, true);
    expect(uploadErrorKey(ended, 'upscale.error.fileType')).toBeNull();
    // A 401 that did not end a session (no auth event raised) still gets the upload message.
    expect(uploadErrorKey(apiError(401, 'UNAUTHENTICATED'), 'upscale.error.fileType')).toBe('toolJob.error.uploadFailed');
  });
});
