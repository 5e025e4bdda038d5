import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Readable } from 'node:stream';
import { AppError } from '../../lib/app-error';
import { contentDispositionValue } from './storage-keys';
import { LOCAL_FILE_PATH, LOCAL_UPLOAD_PATH, type LocalStorage } from './local.storage';

/** Longest `Cache-Control: max-age` the file route gives (s), whatever the URL's remaining life. */
const MAX_CACHE_SECONDS = 3600;

export interface LocalStorageRoutesOptions {
  storage: LocalStorage;
}

/**
 * The two routes that stand in for S3 when files are on local disk (GUIDE §1, §3):
 *
 * - `PUT /api/storage/upload?key&exp&len&sha&ct&sig`: the presigned upload. Checks the HMAC signature
 *   (403 FORBIDDEN) and expiry (403 UPLOAD_EXPIRED), that `Content-Length` equals the signed length,
 *   that `Content-Type` and `x-amz-checksum-sha256` equal the signed values (400 VALIDATION_FAILED),
 *   then streams the body to a temporary file with a hard byte cap and keeps it only when its SHA-256
 *   matches (400 CHECKSUM_MISMATCH). Answers 200 with an empty body and an `ETag`, as S3 does.
 * - `GET /api/storage/file?key&exp[&dl]&sig`: the signed download. 403 FORBIDDEN when forged or
 *   expired, 404 NOT_FOUND when missing; streams the object with its stored content type,
 *   `Cache-Control: private, max-age=…` (at most the URL's remaining life),
 *   `Cross-Origin-Resource-Policy: cross-origin` and `Content-Disposition: attachment` when `dl` is set.
 *
 * Registered in its own encapsulated context: its catch-all raw-body parser replaces every parser
 * there (so an upload labelled `application/json` is not parsed as JSON) and never leaks into the app.
 * These routes carry their own authorisation (the signature): leave them out of session/origin hooks.
 */
export const localStorageRoutesPlugin: FastifyPluginAsync<LocalStorageRoutesOptions> = async (scope, { storage }) => {
  scope.removeAllContentTypeParsers();
  // Hand the raw request stream to the handler, which reads it with its own cap.
  scope.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  scope.put(LOCAL_UPLOAD_PATH, { config: { access: 'public' } }, async (req, reply) => {
    const signed = storage.verifyPut(req.query as Record<string, unknown>);

    const declared = req.headers['content-length'];
    if (declared === undefined || !/^\d+$/.test(declared) || Number(declared) !== signed.contentLength) {
      throw new AppError('VALIDATION_FAILED', {
        details: { header: 'content-length', expected: signed.contentLength, got: declared ?? null },
      });
    }
    if (req.headers['content-type'] !== signed.contentType) {
      throw new AppError('VALIDATION_FAILED', { details: { header: 'content-type', expected: signed.contentType } });
    }
    if (req.headers['x-amz-checksum-sha256'] !== signed.checksumSha256) {
      throw new AppError('VALIDATION_FAILED', { details: { header: 'x-amz-checksum-sha256' } });
    }

    // A zero-length PUT has no body, and Fastify then gives no stream to the handler.
    const source = (req.body as Readable | undefined) ?? req.raw;
    const { etag } = await storage.receive(source, signed);
    return reply
      .code(200)
      .header('ETag', etag)
      .header('x-amz-checksum-sha256', signed.checksumSha256)
      .header('Cache-Control', 'no-store')
      .send();
  });

  scope.get(LOCAL_FILE_PATH, { config: { access: 'public' } }, async (req, reply) => {
    const signed = storage.verifyGet(req.query as Record<string, unknown>);
    const obj = await storage.openRead(signed.key);
    const remaining = Math.max(0, signed.exp - Math.floor(Date.now() / 1000));
    reply
      .header('Content-Type', obj.contentType)
      .header('Content-Length', String(obj.size))
      .header('Cache-Control', `private, max-age=${Math.min(remaining, MAX_CACHE_SECONDS)}`)
      .header('X-Content-Type-Options', 'nosniff')
      // The signature is the capability, as with an S3 object (which sends no CORP): a CDN on another
      // host (CDN_DOMAIN) may serve this file to our page, which the app-wide `same-origin` would block.
      .header('Cross-Origin-Resource-Policy', 'cross-origin');
    if (signed.downloadFilename) reply.header('Content-Disposition', contentDispositionValue(signed.downloadFilename));
    return reply.send(obj.stream);
  });
};

/**
 * Registers the local storage routes (see `localStorageRoutesPlugin`) on `app` inside an encapsulated
 * child context. Call (and await) during app setup when `STORAGE_DRIVER=local`.
 */
export async function registerLocalStorageRoutes(app: FastifyInstance, storage: LocalStorage): Promise<void> {
  await app.register(localStorageRoutesPlugin, { storage });
}
