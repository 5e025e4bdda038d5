import { INSUFFICIENT_CREDITS_KEY } from '../../../shared/tool-job/lib/tool-messages';

/** What the page knows about the saved mask when Run is pressed. */
export interface MaskSnapshot {
  /** The mask PNG is stored (its upload finished); false while it uploads or after a failed upload. */
  uploaded: boolean;
  /** Painted pixels of the saved mask. */
  painted: number;
}

export interface RunCheckInput {
  hasImage: boolean;
  online: boolean;
  /** null: no mask saved yet. */
  mask: MaskSnapshot | null;
  balance: number;
  /** Cost of the run; null without a photo. */
  cost: number | null;
}

/**
 * Why a run cannot start, checked before anything is sent (001 §5), as the i18n key of its message:
 * no photo, offline, no saved mask, an empty mask, too few credits; null when it can start.
 */
export function runBlocker({ hasImage, online, mask, balance, cost }: RunCheckInput): string | null {
  if (!hasImage) return 'faceEdit.error.noImage';
  if (!online) return 'faceEdit.error.offline';
  if (!mask) return 'faceEdit.error.maskRequired';
  if (mask.painted === 0) return 'faceEdit.error.maskEmpty';
  if (!mask.uploaded) return 'faceEdit.error.maskRequired';
  if (cost !== null && balance < cost) return INSUFFICIENT_CREDITS_KEY;
  return null;
}
