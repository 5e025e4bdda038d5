import { MALFORMED_ESCAPE_MESSAGE, UPLOAD_LIMITS, safeDecodeURIComponent, type ValidationIssueDetail } from '@dewy/contracts';
import type { AppContext } from '../../context';
import { AppError } from '../../lib/app-error';
import { rewriteToCdn } from '../../providers/storage/cdn';

/** Storage key prefix of everything a user owns: `u/<userId>/`. */
export function userPrefix(userId: number): string {
  return `u/${userId}/`;
}

/**
 * A signed, expiring URL for a stored object, rewritten to the CDN host when one is configured.
 * @param ttlSeconds validity (s), default UPLOAD_LIMITS.viewUrlTtlSeconds
 */
export async function viewUrl(ctx: Pick<AppContext, 'storage' | 'config'>, key: string, opts: { ttlSeconds?: number; downloadFilename?: string } = {}): Promise<string> {
  const url = await ctx.storage.signedGetUrl(key, {
    expiresInSeconds: opts.ttlSeconds ?? UPLOAD_LIMITS.viewUrlTtlSeconds,
    downloadFilename: opts.downloadFilename,
  });
  return rewriteToCdn(url, { cdnDomain: ctx.config.storage.cdnDomain, storageHosts: ctx.storage.storageHosts });
}

/** A VALIDATION_FAILED naming `field` (the page's per-field message, as a schema failure answers). */
function invalidImageUrl(field: string, message: string): AppError {
  const details: ValidationIssueDetail[] = [{ field, rule: 'invalid_format', format: 'image_url', message }];
  return new AppError('VALIDATION_FAILED', { message: `${field}: ${message}`, details });
}

/**
 * The storage key an image URL handed out earlier points at (our signed local URL carries `key=`; an
 * S3 or CDN URL carries it as the path, after the bucket for path-style URLs). The signature is not
 * trusted for authorisation: callers check that the key is the caller's own. The path is decoded by
 * contracts' `safeDecodeURIComponent` (the one guarded decoder), so a malformed escape (`/%zz`) is the
 * caller's mistake, never a URIError (issue 21 point 9).
 * @param field the request field the URL came from, named in the error's details (default `url`)
 * @throws AppError VALIDATION_FAILED (details: `[{field, rule: 'invalid_format'}]`) when no key can be read from the URL.
 */
export function keyFromImageUrl(ctx: Pick<AppContext, 'storage' | 'config'>, url: string, field = 'url'): string {
  let u: URL;
  try {
    u = new URL(url, ctx.config.publicUrl);
  } catch {
    throw invalidImageUrl(field, 'invalid image url');
  }
  const q = u.searchParams.get('key');
  let key = q ?? safeDecodeURIComponent(u.pathname.replace(/^\/+/, ''));
  if (key === null) throw invalidImageUrl(field, MALFORMED_ESCAPE_MESSAGE);
  const bucket = ctx.config.storage.s3.bucket;
  if (!q && bucket && key.startsWith(`${bucket}/`)) key = key.slice(bucket.length + 1);
  if (!/^u\/\d+\/[A-Za-z0-9/_.-]+$/.test(key) || key.includes('..')) throw invalidImageUrl(field, 'invalid image url');
  return key;
}

/**
 * The key of `url` when it belongs to `userId`. One user can never reach another's file.
 * @param field the request field the URL came from (named in a VALIDATION_FAILED's details)
 * @throws AppError VALIDATION_FAILED as `keyFromImageUrl`; FORBIDDEN for a key outside the user's prefix.
 */
export function ownedKeyFromUrl(ctx: Pick<AppContext, 'storage' | 'config'>, userId: number, url: string, field = 'url'): string {
  const key = keyFromImageUrl(ctx, url, field);
  if (!key.startsWith(userPrefix(userId))) throw new AppError('FORBIDDEN');
  return key;
}
