import path from 'node:path';
import { z } from 'zod';

/**
 * Server configuration parsed from the environment with zod. Every default is the embedded one
 * (`npm start` with no servers): PGlite in ./data/db, local files in ./data/files, in-process workers,
 * local CPU engines. Paths are resolved against the repository root (the folder holding package.json
 * of the workspace), so `npm start` from the root and `npm start -w @dewy/server` agree.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../..');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  /** Public origin of the site, used for absolute URLs and the Origin check; default http://localhost:PORT. */
  PUBLIC_URL: z.string().url().optional(),
  /** Extra origins allowed to make state-changing requests (comma separated). */
  ALLOWED_ORIGINS: z.string().default(''),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATA_DIR: z.string().default('data'),
  /** PostgreSQL connection string; when unset the embedded PGlite in DATA_DIR/db is used. */
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10),
  /** Secret for session-independent signatures (signed upload/download URLs). Generated and kept in DATA_DIR when unset. */
  APP_SECRET: z.string().min(32).optional(),
  SESSION_IDLE_HOURS: z.coerce.number().positive().default(24 * 7),
  SESSION_ABSOLUTE_DAYS: z.coerce.number().positive().default(30),
  /** Secure cookies: 'auto' = when the request arrived over https (trustProxy honours X-Forwarded-Proto). */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: bool.default(false),
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(20),
  LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  WELCOME_CREDITS: z.coerce.number().int().min(0).default(300),
  /** Where the built web app lives; served with SPA fallback when present. */
  WEB_DIST_DIR: z.string().default('apps/web/dist'),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  FILES_DIR: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_ENDPOINT: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** When set, image URLs handed to the page are rewritten to this CDN host. */
  CDN_DOMAIN: z.string().optional(),
  /** 'local' (CPU engines in worker threads) or 'runpod' (RunPod serverless). */
  RETOUCH_ENGINE: z.enum(['local', 'runpod']).default('local'),
  RUNPOD_ENDPOINT_URL: z.string().url().optional(),
  RUNPOD_API_KEY: z.string().optional(),
  RUNPOD_POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(2000),
  MODELS_DIR: z.string().default('data/models'),
  ENGINE_THREADS: z.coerce.number().int().min(1).default(1),
  /** Run queue workers inside the API process (the embedded default). */
  RUN_WORKERS: bool.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(1),
  /** A job running longer than this is failed and refunded (s). */
  JOB_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(600),
  /** Image-generation vendor; the flag stays off until one is configured. */
  SEEDREAM_API_KEY: z.string().optional(),
  KLING_ACCESS_KEY: z.string().optional(),
});

export type Env = z.infer<typeof EnvSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  host: string;
  port: number;
  publicUrl: string;
  allowedOrigins: string[];
  logLevel: Env['LOG_LEVEL'];
  dataDir: string;
  database: { kind: 'pglite'; dir: string } | { kind: 'postgres'; url: string; poolMax: number };
  appSecret?: string;
  session: { idleMs: number; absoluteMs: number; cookieSecure: 'auto' | boolean };
  trustProxy: boolean;
  loginLimits: { perAccount: number; perIp: number; windowMs: number };
  welcomeCredits: number;
  webDistDir: string;
  storage: {
    driver: 'local' | 's3';
    filesDir: string;
    s3: { bucket?: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
    cdnDomain?: string;
  };
  engine: { kind: 'local' | 'runpod'; runpodEndpointUrl?: string; runpodApiKey?: string; runpodPollIntervalMs: number; modelsDir: string; threads: number };
  workers: { inProcess: boolean; concurrency: number; jobTimeoutSeconds: number };
  vendors: { imageGenerationConfigured: boolean };
}

/**
 * Parses the environment into an AppConfig.
 * @throws Error listing every invalid variable (the process should exit with it).
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const abs = (p: string) => (path.isAbsolute(p) ? p : path.join(REPO_ROOT, p));
  const dataDir = abs(e.DATA_DIR);
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) throw new Error('Invalid configuration:\n  S3_BUCKET: required when STORAGE_DRIVER=s3');
  if (e.RETOUCH_ENGINE === 'runpod' && (!e.RUNPOD_ENDPOINT_URL || !e.RUNPOD_API_KEY)) {
    throw new Error('Invalid configuration:\n  RUNPOD_ENDPOINT_URL and RUNPOD_API_KEY: required when RETOUCH_ENGINE=runpod');
  }
  return {
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    allowedOrigins: e.ALLOWED_ORIGINS.split(',').map((s) => s.trim()).filter(Boolean),
    logLevel: e.LOG_LEVEL,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL, poolMax: e.DATABASE_POOL_MAX }
      : { kind: 'pglite', dir: path.join(dataDir, 'db') },
    appSecret: e.APP_SECRET,
    session: {
      idleMs: e.SESSION_IDLE_HOURS * 3600_000,
      absoluteMs: e.SESSION_ABSOLUTE_DAYS * 86400_000,
      cookieSecure: e.COOKIE_SECURE === 'auto' ? 'auto' : e.COOKIE_SECURE === 'true',
    },
    trustProxy: e.TRUST_PROXY,
    loginLimits: { perAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT, perIp: e.LOGIN_MAX_FAILURES_PER_IP, windowMs: e.LOGIN_WINDOW_MINUTES * 60_000 },
    welcomeCredits: e.WELCOME_CREDITS,
    webDistDir: abs(e.WEB_DIST_DIR),
    storage: {
      driver: e.STORAGE_DRIVER,
      filesDir: abs(e.FILES_DIR ?? path.join(e.DATA_DIR, 'files')),
      s3: {
        bucket: e.S3_BUCKET,
        region: e.S3_REGION,
        endpoint: e.S3_ENDPOINT,
        accessKeyId: e.S3_ACCESS_KEY_ID,
        secretAccessKey: e.S3_SECRET_ACCESS_KEY,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
      },
      cdnDomain: e.CDN_DOMAIN || undefined,
    },
    engine: {
      kind: e.RETOUCH_ENGINE,
      runpodEndpointUrl: e.RUNPOD_ENDPOINT_URL,
      runpodApiKey: e.RUNPOD_API_KEY,
      runpodPollIntervalMs: e.RUNPOD_POLL_INTERVAL_MS,
      modelsDir: abs(e.MODELS_DIR),
      threads: e.ENGINE_THREADS,
    },
    workers: { inProcess: e.RUN_WORKERS, concurrency: e.WORKER_CONCURRENCY, jobTimeoutSeconds: e.JOB_TIMEOUT_SECONDS },
    vendors: { imageGenerationConfigured: Boolean(e.SEEDREAM_API_KEY || e.KLING_ACCESS_KEY) },
  };
}
