import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createStorageProvider } from './index';

describe('createStorageProvider', () => {
  it('picks local disk by default settings and S3 when asked', async () => {
    const rootDir = await mkdtemp(path.join(tmpdir(), 'dewy-idx-'));
    const local = { rootDir, secret: 'a-secret-of-16-chars!', publicBaseUrl: '' };
    try {
      expect(createStorageProvider({ driver: 'local', local }).kind).toBe('local');
      const s3 = createStorageProvider({ driver: 's3', local, s3: { bucket: 'b', region: 'us-east-1', endpoint: 'http://127.0.0.1:1', forcePathStyle: true } });
      expect(s3.kind).toBe('s3');
      expect(() => createStorageProvider({ driver: 's3', local })).toThrow(/S3_BUCKET/);
      expect(() => createStorageProvider({ driver: 'local', local: { ...local, secret: 'short' } })).toThrow(/secret/);
    } finally {
      await rm(rootDir, { recursive: true, force: true });
    }
  });
});
