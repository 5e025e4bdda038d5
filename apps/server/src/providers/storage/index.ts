import { createLocalStorage, type LocalStorage, type LocalStorageOptions } from './local.storage';
import { createS3Storage, type S3Storage, type S3StorageOptions } from './s3.storage';

export type { PresignedPut, PresignPutParams, SignedGetParams, StorageProvider } from './storage.provider';
export { createLocalStorage, verifyLocalGet, verifyLocalPut, type LocalStorage, type LocalStorageOptions } from './local.storage';
export { createS3Storage, type S3Storage, type S3StorageOptions } from './s3.storage';
export { localStorageRoutesPlugin, registerLocalStorageRoutes } from './local-storage.routes';
export { rewriteToCdn, type CdnRewriteOptions } from './cdn';
export { assertValidKey, contentDispositionValue } from './storage-keys';

export interface StorageConfig {
  /** `local` (embedded default: ./data/files + signed routes) or `s3`. */
  driver: 'local' | 's3';
  local: LocalStorageOptions;
  /** Required when driver is `s3`. */
  s3?: S3StorageOptions;
}

/**
 * Picks the storage adapter from config [Documenso getStorageProvider]. With `local`, the caller must
 * also register the signed routes: `await registerLocalStorageRoutes(app, storage)` (narrow with
 * `storage.kind === 'local'`). Throws an Error at startup when `s3` is chosen without its settings.
 */
export function createStorageProvider(cfg: StorageConfig & { driver: 'local' }): LocalStorage;
export function createStorageProvider(cfg: StorageConfig & { driver: 's3' }): S3Storage;
export function createStorageProvider(cfg: StorageConfig): LocalStorage | S3Storage;
export function createStorageProvider(cfg: StorageConfig): LocalStorage | S3Storage {
  if (cfg.driver === 's3') {
    if (!cfg.s3?.bucket || !cfg.s3.region) throw new Error('storage: driver s3 needs S3_BUCKET and S3_REGION');
    return createS3Storage(cfg.s3);
  }
  return createLocalStorage(cfg.local);
}
