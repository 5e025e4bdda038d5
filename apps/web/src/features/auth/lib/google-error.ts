import { ApiError } from '../../../lib/api-client';

/**
 * The Google login error text (spec 000 §8): the server's error, else 'Google login failed: {details}',
 * else (no answer at all) the network error text.
 */
export function googleErrorText(err: unknown, t: (k: string, o?: Record<string, unknown>) => string): string {
  if (err instanceof ApiError && err.isNetwork) return t('auth.social.networkError');
  if (err instanceof ApiError && err.serverError) return err.serverError;
  return t('auth.social.googleFailed', { details: err instanceof Error ? err.message : String(err) });
}
