import { AppError } from '../../lib/app-error';

/** Longest key accepted (characters). */
const MAX_KEY_LENGTH = 512;
const KEY_RE = /^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)*$/;

/**
 * Validates a storage key for every adapter: relative, `[A-Za-z0-9/_.-]` only, no empty segment, no
 * segment starting with `.` (so no `..`, and the local adapter's `.meta`/`.tmp` folders stay out of
 * reach), at most 512 characters. Throws AppError VALIDATION_FAILED otherwise.
 */
export function assertValidKey(key: string): void {
  const ok =
    typeof key === 'string' &&
    key.length > 0 &&
    key.length <= MAX_KEY_LENGTH &&
    KEY_RE.test(key) &&
    key.split('/').every((segment) => !segment.startsWith('.'));
  if (!ok) throw new AppError('VALIDATION_FAILED', { details: { field: 'key', reason: 'invalid storage key' } });
}

/**
 * `Content-Disposition: attachment` value with an ASCII fallback name and the RFC 6266/5987 UTF-8
 * name, so Korean file names survive and quotes or control characters cannot break the header.
 */
export function contentDispositionValue(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
