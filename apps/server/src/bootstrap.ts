import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from './config';
import type { AppContext } from './context';
import { openDatabase, type Database } from './db/client';
import { createJobQueue, type JobDefinition } from './jobs/queue';
import { upscaleJob } from './modules/upscale/upscale.job';
import { createRetouchEngine } from './providers/engines';
import type { RetouchEngine } from './providers/engines/retouch-engine';
import { createStorageProvider } from './providers/storage';
import type { z } from 'zod';

/**
 * The HMAC secret for signed URLs: APP_SECRET, else one generated once and kept in DATA_DIR/secret
 * (mode 0600) so signed URLs survive restarts. Several hosts must share APP_SECRET.
 */
export function loadSecret(config: AppConfig): string {
  if (config.appSecret) return config.appSecret;
  const file = path.join(config.dataDir, 'secret');
  fs.mkdirSync(config.dataDir, { recursive: true });
  if (!fs.existsSync(file)) fs.writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
  return fs.readFileSync(file, 'utf8').trim();
}

/**
 * Opens everything the API and the workers share: database (migrated), storage, engine and the job
 * queue with every job registered. `overrides` lets tests inject an engine.
 */
export async function createContext(config: AppConfig, overrides: { engine?: RetouchEngine; database?: Database } = {}): Promise<AppContext> {
  const database = overrides.database ?? (await openDatabase(config.database));
  try {
    const secret = loadSecret(config);
    const localBase = config.storage.cdnDomain ? config.publicUrl : '';
    const storage = createStorageProvider({
      driver: config.storage.driver,
      local: { rootDir: config.storage.filesDir, secret, publicBaseUrl: localBase },
      s3: config.storage.driver === 's3' ? { ...config.storage.s3, bucket: config.storage.s3.bucket! } : undefined,
    });
    const engine = overrides.engine ?? createRetouchEngine(config);
    const ctx = { config, database, storage, engine } as Omit<AppContext, 'queue'> as AppContext;
    const jobs: JobDefinition<z.ZodType>[] = [upscaleJob(ctx) as unknown as JobDefinition<z.ZodType>];
    ctx.queue = await createJobQueue(database, jobs);
    return ctx;
  } catch (err) {
    await database.close();
    throw err;
  }
}

/** Closes the context in dependency order: queue (lets running jobs finish), engine, database. */
export async function closeContext(ctx: AppContext, opts: { graceful?: boolean } = {}): Promise<void> {
  await ctx.queue.stop({ graceful: opts.graceful ?? true, timeoutMs: 20_000 }).catch(() => {});
  await ctx.engine.close().catch(() => {});
  await ctx.database.close();
}
