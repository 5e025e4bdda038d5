import type { PresignUploadResponse, UPLOAD_KINDS, UploadResponse } from '@dewy/contracts';
import { api, ApiError } from '../../../lib/api-client';

/** What an upload is for (the presign request's `kind`): each tool names its own. */
export type UploadKind = (typeof UPLOAD_KINDS)[number];

/** Base64 of the SHA-256 of the bytes (the presign request's checksumSha256). */
async function sha256Base64(blob: Blob): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', await blob.arrayBuffer());
  let binary = '';
  for (const byte of new Uint8Array(digest)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Codes where a second try through another route cannot help: the content itself was refused. */
const FINAL_CODES = new Set([
  'NSFW_CONTENT_DETECTED',
  'MAINTENANCE',
  'UNSUPPORTED_IMAGE_TYPE',
  'IMAGE_TOO_LARGE',
  'IMAGE_TOO_MANY_PIXELS',
  'IMAGE_CORRUPT',
  'UNAUTHENTICATED',
  'SESSION_EXPIRED',
  'RATE_LIMITED',
  // the caller's pending uploads are over the cap: the multipart route would only dodge it
  'UPLOAD_QUOTA_EXCEEDED',
  // decision 032: an unverified account or a full stored-upload quota is refused on every upload route
  'EMAIL_NOT_VERIFIED',
  'UPLOAD_STORAGE_FULL',
]);

function isFinal(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  if (err.status === 401 || err.status === 419 || err.status === 503) return true;
  return (err.code !== undefined && FINAL_CODES.has(err.code)) || err.serverError === 'NSFW_CONTENT_DETECTED';
}

/** Presigned flow (001 §3/§7): presign → PUT with exactly the required headers → confirm. */
async function uploadPresigned(blob: Blob, filename: string, kind: UploadKind): Promise<UploadResponse> {
  const mime = blob.type === 'image/png' ? 'image/png' : 'image/jpeg';
  const presign: PresignUploadResponse = await api.post('/api/image/presign-upload', {
    body: { filename, mime, kind, contentLength: blob.size, checksumSha256: await sha256Base64(blob) },
  });
  let put: Response;
  try {
    put = await fetch(presign.url, { method: 'PUT', headers: presign.requiredHeaders, body: blob });
  } catch (err) {
    throw new ApiError(0, 'S3_PUT_FAILED', err instanceof Error ? err.message : String(err), undefined, null);
  }
  if (!put.ok) throw new ApiError(put.status, 'S3_PUT_FAILED', `PUT ${put.status}`, undefined, null);
  return api.post('/api/image/confirm-upload', { body: { key: presign.key } });
}

/** Multipart fallback: POST /api/image/upload-s3, field `image`. */
async function uploadMultipart(blob: Blob, filename: string): Promise<UploadResponse> {
  const form = new FormData();
  form.append('image', blob, filename);
  return api.post('/api/image/upload-s3', { body: form });
}

/**
 * Upload a tool's input image: presigned flow first, multipart upload when that route fails for a
 * transport reason (refused content is not retried).
 * @param kind the presign request's kind (e.g. 'upscale-original', 'face-edit-original')
 * @throws ApiError (INVALID_BLOB when the blob is empty)
 */
export async function uploadImage(blob: Blob, filename: string, kind: UploadKind): Promise<UploadResponse> {
  if (blob.size === 0) throw new ApiError(0, 'INVALID_BLOB', 'empty file', undefined, null);
  try {
    return await uploadPresigned(blob, filename, kind);
  } catch (err) {
    if (isFinal(err)) throw err;
    console.warn('[upload] presigned flow failed, using multipart', err);
    return uploadMultipart(blob, filename);
  }
}
