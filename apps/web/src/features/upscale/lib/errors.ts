import { ApiError } from '../../../lib/api-client';
import { endedSession, sharedFailureKey } from '../../../shared/tool-job/lib/tool-messages';

export type UpscaleFailure = { kind: 'blocked' } | { kind: 'message'; key: string } | { kind: 'session' };

/**
 * Map a failed POST /api/runpod-upscale to what the page shows (001 §8): insufficient credits, NSFW,
 * maintenance (the messages every tool shares), the blocking dialog, otherwise the generic upscale
 * error; `session` when the session ended (the session-expired modal is the one message, issue 17).
 * (Upload failures are the shared tool layer's: uploadErrorKey.)
 */
export function upscaleFailure(err: unknown): UpscaleFailure {
  if (endedSession(err)) return { kind: 'session' };
  const shared = sharedFailureKey(err);
  if (shared) return { kind: 'message', key: shared };
  if (err instanceof ApiError && err.code === 'UPSCALE_BLOCKED') return { kind: 'blocked' };
  return { kind: 'message', key: 'upscale.error.generic' };
}
