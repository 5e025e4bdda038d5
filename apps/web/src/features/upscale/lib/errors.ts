import { ApiError } from '../../../lib/api-client';

/** i18n key of an upload failure (001 §8). */
export function uploadErrorKey(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.code === 'NSFW_CONTENT_DETECTED' || err.serverError === 'NSFW_CONTENT_DETECTED') return 'upscale.error.nsfw';
    if (err.code === 'MAINTENANCE' || err.status === 503) return 'upscale.error.maintenance';
    if (err.code === 'UNSUPPORTED_IMAGE_TYPE') return 'upscale.error.fileType';
    if (err.code === 'IMAGE_TOO_LARGE' || err.code === 'PAYLOAD_TOO_LARGE') return 'upscale.error.tooLarge';
    if (err.code === 'IMAGE_CORRUPT' || err.code === 'IMAGE_TOO_MANY_PIXELS') return 'upscale.error.corrupt';
  }
  return 'upscale.error.uploadFailed';
}

const INSUFFICIENT_TEXTS = ['크레딧이 부족합니다.', 'Not enough credits.'];

export type UpscaleFailure = { kind: 'blocked' } | { kind: 'message'; key: string };

/**
 * Map a failed POST /api/runpod-upscale to what the page shows (001 §8): insufficient credits, NSFW,
 * maintenance, the blocking dialog, otherwise the generic upscale error.
 */
export function upscaleFailure(err: unknown): UpscaleFailure {
  if (err instanceof ApiError) {
    if (err.code === 'INSUFFICIENT_CREDITS' || (err.status === 400 && INSUFFICIENT_TEXTS.includes(err.serverError ?? ''))) {
      return { kind: 'message', key: 'upscale.error.insufficientCredits' };
    }
    if (err.code === 'NSFW_CONTENT_DETECTED' || err.serverError === 'NSFW_CONTENT_DETECTED') return { kind: 'message', key: 'upscale.error.nsfw' };
    if (err.code === 'MAINTENANCE' || err.status === 503) return { kind: 'message', key: 'upscale.error.maintenance' };
    if (err.code === 'UPSCALE_BLOCKED') return { kind: 'blocked' };
  }
  return { kind: 'message', key: 'upscale.error.generic' };
}
