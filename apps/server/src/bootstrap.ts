import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppConfig } from './config';
import type { AppContext, AppServices } from './context';
import { openDatabase, type Database } from './db/client';
import { JOB_SCHEMAS, SCHEDULES, type JobSchemas } from './jobs/job-map';
import { purgeExpiredContent } from './modules/retention';
import { createJobQueue, type JobHandlers } from './jobs/queue';
import { createLogger } from './lib/logger';
import { createJobEventBus, type ToolDefinition, toolJobHandler } from './modules/tool-jobs';
import { localPoolConfig } from './providers/engines';
import { enginesFromConfig, type EngineOverrides } from './providers/engine-registry';
import { createLocalPool } from './providers/engines/local.engine';
import { createLocalModerator, noModeration, type ContentModerator } from './providers/moderation/content-moderator';
import { createStorageProvider } from './providers/storage';
import { TOOLS } from './tools';
import { type PaymentsProvider, createPaymentsProvider, sendRenewalReminders } from './modules/billing';
import { purgeDeletedAccounts, processDormantAccounts } from './modules/account';
import { createMailProvider, type MailProvider } from './providers/mail';
import { SessionCache } from './modules/auth';

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

/** What tests may replace: engines, the database, the tool list with its job names, the logger. */
export interface ContextOverrides {
  /**
   * Engines to use instead of the configured ones, by capability (a fake; null = not configured);
   * capabilities not named are built from config.
   */
  engines?: EngineOverrides;
  moderator?: ContentModerator;
  database?: Database;
  tools?: readonly ToolDefinition[];
  jobSchemas?: JobSchemas;
  log?: FastifyBaseLogger;
  /** A payments provider (tests: an adapter pointed at a fake server); null = not configured. */
  payments?: PaymentsProvider | null;
  /** A mail provider (tests: SMTP to a local server); default from config. */
  mail?: MailProvider;
}

/** One handler per tool, keyed by the tool's job name (the kernel's generic handler), and the system jobs. */
function toolHandlers(services: AppServices): JobHandlers {
  const handlers: JobHandlers = {
    'retention-purge': { expireInSeconds: 3600, handle: async () => void (await purgeExpiredContent(services)) },
    'account-purge': { expireInSeconds: 3600, handle: async () => void (await purgeDeletedAccounts(services)) },
    'renewal-reminders': { expireInSeconds: 3600, handle: async () => void (await sendRenewalReminders(services)) },
    'dormant-accounts': { expireInSeconds: 3600, handle: async () => void (await processDormantAccounts(services)) },
  };
  for (const tool of services.tools) {
    if (handlers[tool.jobName]) throw new Error(`two tools share the job name ${tool.jobName}`);
    Object.assign(handlers, { [tool.jobName]: toolJobHandler(services, tool, services.log) });
  }
  return handlers;
}

/**
 * Opens everything the API and the workers share: database (migrated), storage, the engine registry, job events
 * and the job queue with a handler for every tool. The worker refuses to start when a declared job
 * name has no tool (see createJobQueue).
 */
export async function createContext(config: AppConfig, overrides: ContextOverrides = {}): Promise<AppContext> {
  const database = overrides.database ?? (await openDatabase(config.database));
  try {
    const log = overrides.log ?? createLogger(config);
    const secret = loadSecret(config);
    const localBase = config.storage.cdnDomain ? config.publicUrl : '';
    const storage = createStorageProvider({
      driver: config.storage.driver,
      local: { rootDir: config.storage.filesDir, secret, publicBaseUrl: localBase },
      s3: config.storage.driver === 's3' ? { ...config.storage.s3, bucket: config.storage.s3.bucket! } : undefined,
    });
    // One worker pool for every local engine of this process (started on the first job).
    const localPool = createLocalPool(localPoolConfig(config));
    const services: AppServices = {
      config,
      secret,
      database,
      storage,
      engines: enginesFromConfig(config, localPool, overrides.engines),
      moderator: overrides.moderator ?? (config.moderation.enabled ? createLocalModerator(localPool, config.moderation.threshold) : noModeration),
      events: createJobEventBus(database, { onError: (err) => log.warn({ err }, 'job event delivery failed') }),
      tools: overrides.tools ?? TOOLS,
      log,
      payments: overrides.payments !== undefined ? overrides.payments : createPaymentsProvider(config, { database, secret, log }),
      mail: overrides.mail ?? createMailProvider(config, log),
    };
    const queue = await createJobQueue(database, overrides.jobSchemas ?? JOB_SCHEMAS, toolHandlers(services), {
      defaultExpireInSeconds: config.workers.jobTimeoutSeconds,
      log,
    });
    const schemas = overrides.jobSchemas ?? JOB_SCHEMAS;
    for (const s of SCHEDULES) if (s.name in schemas) await queue.schedule(s.name, s.cron);
    return { ...services, queue, sessionCache: new SessionCache({ ttlMs: config.session.cacheTtlMs }) };
  } catch (err) {
    await database.close();
    throw err;
  }
}

/** Closes the context in dependency order: queue (lets running jobs finish), events, engines, database. */
export async function closeContext(ctx: AppContext, opts: { graceful?: boolean } = {}): Promise<void> {
  await ctx.sessionCache.close();
  await ctx.queue.stop({ graceful: opts.graceful ?? true, timeoutMs: 20_000 }).catch(() => {});
  await ctx.events.close().catch(() => {});
  await ctx.engines.close();
  await ctx.moderator.close().catch(() => {});
  await ctx.mail.close().catch(() => {});
  await ctx.database.close();
}
