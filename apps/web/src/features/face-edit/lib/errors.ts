import { ApiError } from '../../../lib/api-client';
import { sharedFailureKey } from '../../../shared/tool-job/lib/tool-messages';

/** i18n key of a failed face-edit job (001 §8 FACE_EDIT_FAILED). */
export const FACE_EDIT_FAILED_KEY = 'faceEdit.error.aiFailed';
/** i18n key when the face-edit polling gave up (001 §8 TIMEOUT). */
export const FACE_EDIT_TIMEOUT_KEY = 'faceEdit.error.timeout';

/**
 * What the face-edit error dialog says for a failure of a call (run, mask upload), 001 §5/§8, as an
 * i18n key; null for a 401/419, which the session-expired dialog already handles (login expired).
 * Order: server codes first (credits, mask, content, maintenance: the messages every tool shares),
 * then the network, then the spec's text rules: FACE_EDIT_FAILED, TIMEOUT, anything else containing
 * FAILED, otherwise the default.
 */
export function faceEditErrorKey(err: unknown, online: boolean): string | null {
  if (err instanceof ApiError) {
    if (err.status === 401 || err.status === 419) return null;
    if (err.code === 'MASK_REQUIRED') return 'faceEdit.error.maskRequired';
    if (err.code === 'MASK_EMPTY') return 'faceEdit.error.maskEmpty';
    const shared = sharedFailureKey(err);
    if (shared) return shared;
    if (err.isNetwork && !online) return 'faceEdit.error.offline';
  } else if (!online) {
    return 'faceEdit.error.offline';
  }
  const text = err instanceof ApiError ? `${err.code ?? ''} ${err.message}` : err instanceof Error ? err.message : String(err);
  if (text.includes('FACE_EDIT_FAILED')) return FACE_EDIT_FAILED_KEY;
  if (text.includes('TIMEOUT')) return FACE_EDIT_TIMEOUT_KEY;
  if (text.includes('FAILED')) return 'faceEdit.error.processingFailed';
  return 'faceEdit.error.generic';
}
