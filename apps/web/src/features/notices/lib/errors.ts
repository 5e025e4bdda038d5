import { ApiError } from '../../../lib/api-client';

/**
 * What a failed notice call shows (spec 002 §8): the server's error text as is (it is already in the
 * reader's language), otherwise the page's fallback for that action.
 */
export function noticeErrorText(err: unknown, fallback: string): string {
  if (err instanceof ApiError && !err.isNetwork) {
    const text = err.serverError ?? err.message;
    if (text && !/^HTTP \d+$/.test(text)) return text;
  }
  return fallback;
}

/** The notice id of a route parameter: a positive whole number, else null. */
export function parseNoticeId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,10}$/.test(raw)) return null;
  const n = Number(raw);
  return n >= 1 && n <= 2_147_483_647 ? n : null;
}
