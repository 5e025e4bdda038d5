import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { AppError } from '../../lib/app-error';
import { assertValidKey, contentDispositionValue } from './storage-keys';
import type { PresignedPut, PresignPutParams, SignedGetParams, StorageProvider } from './storage.provider';

/** Base64 of a 32-byte digest. */
const SHA256_B64_RE = /^[A-Za-z0-9+/]{43}=$/;

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** S3-compatible endpoint (MinIO, R2, s3rver…), e.g. `http://127.0.0.1:9000`; AWS when unset. */
  endpoint?: string;
  /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers need. */
  forcePathStyle?: boolean;
  /** Static credentials; when unset the SDK's default chain (env, profile, role) applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
}

export interface S3Storage extends StorageProvider {
  readonly kind: 's3';
  readonly bucket: string;
}

/**
 * S3-compatible StorageProvider (GUIDE §1 scaled mode) on @aws-sdk/client-s3.
 *
 * `presignPut` signs a PutObject with `Content-Type`, `Content-Length` and `x-amz-checksum-sha256` as
 * signed headers (the checksum kept out of the query string through `unhoistableHeaders`), so S3
 * refuses a PUT that omits the header or whose body hashes differently; the same two headers come back
 * as `requiredHeaders` for the page to send. `signedGetUrl` presigns a GetObject, with
 * `ResponseContentDisposition: attachment` when a download name is asked for.
 * Errors of the SDK pass through except a missing object, which becomes AppError NOT_FOUND.
 */
export function createS3Storage(opts: S3StorageOptions): S3Storage {
  const config: S3ClientConfig = {
    region: opts.region,
    ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
    forcePathStyle: opts.forcePathStyle ?? false,
    // The SDK would otherwise add CRC32 checksums of its own to every PUT, which several S3-compatible
    // servers refuse; we send the SHA-256 we want ourselves.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...(opts.accessKeyId && opts.secretAccessKey
      ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
      : {}),
  };
  const client = new S3Client(config);
  const Bucket = opts.bucket;

  const storageHosts = [opts.endpoint ? new URL(opts.endpoint).host : `${Bucket}.s3.${opts.region}.amazonaws.com`];
  if (!opts.endpoint) storageHosts.push(`s3.${opts.region}.amazonaws.com`, `${Bucket}.s3.amazonaws.com`);

  return {
    kind: 's3',
    bucket: Bucket,
    storageHosts,

    async put(key, body, contentType) {
      assertValidKey(key);
      await client.send(new PutObjectCommand({ Bucket, Key: key, Body: body, ContentType: contentType, ContentLength: body.length }));
    },

    async get(key) {
      assertValidKey(key);
      try {
        const res = await client.send(new GetObjectCommand({ Bucket, Key: key }));
        if (!res.Body) throw new AppError('NOT_FOUND');
        return Buffer.from(await res.Body.transformToByteArray());
      } catch (e) {
        throw notFoundOr(e);
      }
    },

    async exists(key) {
      assertValidKey(key);
      try {
        await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return true;
      } catch (e) {
        if (isNotFound(e)) return false;
        throw e;
      }
    },

    async delete(key) {
      assertValidKey(key);
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async presignPut(p: PresignPutParams): Promise<PresignedPut> {
      assertValidKey(p.key);
      if (!SHA256_B64_RE.test(p.checksumSha256)) throw new AppError('VALIDATION_FAILED', { details: { field: 'checksumSha256' } });
      if (!Number.isSafeInteger(p.contentLength) || p.contentLength < 0) {
        throw new AppError('VALIDATION_FAILED', { details: { field: 'contentLength' } });
      }
      const command = new PutObjectCommand({
        Bucket,
        Key: p.key,
        ContentType: p.contentType,
        ContentLength: p.contentLength,
        ChecksumSHA256: p.checksumSha256,
      });
      const url = await getSignedUrl(client, command, {
        expiresIn: Math.ceil(p.expiresInSeconds),
        // The presigner leaves content-type unsigned and hoists x-amz-* headers into the query by
        // default; both would let a client upload other bytes or another type than it declared.
        signableHeaders: new Set(['content-type', 'content-length', 'x-amz-checksum-sha256']),
        unhoistableHeaders: new Set(['x-amz-checksum-sha256']),
      });
      return { url, requiredHeaders: { 'Content-Type': p.contentType, 'x-amz-checksum-sha256': p.checksumSha256 } };
    },

    async signedGetUrl(key: string, p: SignedGetParams): Promise<string> {
      assertValidKey(key);
      const command = new GetObjectCommand({
        Bucket,
        Key: key,
        ...(p.downloadFilename ? { ResponseContentDisposition: contentDispositionValue(p.downloadFilename) } : {}),
      });
      return getSignedUrl(client, command, { expiresIn: Math.ceil(p.expiresInSeconds) });
    },
  };
}

function isNotFound(e: unknown): boolean {
  const err = e as { name?: string; $metadata?: { httpStatusCode?: number } } | null;
  return err?.name === 'NoSuchKey' || err?.name === 'NotFound' || err?.$metadata?.httpStatusCode === 404;
}

function notFoundOr(e: unknown): unknown {
  if (e instanceof AppError) return e;
  return isNotFound(e) ? new AppError('NOT_FOUND', { cause: e }) : e;
}
