import { ERROR_MESSAGES, isErrorCode, type BatchPhotoStatus, type Locale } from '@dewy/contracts';
import { INSUFFICIENT_CREDITS_KEY, JOB_FAILED_KEY } from '../../../shared/tool-job';

/** A photo's reason as the page tells it: a catalogue key, or the contract's text in the user's language. */
export type PhotoReason = { key: string } | { text: string };

/**
 * Why a photo of a batch failed or was refused, in the user's language: credits with the one
 * insufficient-credits message every tool shares (001 §8), a pause as "paused, not charged", another
 * error code with the contract's message (ERROR_MESSAGES, e.g. UPSCALE_BLOCKED, NSFW_CONTENT_DETECTED),
 * and the kernel's own reasons (JOB_FAILED, JOB_LOST, JOB_TIMEOUT) or anything unknown as the failed-job
 * message. Null for the other statuses.
 */
export function photoReason(status: BatchPhotoStatus, code: string | null, locale: Locale): PhotoReason | null {
  if (status !== 'failed' && status !== 'refused') return null;
  if (code === 'INSUFFICIENT_CREDITS') return { key: INSUFFICIENT_CREDITS_KEY };
  if (code === 'JOB_CANCELLED') return { key: 'batch.photo.paused' };
  if (isErrorCode(code)) return { text: ERROR_MESSAGES[code][locale] };
  return { key: JOB_FAILED_KEY };
}

/** True when "Retry" can help: failed or refused, except for the size rule (the same photo is refused again). */
export function canRetry(status: BatchPhotoStatus, code: string | null): boolean {
  return (status === 'failed' || status === 'refused') && code !== 'UPSCALE_BLOCKED';
}

/** True when a failed photo's credits were given back (every failed job is refunded; a pause never charged). */
export function wasRefunded(status: BatchPhotoStatus, code: string | null): boolean {
  return status === 'failed' && code !== 'JOB_CANCELLED';
}
