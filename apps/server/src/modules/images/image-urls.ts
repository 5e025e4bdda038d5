import { UPLOAD_LIMITS } from '@dewy/contracts';
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

/**
 * The storage key an image URL handed out earlier points at (our signed local URL carries `key=`; an
 * S3 or CDN URL carries it as the path, after the bucket for path-style URLs). The signature is not
 * trusted for authorisation: callers check that the key is the caller's own.
 * @throws AppError VALIDATION_FAILED when no key can be read from the URL.
 */
export function keyFromImageUrl(ctx: Pick<AppContext, 'storage' | 'config'>, url: string): string {
  let u: URL;
  try {
    u = new URL(url, ctx.config.publicUrl);
  } catch {
    throw new AppError('VALIDATION_FAILED', { message: 'invalid image url' });
  }
  const q = u.searchParams.get('key');
  let key = q ?? decodeURIComponent(u.pathname.replace(/^\/+/, ''));
  const bucket = ctx.config.storage.s3.bucket;
  if (!q && bucket && key.startsWith(`${bucket}/`)) key = key.slice(bucket.length + 1);
  if (!/^u\/\d+\/[A-Za-z0-9/_.-]+$/.test(key) || key.includes('..')) throw new AppError('VALIDATION_FAILED', { message: 'invalid image url' });
  return key;
}

/**
 * The key of `url` when it belongs to `userId`. One user can never reach another's file.
 * @throws AppError FORBIDDEN for a key outside the user's prefix.
 */
export function ownedKeyFromUrl(ctx: Pick<AppContext, 'storage' | 'config'>, userId: number, url: string): string {
  const key = keyFromImageUrl(ctx, url);
  if (!key.startsWith(userPrefix(userId))) throw new AppError('FORBIDDEN');
  return key;
}
