/**
 * Storage of customers' photos, shaped by our use (not a vendor's API) [Documenso getStorageProvider].
 * Keys are opaque paths such as `u/42/originals/<uuid>.jpg`; every key of a user starts `u/<userId>/`.
 * Objects are private: the page only ever receives signed, expiring URLs.
 */
export interface PresignPutParams {
  key: string;
  contentType: string;
  /** Exact byte length the client will send. */
  contentLength: number;
  /** Base64 SHA-256 of the body; the store refuses a body that does not match. */
  checksumSha256: string;
  /** Seconds the URL stays valid. */
  expiresInSeconds: number;
}

export interface PresignedPut {
  url: string;
  /** Headers the client must send with the PUT, exactly. */
  requiredHeaders: Record<string, string>;
}

export interface SignedGetParams {
  expiresInSeconds: number;
  /** When set, the response asks the browser to download under this file name. */
  downloadFilename?: string;
}

export interface StorageProvider {
  readonly kind: 'local' | 's3';
  /** Hosts (`host[:port]`) of the URLs this store hands out; empty when they are relative. Used for CDN rewriting. */
  readonly storageHosts: string[];
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The object's bytes; throws AppError('NOT_FOUND') when missing. */
  get(key: string): Promise<Buffer>;
  exists(key: string): Promise<boolean>;
  delete(key: string): Promise<void>;
  presignPut(params: PresignPutParams): Promise<PresignedPut>;
  /** A URL the browser (or a remote GPU worker) can GET until it expires. */
  signedGetUrl(key: string, params: SignedGetParams): Promise<string>;
}
