import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { Database } from './db/client';
import type { StorageProvider } from './providers/storage/storage.provider';
import type { JobQueue } from './jobs/queue';
import type { EngineRegistry } from './providers/engine-registry';
import type { ContentModerator } from './providers/moderation/content-moderator';
import type { JobEventBus, ToolDefinition } from './modules/tool-jobs';
import type { PaymentsProvider } from './modules/billing';
import type { MailProvider } from './providers/mail';
import type { SessionCache } from './modules/auth';

/** The services a job handler runs with: everything of the context but the queue that calls it. */
export interface AppServices {
  config: AppConfig;
  /**
   * The HMAC secret (APP_SECRET, else the one kept in DATA_DIR/secret), read once at start by the
   * composition root: signed URLs, tokens, cookies and derived keys. Modules read it here, never from
   * bootstrap.ts (decision 039).
   */
  secret: string;
  database: Database;
  storage: StorageProvider;
  /**
   * The engine of each capability (retouch, face-edit, image-generation, image-edit, llm), built once
   * from config (decision 035): `engines.get('retouch')`; an unconfigured one answers NOT_CONFIGURED.
   */
  engines: EngineRegistry;
  /** Upload screening (NSFW classifier on the engine workers, or off). */
  moderator: ContentModerator;
  /** Job progress and status, across processes (SSE to the page). */
  events: JobEventBus;
  /** The paid tools this process serves (src/tools.ts; tests add their own). */
  tools: readonly ToolDefinition[];
  /** Structured logs (pino), the same logger for the API, the workers and the jobs. */
  log: FastifyBaseLogger;
  /** The payments provider of PAYMENTS_PROVIDER; null when it is not configured (buying is off). */
  payments: PaymentsProvider | null;
  /** Outgoing mail: SMTP (SMTP_URL) or the `.eml` outbox in DATA_DIR/outbox (decision 020). */
  mail: MailProvider;
}

/** Everything a route module or job needs, built once at start (api.ts, worker.ts, tests). */
export interface AppContext extends AppServices {
  queue: JobQueue;
  /**
   * Sessions resolved recently (decision 026): filled and read by the access hook and auth/check;
   * listening for invalidations once `buildApp` starts it (worker processes never do).
   */
  sessionCache: SessionCache;
}
