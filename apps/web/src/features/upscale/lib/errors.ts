import { ApiError } from '../../../lib/api-client';

const INSUFFICIENT_TEXTS = ['크레딧이 부족합니다.', 'Not enough credits.'];

export type UpscaleFailure = { kind: 'blocked' } | { kind: 'message'; key: string } | { kind: 'session' };

/**
 * Map a failed POST /api/runpod-upscale to what the page shows (001 §8): insufficient credits, NSFW,
 * maintenance, the blocking dialog, otherwise the generic upscale error; `session` when the session
 * ended (the session-expired modal is the one message, issue 17). (Upload failures are the shared tool
 * layer's: uploadErrorKey.)
 */
export function upscaleFailure(err: unknown): UpscaleFailure {
  if (err instanceof ApiError) {
    if (err.sessionEnded) return { kind: 'session' };
    if (err.code === 'INSUFFICIENT_CREDITS' || (err.status === 400 && INSUFFICIENT_TEXTS.includes(err.serverError ?? ''))) {
      return { kind: 'message', key: 'upscale.error.insufficientCredits' };
    }
    if (err.code === 'NSFW_CONTENT_DETECTED' || err.serverError === 'NSFW_CONTENT_DETECTED') return { kind: 'message', key: 'toolJob.error.nsfw' };
    if (err.code === 'MAINTENANCE' || err.status === 503) return { kind: 'message', key: 'toolJob.error.maintenance' };
    if (err.code === 'UPSCALE_BLOCKED') return { kind: 'blocked' };
  }
  return { kind: 'message', key: 'upscale.error.generic' };
}
