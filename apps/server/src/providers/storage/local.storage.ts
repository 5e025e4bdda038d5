import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../lib/app-error';
import { assertValidKey } from './storage-keys';
import type { PresignedPut, PresignPutParams, SignedGetParams, StorageProvider } from './storage.provider';

/**
 * Local-disk storage: the embedded default of GUIDE §1 (`./data/files`). Objects live at
 * `<rootDir>/<key>`; the content type given at upload sits beside them in `<rootDir>/.meta/<key>.json`
 * so that the file route answers with what was uploaded, as S3 does. Temporary files go to
 * `<rootDir>/.tmp` (same file system, so `rename` is atomic). Keys may not have segments starting
 * with `.`, which keeps `.meta` and `.tmp` out of reach of any key.
 *
 * Browser uploads go through the HMAC-signed `PUT /api/storage/upload` route (local-storage.routes.ts),
 * which plays the part of an S3 presigned PUT: the signature covers key, expiry, exact length, SHA-256
 * and content type, and the route refuses a body whose hash differs.
 */

export const LOCAL_UPLOAD_PATH = '/api/storage/upload';
export const LOCAL_FILE_PATH = '/api/storage/file';

/** Base64 of a 32-byte digest: 43 characters and one `=`. */
const SHA256_B64_RE = /^[A-Za-z0-9+/]{43}=$/;
/** `type/subtype` with token characters only; refuses CR/LF and parameters we would not echo back. */
const CONTENT_TYPE_RE = /^[A-Za-z0-9!#$&^_.+-]{1,64}\/[A-Za-z0-9!#$&^_.+-]{1,64}$/;

export interface LocalStorageOptions {
  /** Folder holding the objects; created on first write. Default `./data/files`. */
  rootDir?: string;
  /** HMAC key of the signed URLs (at least 16 characters; keep it secret and stable across restarts). */
  secret: string;
  /** Origin the browser reaches the API on, e.g. `https://dewy.example`; `''` yields relative URLs. */
  publicBaseUrl: string;
  /** Clock (ms since epoch), for tests. */
  now?: () => number;
}

/** The parameters a signed upload URL carries, after its signature has been checked. */
export interface VerifiedPut {
  key: string;
  /** Expiry, seconds since epoch. */
  exp: number;
  /** Exact body length (bytes). */
  contentLength: number;
  /** Base64 SHA-256 of the body. */
  checksumSha256: string;
  contentType: string;
}

/** The parameters a signed file URL carries, after its signature has been checked. */
export interface VerifiedGet {
  key: string;
  /** Expiry, seconds since epoch. */
  exp: number;
  downloadFilename?: string;
}

export interface StoredObjectStream {
  stream: ReadStream;
  /** Bytes. */
  size: number;
  contentType: string;
}

export interface LocalStorage extends StorageProvider {
  readonly kind: 'local';
  readonly rootDir: string;
  /**
   * Checks a signed upload URL's query. Throws AppError FORBIDDEN when a field is missing or the
   * signature does not match, UPLOAD_EXPIRED when it is past its expiry.
   */
  verifyPut(query: Record<string, unknown>): VerifiedPut;
  /** Checks a signed file URL's query. Throws AppError FORBIDDEN when invalid or expired. */
  verifyGet(query: Record<string, unknown>): VerifiedGet;
  /**
   * Streams `source` into the object `expect.key` and keeps it only when it is exactly
   * `expect.contentLength` bytes with SHA-256 `expect.checksumSha256`; otherwise nothing is kept.
   * Never holds more than one chunk in memory and stops reading past `contentLength + 1` bytes.
   * Throws AppError PAYLOAD_TOO_LARGE (longer body), VALIDATION_FAILED (shorter body),
   * CHECKSUM_MISMATCH. Returns the S3-style ETag (quoted MD5 hex).
   */
  receive(source: Readable, expect: VerifiedPut): Promise<{ etag: string }>;
  /** Opens the object for streaming; throws AppError NOT_FOUND when missing. */
  openRead(key: string): Promise<StoredObjectStream>;
}

/** HMAC-SHA256 (base64url) of the canonical string of a signed upload URL. */
export function signLocalPut(secret: string, p: VerifiedPut): string {
  return hmac(secret, ['PUT', p.key, String(p.exp), String(p.contentLength), p.checksumSha256, p.contentType].join('\n'));
}

/** HMAC-SHA256 (base64url) of the canonical string of a signed file URL. */
export function signLocalGet(secret: string, p: VerifiedGet): string {
  return hmac(secret, ['GET', p.key, String(p.exp), p.downloadFilename ?? ''].join('\n'));
}

/**
 * Verifies the query of a signed upload URL (`key, exp, len, sha, ct, sig`) against `secret` at time
 * `nowMs`. The signature is compared in constant time before the expiry is looked at, so a forged
 * expiry reads as FORBIDDEN. Throws AppError FORBIDDEN or UPLOAD_EXPIRED.
 */
export function verifyLocalPut(secret: string, query: Record<string, unknown>, nowMs: number): VerifiedPut {
  const key = str(query.key);
  const exp = int(query.exp);
  const len = int(query.len);
  const sha = str(query.sha);
  const ct = str(query.ct);
  const sig = str(query.sig);
  if (key === undefined || exp === undefined || len === undefined || sha === undefined || ct === undefined || sig === undefined) {
    throw new AppError('FORBIDDEN', { details: { reason: 'incomplete signed URL' } });
  }
  const params: VerifiedPut = { key, exp, contentLength: len, checksumSha256: sha, contentType: ct };
  if (!safeEqual(sig, signLocalPut(secret, params))) throw new AppError('FORBIDDEN', { details: { reason: 'bad signature' } });
  if (nowMs >= exp * 1000) throw new AppError('UPLOAD_EXPIRED');
  assertValidKey(key);
  return params;
}

/**
 * Verifies the query of a signed file URL (`key, exp, sig[, dl]`) against `secret` at time `nowMs`.
 * Throws AppError FORBIDDEN when incomplete, forged or expired.
 */
export function verifyLocalGet(secret: string, query: Record<string, unknown>, nowMs: number): VerifiedGet {
  const key = str(query.key);
  const exp = int(query.exp);
  const sig = str(query.sig);
  const dl = str(query.dl);
  if (key === undefined || exp === undefined || sig === undefined) {
    throw new AppError('FORBIDDEN', { details: { reason: 'incomplete signed URL' } });
  }
  const params: VerifiedGet = { key, exp, ...(dl ? { downloadFilename: dl } : {}) };
  if (!safeEqual(sig, signLocalGet(secret, params))) throw new AppError('FORBIDDEN', { details: { reason: 'bad signature' } });
  if (nowMs >= exp * 1000) throw new AppError('FORBIDDEN', { details: { reason: 'expired' } });
  assertValidKey(key);
  return params;
}

/**
 * Local-disk StorageProvider (see the file comment). `presignPut` returns
 * `${publicBaseUrl}/api/storage/upload?key&exp&len&sha&ct&sig` with requiredHeaders `Content-Type` and
 * `x-amz-checksum-sha256`, the same pair the S3 adapter asks for; `signedGetUrl` returns
 * `${publicBaseUrl}/api/storage/file?key&exp[&dl]&sig`. Expiries are whole seconds since epoch.
 */
export function createLocalStorage(opts: LocalStorageOptions): LocalStorage {
  if (!opts.secret || opts.secret.length < 16) throw new Error('local storage: secret must be at least 16 characters');
  const rootDir = path.resolve(opts.rootDir ?? './data/files');
  const metaDir = path.join(rootDir, '.meta');
  const tmpDir = path.join(rootDir, '.tmp');
  const base = opts.publicBaseUrl.replace(/\/+$/, '');
  const now = opts.now ?? Date.now;
  const secret = opts.secret;

  const objectPath = (key: string): string => {
    assertValidKey(key);
    const p = path.resolve(rootDir, key);
    // Defence in depth: the key rules already forbid escaping the root.
    if (!p.startsWith(rootDir + path.sep)) throw new AppError('VALIDATION_FAILED', { details: { field: 'key' } });
    return p;
  };
  const metaPath = (key: string): string => path.join(metaDir, `${key}.json`);
  const tmpPath = (): string => path.join(tmpDir, `${randomUUID()}.part`);

  async function commit(key: string, tmpFile: string, contentType: string): Promise<void> {
    const target = objectPath(key);
    await mkdir(path.dirname(target), { recursive: true });
    const meta = metaPath(key);
    await mkdir(path.dirname(meta), { recursive: true });
    const metaTmp = tmpPath();
    await writeFile(metaTmp, JSON.stringify({ contentType }));
    await rename(metaTmp, meta);
    await rename(tmpFile, target);
  }

  async function contentTypeOf(key: string): Promise<string> {
    try {
      const meta = JSON.parse(await readFile(metaPath(key), 'utf8')) as { contentType?: unknown };
      if (typeof meta.contentType === 'string' && CONTENT_TYPE_RE.test(meta.contentType)) return meta.contentType;
    } catch {
      // No sidecar (object written by hand or by an older version): fall back to the extension.
    }
    return contentTypeFromExtension(key);
  }

  return {
    kind: 'local',
    storageHosts: /^https?:\/\//i.test(base) ? [new URL(base).host] : [],
    rootDir,

    async put(key, body, contentType) {
      objectPath(key);
      assertContentType(contentType);
      await mkdir(tmpDir, { recursive: true });
      const tmp = tmpPath();
      try {
        await writeFile(tmp, body);
        await commit(key, tmp, contentType);
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
    },

    async get(key) {
      try {
        return await readFile(objectPath(key));
      } catch (e) {
        if (isNotFound(e)) throw new AppError('NOT_FOUND', { cause: e });
        throw e;
      }
    },

    async exists(key) {
      try {
        return (await stat(objectPath(key))).isFile();
      } catch (e) {
        if (isNotFound(e)) return false;
        throw e;
      }
    },

    async delete(key) {
      // Idempotent, like S3 DeleteObject.
      await rm(objectPath(key), { force: true });
      await rm(metaPath(key), { force: true });
    },

    async presignPut(p: PresignPutParams): Promise<PresignedPut> {
      assertValidKey(p.key);
      assertContentType(p.contentType);
      if (!Number.isSafeInteger(p.contentLength) || p.contentLength < 0) {
        throw new AppError('VALIDATION_FAILED', { details: { field: 'contentLength' } });
      }
      if (!SHA256_B64_RE.test(p.checksumSha256)) throw new AppError('VALIDATION_FAILED', { details: { field: 'checksumSha256' } });
      const signed: VerifiedPut = {
        key: p.key,
        exp: expiry(now(), p.expiresInSeconds),
        contentLength: p.contentLength,
        checksumSha256: p.checksumSha256,
        contentType: p.contentType,
      };
      const q = new URLSearchParams({
        key: signed.key,
        exp: String(signed.exp),
        len: String(signed.contentLength),
        sha: signed.checksumSha256,
        ct: signed.contentType,
        sig: signLocalPut(secret, signed),
      });
      return {
        url: `${base}${LOCAL_UPLOAD_PATH}?${q.toString()}`,
        requiredHeaders: { 'Content-Type': p.contentType, 'x-amz-checksum-sha256': p.checksumSha256 },
      };
    },

    async signedGetUrl(key: string, p: SignedGetParams): Promise<string> {
      assertValidKey(key);
      const signed: VerifiedGet = { key, exp: expiry(now(), p.expiresInSeconds), ...(p.downloadFilename ? { downloadFilename: p.downloadFilename } : {}) };
      const q = new URLSearchParams({ key, exp: String(signed.exp) });
      if (signed.downloadFilename) q.set('dl', signed.downloadFilename);
      q.set('sig', signLocalGet(secret, signed));
      return `${base}${LOCAL_FILE_PATH}?${q.toString()}`;
    },

    verifyPut: (query) => verifyLocalPut(secret, query, now()),
    verifyGet: (query) => verifyLocalGet(secret, query, now()),

    async receive(source, expect) {
      objectPath(expect.key);
      await mkdir(tmpDir, { recursive: true });
      const tmp = tmpPath();
      const sha = createHash('sha256');
      const md5 = createHash('md5');
      let received = 0;
      const meter = new Transform({
        transform(chunk: Buffer, _enc, done) {
          received += chunk.length;
          if (received > expect.contentLength) {
            done(new AppError('PAYLOAD_TOO_LARGE', { details: { expectedBytes: expect.contentLength } }));
            return;
          }
          sha.update(chunk);
          md5.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(source, meter, createWriteStream(tmp, { flags: 'wx' }));
        if (received !== expect.contentLength) {
          throw new AppError('VALIDATION_FAILED', { details: { reason: 'body shorter than the signed length', receivedBytes: received } });
        }
        if (!safeEqual(sha.digest('base64'), expect.checksumSha256)) throw new AppError('CHECKSUM_MISMATCH');
        await commit(expect.key, tmp, expect.contentType);
        return { etag: `"${md5.digest('hex')}"` };
      } catch (e) {
        await rm(tmp, { force: true });
        throw e;
      }
    },

    async openRead(key) {
      const file = objectPath(key);
      let size: number;
      try {
        const st = await stat(file);
        if (!st.isFile()) throw new AppError('NOT_FOUND');
        size = st.size;
      } catch (e) {
        if (isNotFound(e)) throw new AppError('NOT_FOUND', { cause: e });
        throw e;
      }
      return { stream: createReadStream(file), size, contentType: await contentTypeOf(key) };
    },
  };
}

/** Content type guessed from a key's extension, for objects without a sidecar. */
export function contentTypeFromExtension(key: string): string {
  const ext = path.extname(key).toLowerCase();
  const map: Record<string, string> = {
    '.jpg': 'image/jpeg',
    '.jpeg': 'image/jpeg',
    '.png': 'image/png',
    '.webp': 'image/webp',
    '.gif': 'image/gif',
    '.json': 'application/json',
    '.txt': 'text/plain',
  };
  return map[ext] ?? 'application/octet-stream';
}

function assertContentType(ct: string): void {
  if (!CONTENT_TYPE_RE.test(ct)) throw new AppError('VALIDATION_FAILED', { details: { field: 'contentType' } });
}

function expiry(nowMs: number, expiresInSeconds: number): number {
  if (!Number.isFinite(expiresInSeconds) || expiresInSeconds <= 0) {
    throw new AppError('VALIDATION_FAILED', { details: { field: 'expiresInSeconds' } });
  }
  return Math.floor(nowMs / 1000) + Math.ceil(expiresInSeconds);
}

function hmac(secret: string, data: string): string {
  return createHmac('sha256', secret).update(data).digest('base64url');
}

/** Constant-time string comparison (length differences return false without comparing). */
function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' && v.length > 0 ? v : undefined;
}

function int(v: unknown): number | undefined {
  if (typeof v !== 'string' || !/^\d{1,15}$/.test(v)) return undefined;
  return Number(v);
}

function isNotFound(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
