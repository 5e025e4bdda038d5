import { ERROR_MESSAGES } from '@dewy/contracts';
import { ApiError } from '../../../lib/api-client';
import type { ToolMessage } from './tool-definition';

/**
 * The messages every tool shares, declared once: the insufficient-credits text (its wording is the
 * spec's, 001 §5/§8: locales `toolJob.error.insufficientCredits`), refused content, maintenance, a
 * session that ended, and how a ToolMessage becomes text.
 */

/** i18n key of a failed job (001 §8 'Job failed'), unless a tool words it its own way. */
export const JOB_FAILED_KEY = 'toolJob.error.jobFailed';
/** i18n key when a job's polling gave up (001 §8 'Polling timeout'), unless a tool words it its own way. */
export const JOB_TIMEOUT_KEY = 'toolJob.error.timeout';

/** i18n key of the one insufficient-credits message of every tool (ko: 001 §8, en: 001 §5). */
export const INSUFFICIENT_CREDITS_KEY = 'toolJob.error.insufficientCredits';

/** The server's INSUFFICIENT_CREDITS texts (contracts' ERROR_MESSAGES): an answer without a code that says so. */
const INSUFFICIENT_SERVER_TEXTS: readonly string[] = Object.values(ERROR_MESSAGES.INSUFFICIENT_CREDITS);

/**
 * True when a failed call says the balance is too low: the code INSUFFICIENT_CREDITS, or an HTTP 400
 * whose `error` is the server's text for it (001 §8: "HTTP 400 with error '크레딧이 부족합니다.'").
 */
export function isInsufficientCredits(err: unknown): boolean {
  if (!(err instanceof ApiError)) return false;
  return err.code === 'INSUFFICIENT_CREDITS' || (err.status === 400 && INSUFFICIENT_SERVER_TEXTS.includes(err.serverError ?? ''));
}

/** True when the call ended the session: the session-expired modal is then the one message (issue 17). */
export function endedSession(err: unknown): boolean {
  return err instanceof ApiError && err.sessionEnded;
}

/**
 * The i18n key of a failure every tool words the same way (001 §8): refused content (NSFW), the service
 * under maintenance (MAINTENANCE or HTTP 503), too few credits; null for anything else.
 */
export function sharedFailureKey(err: unknown): string | null {
  if (!(err instanceof ApiError)) return null;
  if (isInsufficientCredits(err)) return INSUFFICIENT_CREDITS_KEY;
  if (err.code === 'NSFW_CONTENT_DETECTED' || err.serverError === 'NSFW_CONTENT_DETECTED') return 'toolJob.error.nsfw';
  if (err.code === 'MAINTENANCE' || err.status === 503) return 'toolJob.error.maintenance';
  return null;
}

/** A translate function (react-i18next's `t`). */
export type Translate = (key: string, values?: Record<string, string | number>) => string;

/** The text of a message, or null for a page dialog (`{ dialog }`), which has none of its own. */
export function messageText(t: Translate, message: ToolMessage): string | null {
  if ('key' in message) return t(message.key, message.values);
  if ('text' in message) return message.text;
  return null;
}
