import type { AppConfig } from './config';
import type { Database } from './db/client';
import type { StorageProvider } from './providers/storage/storage.provider';
import type { JobQueue } from './jobs/queue';
import type { RetouchEngine } from './providers/engines/retouch-engine';

/** Everything a route module or job handler needs, built once at start (api.ts, worker.ts, tests). */
export interface AppContext {
  config: AppConfig;
  database: Database;
  storage: StorageProvider;
  queue: JobQueue;
  /** The retouch/upscale engine chosen by config (local CPU or RunPod). */
  engine: RetouchEngine;
}
