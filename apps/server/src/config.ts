import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { CATALOG_ITEMS, CURRENCIES, DEFAULT_PRICES, parseMajorUnits, UPLOAD_LIMITS, type PriceTable } from '@dewy/contracts';

/**
 * Server configuration parsed from the environment with zod. Every default is the embedded one
 * (`npm start` with no servers): PGlite in ./data/db, local files in ./data/files, in-process workers,
 * local CPU engines. Paths are resolved against the repository root (the folder holding package.json
 * of the workspace), so `npm start` from the root and `npm start -w @dewy/server` agree.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const isProxyAddress = (v: string) => {
  if (PROXY_RANGE_NAMES.has(v)) return true;
  const [addr = '', bits, ...rest] = v.split('/');
  if (rest.length) return false;
  const family = isIP(addr);
  if (!family) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
};

/**
 * TRUST_PROXY: which hops may set X-Forwarded-For/-Proto/-Host. `false`/`0` (default): none, the socket
 * address is the client. `true`: exactly one hop — the address our one reverse proxy appended (the
 * rightmost X-Forwarded-For entry) is the client; entries a client wrote to the left are ignored. `<n>`:
 * n proxies in a chain. A hop count trusts whoever connects, so the port must be reachable only through
 * the proxy. A comma-separated list of addresses/CIDRs (or loopback, linklocal, uniquelocal): trust hops
 * from those addresses only, which also holds when the port is reachable directly. Never Fastify's
 * `trustProxy: true` (every hop), which lets a client choose its own address by sending X-Forwarded-For.
 */
const trustProxySchema = z
  .string()
  .trim()
  .transform((v, c): false | number | string[] => {
    if (['', 'false', 'no', '0'].includes(v)) return false;
    if (['true', 'yes'].includes(v)) return 1;
    if (/^\d+$/.test(v)) return Number(v);
    const list = v.split(',').map((s) => s.trim()).filter(Boolean);
    if (list.length && list.every(isProxyAddress)) return list;
    c.addIssue({ code: 'custom', message: 'expected false, true, a hop count or a comma-separated list of IP addresses/CIDRs' });
    return z.NEVER;
  });

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
  /** How long a resolved session is answered from the API process's memory (ms, decision 026); 0 = off. */
  SESSION_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5000),
  /** Secure cookies: 'auto' = when the request arrived over https (trustProxy honours X-Forwarded-Proto). */
  COOKIE_SECURE: z.enum(['auto', 'true', 'false']).default('auto'),
  TRUST_PROXY: trustProxySchema.default(false),
  /** Login throttling (ADR 008): free failures per (e-mail, IP) and per (e-mail, device cookie). */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(5),
  /** Free failures per client IP (IPv6: per /64) across all e-mails. */
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().positive().default(20),
  /** Free failures per e-mail from clients without a device cookie, across all IPs (distributed guessing). */
  LOGIN_MAX_UNTRUSTED_FAILURES_PER_ACCOUNT: z.coerce.number().int().positive().default(20),
  /** A counter is forgotten this long after its last failure (and never while its delay runs). */
  LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  /** Past a budget, the k-th further failure makes the next attempt wait base·2^k seconds, capped. */
  LOGIN_DELAY_BASE_SECONDS: z.coerce.number().positive().default(1),
  LOGIN_DELAY_MAX_SECONDS: z.coerce.number().positive().default(900),
  /** Sign-up limits (ADR 008): accounts per client IP per window, and a burst cap per e-mail domain. */
  SIGNUP_MAX_PER_IP: z.coerce.number().int().positive().default(5),
  SIGNUP_IP_WINDOW_MINUTES: z.coerce.number().positive().default(60),
  SIGNUP_MAX_PER_DOMAIN: z.coerce.number().int().positive().default(20),
  SIGNUP_DOMAIN_WINDOW_MINUTES: z.coerce.number().positive().default(10),
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
  /** 'local' (exemplar-based inpainting on the CPU) or 'runpod' (a generative face-edit endpoint). */
  FACE_EDIT_ENGINE: z.enum(['local', 'runpod']).default('local'),
  /** RunPod endpoint of the face-edit worker (`https://api.runpod.ai/v2/<id>`); RUNPOD_API_KEY is shared. */
  RUNPOD_FACE_EDIT_ENDPOINT_URL: z.string().url().optional(),
  MODELS_DIR: z.string().default('data/models'),
  ENGINE_THREADS: z.coerce.number().int().min(1).default(1),
  /** Start the local engine with the queue workers and ready it (models, both SR tile workers) before the first job; default on except under NODE_ENV=test. */
  ENGINE_WARMUP: bool.optional(),
  /** Run queue workers inside the API process (the embedded default). */
  RUN_WORKERS: bool.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).default(1),
  /** A job running longer than this is failed and refunded (s). */
  JOB_TIMEOUT_SECONDS: z.coerce.number().int().positive().default(600),
  /**
   * The dead-worker chain (ms): a running job's row is stamped every JOB_HEARTBEAT_MS; a job whose stamp is
   * older than JOB_STALE_MS lost its worker; the reaper looks every JOB_REAPER_INTERVAL_MS. The defaults
   * refund a SIGKILLed worker's job within 45 s; tests run the same chain on short intervals.
   */
  JOB_HEARTBEAT_MS: z.coerce.number().int().min(50).default(10_000),
  JOB_STALE_MS: z.coerce.number().int().min(100).default(30_000),
  JOB_REAPER_INTERVAL_MS: z.coerce.number().int().min(50).default(15_000),
  /** Per-user quota of stored uploads (count, bytes) until the retention deletes them (decision 032). */
  UPLOAD_QUOTA_MAX_FILES: z.coerce.number().int().min(1).default(UPLOAD_LIMITS.defaultMaxStoredUploadsPerUser),
  UPLOAD_QUOTA_MAX_BYTES: z.coerce.number().int().min(1).default(UPLOAD_LIMITS.defaultMaxStoredBytesPerUser),
  /** Screen uploads with the local NSFW classifier (decision 017). */
  NSFW_SCREENING: bool.default(true),
  /** Refuse an upload when P(porn) + P(hentai) reaches this (0..1). */
  NSFW_THRESHOLD: z.coerce.number().min(0.05).max(1).default(0.7),
  /** Maintenance forced on by the operator: the tools' write calls answer 503 MAINTENANCE. */
  MAINTENANCE_MODE: bool.default(false),
  /** The affiliate programme (decision 013): on by default; the attribution cookie's lifetime in days. */
  AFFILIATE_ENABLED: bool.default(true),
  AFFILIATE_COOKIE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Payments (GUIDE §1, decision 012): sandbox (embedded hosted checkout), lemonsqueezy, stripe or paddle (decision 042). */
  PAYMENTS_PROVIDER: z.enum(['sandbox', 'lemonsqueezy', 'stripe', 'paddle']).default('sandbox'),
  /** With NODE_ENV=production the sandbox (free test payments) is refused unless this is true (decision 028). */
  PAYMENTS_SANDBOX_IN_PRODUCTION: bool.default(false),
  /** HMAC secret of the sandbox provider's webhooks; derived from APP_SECRET when unset. */
  SANDBOX_WEBHOOK_SECRET: z.string().min(16).optional(),
  LEMONSQUEEZY_API_KEY: z.string().optional(),
  LEMONSQUEEZY_STORE_ID: z.string().optional(),
  LEMONSQUEEZY_WEBHOOK_SECRET: z.string().optional(),
  LEMONSQUEEZY_BASE_URL: z.string().url().default('https://api.lemonsqueezy.com'),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  /** Stripe API origin (tests point it at a fake server); default Stripe's own. */
  STRIPE_BASE_URL: z.string().url().optional(),
  /**
   * Korean payment methods offered by Stripe Checkout in won (issue 25, decision 041), comma-separated
   * Stripe payment method types; a subscription checkout keeps those Stripe allows in subscription mode.
   */
  STRIPE_KRW_PAYMENT_METHODS: z.string().default('card,kr_card,kakao_pay,naver_pay,payco,samsung_pay'),
  /** Paddle Billing (decision 042): server-side API key, the notification destination's secret key, the client-side token of Paddle.js. */
  PADDLE_API_KEY: z.string().optional(),
  PADDLE_WEBHOOK_SECRET: z.string().optional(),
  PADDLE_CLIENT_TOKEN: z.string().optional(),
  /** Which Paddle environment the keys belong to: its API origin and Paddle.js's `Environment.set('sandbox')`. */
  PADDLE_ENVIRONMENT: z.enum(['sandbox', 'production']).default('production'),
  /** Paddle API origin (tests point it at a fake server); default the environment's own. */
  PADDLE_BASE_URL: z.string().url().optional(),
  /** Image-generation vendor; the flag stays off until one is configured. */
  SEEDREAM_API_KEY: z.string().optional(),
  /** Kling image generation (issue 16, decision 024): on when both keys are set. */
  /** BytePlus ModelArk origin (tests point it at a fake server); default the public ap-southeast endpoint. */
  SEEDREAM_BASE_URL: z.string().url().default('https://ark.ap-southeast.bytepluses.com'),
  /** ModelArk model id or endpoint id of the image-edit model. */
  SEEDREAM_MODEL: z.string().min(1).default('seedream-4-0-250828'),
  /** Image-edit jobs one worker process runs at once (the vendor's rate and concurrency limits). */
  SEEDREAM_CONCURRENCY: z.coerce.number().int().min(1).max(32).default(2),
  /** Attempts per vendor call on 429 / 5xx gateway errors / network errors, with exponential backoff. */
  SEEDREAM_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(5),
  /** First backoff (ms); doubled per attempt, or the vendor's Retry-After when longer. */
  SEEDREAM_RETRY_BASE_MS: z.coerce.number().int().min(1).max(60_000).default(2000),
  /** One vendor call's time limit (ms). */
  SEEDREAM_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(180_000),
  /** The vendor's "AI generated" watermark on results. */
  SEEDREAM_WATERMARK: bool.default(false),
  KLING_ACCESS_KEY: z.string().optional(),
  /**
   * Social sign-in (decision 021). Google: the OAuth client id of the Identity Services button; ID tokens
   * are verified against GOOGLE_JWKS_URL with issuer GOOGLE_ISSUER (both overridable for tests).
   */
  GOOGLE_CLIENT_ID: z.string().trim().optional(),
  GOOGLE_JWKS_URL: z.string().url().default('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_ISSUER: z.string().trim().min(1).optional(),
  /** Naver Login: client id/secret; NAVER_BASE_URL (authorize, token) and NAVER_API_BASE_URL (/v1/nid/me). */
  NAVER_CLIENT_ID: z.string().trim().optional(),
  NAVER_CLIENT_SECRET: z.string().trim().optional(),
  NAVER_BASE_URL: z.string().url().default('https://nid.naver.com'),
  NAVER_API_BASE_URL: z.string().url().default('https://openapi.naver.com'),
  /** Kakao Login: REST API key and client secret; KAKAO_BASE_URL (authorize, token) and KAKAO_API_BASE_URL (/v2/user/me). */
  KAKAO_CLIENT_ID: z.string().trim().optional(),
  KAKAO_CLIENT_SECRET: z.string().trim().optional(),
  KAKAO_BASE_URL: z.string().url().default('https://kauth.kakao.com'),
  KAKAO_API_BASE_URL: z.string().url().default('https://kapi.kakao.com'),
  KLING_SECRET_KEY: z.string().optional(),
  /** Kling API origin (tests point it at a fake server). */
  KLING_BASE_URL: z.string().url().default('https://api-singapore.klingai.com'),
  /** Kling model (`model_name`); kling-v1-5 takes a reference image with `image_reference`. */
  KLING_MODEL: z.string().trim().min(1).default('kling-v1-5'),
  /** How often a Kling task is queried (ms). */
  KLING_POLL_INTERVAL_MS: z.coerce.number().int().min(50).default(3000),
  /** Generation jobs run at once by one worker process (Kling's concurrency limit per account). */
  KLING_CONCURRENCY: z.coerce.number().int().min(1).max(50).default(2),
  /** One HTTP call to Kling gives up after this long (ms); the job as a whole is bounded by JOB_TIMEOUT_SECONDS. */
  KLING_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /** Language model (issue 15, decision 022): any OpenAI-compatible chat-completions endpoint; off until LLM_MODEL is set. */
  LLM_BASE_URL: z.string().url().default('https://api.openai.com/v1'),
  LLM_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().trim().optional(),
  /** Model for calls with images; default LLM_MODEL. */
  LLM_VISION_MODEL: z.string().trim().optional(),
  /** Whole-answer timeout, and the longest silence inside a streamed answer (ms). */
  LLM_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** Retries after a 429 / 5xx / network error (exponential backoff from LLM_RETRY_BASE_MS, Retry-After respected). */
  LLM_MAX_RETRIES: z.coerce.number().int().min(0).max(5).default(2),
  LLM_RETRY_BASE_MS: z.coerce.number().int().min(0).default(500),
  /** Chat sends cost AI_COSTS.chat credits (002 §4, §9); false = free ("beta"). */
  AI_CHAT_CHARGE_ENABLED: bool.default(true),
  /** Vendor-calling AI requests (chat, rewrite, extract, auto prompt) one user may start per minute, all together. */
  AI_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(30),
  /** Requests one API key may make to `/v1` per minute, all routes together (decision 040 §2). */
  API_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(120),
  /**
   * Tests only: lets webhooks go to loopback addresses (127.0.0.0/8, ::1), never to other private
   * ranges. Refused with NODE_ENV=production (decision 040 §3).
   */
  WEBHOOKS_ALLOW_LOOPBACK: bool.default(false),
  /** How often each process looks for due webhook messages (ms). */
  WEBHOOKS_POLL_MS: z.coerce.number().int().min(100).default(2000),
  /** One webhook attempt's limit, connection to answer (ms); a slower receiver is a failed attempt. */
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** The operator's business details, shown by the footer and the legal pages (GET /api/site-info). */
  COMPANY_NAME: z.string().optional(),
  COMPANY_CEO: z.string().optional(),
  COMPANY_ADDRESS: z.string().optional(),
  /** 사업자등록번호 (business registration number). */
  COMPANY_REGISTRATION_NO: z.string().optional(),
  /** 통신판매업 신고번호 (mail-order business report number). */
  COMPANY_MAIL_ORDER_NO: z.string().optional(),
  /** Outgoing mail (decision 020): SMTP connection URL for nodemailer; unset = `.eml` files in DATA_DIR/outbox. */
  SMTP_URL: z.string().trim().optional(),
  /** Sender of outgoing mail. */
  MAIL_FROM: z.string().trim().default('Dewy <no-reply@localhost>'),
  /** Where customers write (refunds, takedowns, privacy requests). */
  SUPPORT_EMAIL: z.string().trim().email().optional().or(z.literal('')),
});

export type Env = z.infer<typeof EnvSchema>;

const BILLING_ITEMS = ['basic', 'deluxe', 'premium', 'package1', 'package2', 'package3', 'package4', 'package5'] as const;
/** A provider's id (LS variant id, Stripe price id) for each plan and pack. */
export type BillingCatalog = Record<(typeof BILLING_ITEMS)[number], string | undefined>;

/** Reads `<PREFIX>_BASIC` … `<PREFIX>_PACKAGE5` (e.g. LEMONSQUEEZY_VARIANT_DELUXE, STRIPE_PRICE_PACKAGE3). */
function catalogFrom(env: NodeJS.ProcessEnv, prefix: string): BillingCatalog {
  return Object.fromEntries(BILLING_ITEMS.map((k) => [k, env[`${prefix}_${k.toUpperCase()}`]?.trim() || undefined])) as BillingCatalog;
}

/** Kling settings (decision 024); null unless both KLING_ACCESS_KEY and KLING_SECRET_KEY are set. */
export interface KlingConfig {
  accessKey: string;
  secretKey: string;
  baseUrl: string;
  model: string;
  pollIntervalMs: number;
  concurrency: number;
  requestTimeoutMs: number;
}

function klingConfig(e: Env): KlingConfig | null {
  const accessKey = e.KLING_ACCESS_KEY?.trim();
  const secretKey = e.KLING_SECRET_KEY?.trim();
  if (!accessKey || !secretKey) return null;
  return {
    accessKey,
    secretKey,
    baseUrl: e.KLING_BASE_URL.replace(/\/$/, ''),
    model: e.KLING_MODEL,
    pollIntervalMs: e.KLING_POLL_INTERVAL_MS,
    concurrency: e.KLING_CONCURRENCY,
    requestTimeoutMs: e.KLING_REQUEST_TIMEOUT_MS,
  };
}

/** Paddle's API origins (https://developer.paddle.com/api-reference/about/paddle-api). */
const PADDLE_API_ORIGINS = { production: 'https://api.paddle.com', sandbox: 'https://sandbox-api.paddle.com' } as const;

/** Payment provider settings; `configured` is false when a required key of the chosen provider is missing. */
export interface PaymentsConfig {
  provider: 'sandbox' | 'lemonsqueezy' | 'stripe' | 'paddle';
  configured: boolean;
  /** What is missing when not configured (for the log, never the page). */
  missing: string[];
  sandbox: { webhookSecret?: string };
  lemonsqueezy: { apiKey?: string; storeId?: string; webhookSecret?: string; baseUrl: string; variants: BillingCatalog };
  /**
   * Stripe: `prices` bills in dollars; `pricesKrw` (STRIPE_PRICE_KRW_<ITEM>, all or none) in won with
   * the Korean methods `krwMethods`. Without won prices Stripe checkouts are in dollars only.
   */
  stripe: { secretKey?: string; webhookSecret?: string; baseUrl?: string; prices: BillingCatalog; pricesKrw: BillingCatalog | null; krwMethods: string[] };
  /**
   * Paddle Billing (decision 042): `prices` (PADDLE_PRICE_<ITEM>) bill in dollars; `pricesKrw`
   * (PADDLE_PRICE_KRW_<ITEM>, all or none) are prices whose base price is in won, which is what makes
   * Paddle Checkout offer the Korean methods. `baseUrl`: PADDLE_BASE_URL, else the environment's API
   * origin. `clientToken` initialises Paddle.js on our checkout page (GET /payment/paddle-checkout).
   */
  paddle: {
    apiKey?: string;
    webhookSecret?: string;
    clientToken?: string;
    environment: 'sandbox' | 'production';
    baseUrl: string;
    prices: BillingCatalog;
    pricesKrw: BillingCatalog | null;
  };
  /**
   * The price table in force (minor units): contracts' DEFAULT_PRICES with each `PRICE_USD_<ITEM>` /
   * `PRICE_KRW_<ITEM>` override (major units: `9.50`, `12900`). The sandbox charges it, the page shows
   * it; Stripe, Paddle and Lemon Squeezy charge what their own price objects say (the operator keeps
   * both in step), and our books record what the provider charged.
   */
  prices: PriceTable;
}

/**
 * The price table (see PaymentsConfig.prices). @throws Error naming each malformed override (not a
 * positive amount with at most the currency's decimals).
 */
export function priceTableFrom(env: NodeJS.ProcessEnv): PriceTable {
  const errors: string[] = [];
  const table = Object.fromEntries(
    CATALOG_ITEMS.map((item) => [
      item,
      Object.fromEntries(
        CURRENCIES.map((cur) => {
          const name = `PRICE_${cur.toUpperCase()}_${item.toUpperCase()}`;
          const raw = env[name]?.trim();
          if (!raw) return [cur, DEFAULT_PRICES[item][cur]];
          const v = parseMajorUnits(raw, cur);
          if (v === null) errors.push(`  ${name}: "${raw}" is not a price in ${cur.toUpperCase()} (a positive amount${cur === 'krw' ? ' in whole won' : ' with at most 2 decimals'})`);
          return [cur, v ?? DEFAULT_PRICES[item][cur]];
        }),
      ),
    ]),
  ) as PriceTable;
  if (errors.length) throw new Error(`Invalid configuration:\n${errors.join('\n')}`);
  return table;
}

function paymentsConfig(e: Env, env: NodeJS.ProcessEnv): PaymentsConfig {
  const lemonsqueezy = {
    apiKey: e.LEMONSQUEEZY_API_KEY || undefined,
    storeId: e.LEMONSQUEEZY_STORE_ID || undefined,
    webhookSecret: e.LEMONSQUEEZY_WEBHOOK_SECRET || undefined,
    baseUrl: e.LEMONSQUEEZY_BASE_URL.replace(/\/$/, ''),
    variants: catalogFrom(env, 'LEMONSQUEEZY_VARIANT'),
  };
  const stripe = {
    secretKey: e.STRIPE_SECRET_KEY || undefined,
    webhookSecret: e.STRIPE_WEBHOOK_SECRET || undefined,
    baseUrl: e.STRIPE_BASE_URL?.replace(/\/$/, ''),
    prices: catalogFrom(env, 'STRIPE_PRICE'),
    pricesKrw: null as BillingCatalog | null,
    krwMethods: e.STRIPE_KRW_PAYMENT_METHODS.split(',').map((m) => m.trim()).filter(Boolean),
  };
  const krw = catalogFrom(env, 'STRIPE_PRICE_KRW');
  if (BILLING_ITEMS.some((k) => krw[k])) stripe.pricesKrw = krw;
  const paddle: PaymentsConfig['paddle'] = {
    apiKey: e.PADDLE_API_KEY || undefined,
    webhookSecret: e.PADDLE_WEBHOOK_SECRET || undefined,
    clientToken: e.PADDLE_CLIENT_TOKEN || undefined,
    environment: e.PADDLE_ENVIRONMENT,
    baseUrl: (e.PADDLE_BASE_URL ?? PADDLE_API_ORIGINS[e.PADDLE_ENVIRONMENT]).replace(/\/$/, ''),
    prices: catalogFrom(env, 'PADDLE_PRICE'),
    pricesKrw: null,
  };
  const paddleKrw = catalogFrom(env, 'PADDLE_PRICE_KRW');
  if (BILLING_ITEMS.some((k) => paddleKrw[k])) paddle.pricesKrw = paddleKrw;
  const missing: string[] = [];
  const need = (name: string, v: unknown) => { if (!v) missing.push(name); };
  if (e.PAYMENTS_PROVIDER === 'lemonsqueezy') {
    need('LEMONSQUEEZY_API_KEY', lemonsqueezy.apiKey);
    need('LEMONSQUEEZY_STORE_ID', lemonsqueezy.storeId);
    need('LEMONSQUEEZY_WEBHOOK_SECRET', lemonsqueezy.webhookSecret);
    for (const k of BILLING_ITEMS) need(`LEMONSQUEEZY_VARIANT_${k.toUpperCase()}`, lemonsqueezy.variants[k]);
  } else if (e.PAYMENTS_PROVIDER === 'stripe') {
    need('STRIPE_SECRET_KEY', stripe.secretKey);
    need('STRIPE_WEBHOOK_SECRET', stripe.webhookSecret);
    for (const k of BILLING_ITEMS) need(`STRIPE_PRICE_${k.toUpperCase()}`, stripe.prices[k]);
    // Won prices are all or none: a half-set catalogue would refuse some items in won.
    if (stripe.pricesKrw) for (const k of BILLING_ITEMS) need(`STRIPE_PRICE_KRW_${k.toUpperCase()}`, stripe.pricesKrw[k]);
  } else if (e.PAYMENTS_PROVIDER === 'paddle') {
    need('PADDLE_API_KEY', paddle.apiKey);
    need('PADDLE_WEBHOOK_SECRET', paddle.webhookSecret);
    // Without it our checkout page cannot start Paddle.js: no purchase could be paid.
    need('PADDLE_CLIENT_TOKEN', paddle.clientToken);
    for (const k of BILLING_ITEMS) need(`PADDLE_PRICE_${k.toUpperCase()}`, paddle.prices[k]);
    if (paddle.pricesKrw) for (const k of BILLING_ITEMS) need(`PADDLE_PRICE_KRW_${k.toUpperCase()}`, paddle.pricesKrw[k]);
  }
  return { provider: e.PAYMENTS_PROVIDER, configured: missing.length === 0, missing, sandbox: { webhookSecret: e.SANDBOX_WEBHOOK_SECRET }, lemonsqueezy, stripe, paddle, prices: priceTableFrom(env) };
}

/**
 * Fastify's `trustProxy` for `AppConfig.trustProxy`. Fastify 5.12 refuses a plain hop count (it trusts
 * nothing then), so `n` becomes the function "the first n hops from the socket inward are proxies".
 */
export function fastifyTrustProxy(tp: AppConfig['trustProxy']): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof tp === 'number') return tp > 0 ? (_address, hop) => hop < tp : false;
  return tp;
}

/** Login throttling knobs (docs/decisions/008-login-and-signup-throttling.md). Counts are failures; times are ms. */
export interface LoginLimits {
  /** Free failures per (e-mail, IP) and per (e-mail, device cookie). */
  perAccount: number;
  /** Free failures per client IP across e-mails. */
  perIp: number;
  /** Free failures per e-mail from clients without a valid device cookie, across IPs. */
  perAccountUntrusted: number;
  /** A counter is forgotten this long after its last failure. */
  windowMs: number;
  /** First delay once a budget is spent; doubles with each further failure. */
  delayBaseMs: number;
  /** Upper bound of the delay. */
  delayMaxMs: number;
}

/** Sign-up rate limits (docs/decisions/008-login-and-signup-throttling.md). */
export interface SignupLimits {
  perIp: number;
  ipWindowMs: number;
  perDomain: number;
  domainWindowMs: number;
}

/**
 * Social sign-in settings (decision 021). A provider is null when its client id (and, for Naver and
 * Kakao, secret) is missing: its routes answer NOT_CONFIGURED and the page says so.
 */
export interface SocialConfig {
  google: { clientId: string; jwksUrl: string; issuers: string[] } | null;
  naver: { clientId: string; clientSecret: string; baseUrl: string; apiBaseUrl: string } | null;
  kakao: { clientId: string; clientSecret: string; baseUrl: string; apiBaseUrl: string } | null;
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

function socialConfig(e: Env): SocialConfig {
  return {
    google: e.GOOGLE_CLIENT_ID
      ? {
          clientId: e.GOOGLE_CLIENT_ID,
          jwksUrl: e.GOOGLE_JWKS_URL,
          // Google documents both forms of its issuer for ID tokens.
          issuers: e.GOOGLE_ISSUER ? [e.GOOGLE_ISSUER] : ['https://accounts.google.com', 'accounts.google.com'],
        }
      : null,
    naver:
      e.NAVER_CLIENT_ID && e.NAVER_CLIENT_SECRET
        ? { clientId: e.NAVER_CLIENT_ID, clientSecret: e.NAVER_CLIENT_SECRET, baseUrl: trimSlash(e.NAVER_BASE_URL), apiBaseUrl: trimSlash(e.NAVER_API_BASE_URL) }
        : null,
    kakao:
      e.KAKAO_CLIENT_ID && e.KAKAO_CLIENT_SECRET
        ? { clientId: e.KAKAO_CLIENT_ID, clientSecret: e.KAKAO_CLIENT_SECRET, baseUrl: trimSlash(e.KAKAO_BASE_URL), apiBaseUrl: trimSlash(e.KAKAO_API_BASE_URL) }
        : null,
  };
}

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
  session: { idleMs: number; absoluteMs: number; cookieSecure: 'auto' | boolean; cacheTtlMs: number };
  /** Fastify `trustProxy`: false, a hop count, or trusted proxy addresses/CIDRs (never `true`). */
  trustProxy: false | number | string[];
  loginLimits: LoginLimits;
  signupLimits: SignupLimits;
  welcomeCredits: number;
  webDistDir: string;
  storage: {
    driver: 'local' | 's3';
    filesDir: string;
    s3: { bucket?: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean };
    cdnDomain?: string;
  };
  engine: { kind: 'local' | 'runpod'; runpodEndpointUrl?: string; runpodApiKey?: string; runpodPollIntervalMs: number; modelsDir: string; threads: number; warmUp: boolean };
  faceEdit: { kind: 'local' | 'runpod'; runpodEndpointUrl?: string };
  /** `heartbeatMs`, `staleMs`, `reaperIntervalMs`: the dead-worker chain (JOB_HEARTBEAT_MS…, see EnvSchema). */
  workers: { inProcess: boolean; concurrency: number; jobTimeoutSeconds: number; heartbeatMs: number; staleMs: number; reaperIntervalMs: number };
  /** Kling (image generation, 002 §2); null when not configured (the engine registry then has no `image-generation`). */
  vendors: { kling: KlingConfig | null };
  /** Image edit on BytePlus ModelArk Seedream (decision 023); `apiKey` unset = not configured. */
  seedream: {
    apiKey?: string;
    baseUrl: string;
    model: string;
    concurrency: number;
    maxAttempts: number;
    retryBaseMs: number;
    requestTimeoutMs: number;
    watermark: boolean;
  };
  payments: PaymentsConfig;
  affiliate: { enabled: boolean; cookieMaxAgeMs: number };
  social: SocialConfig;
  maintenanceMode: boolean;
  /** Outgoing mail (decision 020): SMTP when smtpUrl is set, else the outbox folder. */
  mail: { smtpUrl?: string; from: string };
  /** The language model (null model = not configured) and the chat charge switch (decision 022). */
  llm: { baseUrl: string; apiKey?: string; model: string | null; visionModel: string | null; timeoutMs: number; maxRetries: number; retryBaseMs: number; chatChargeEnabled: boolean; requestsPerMinute: number };
  /** The public `/v1` API (decision 040): requests per API key per minute. */
  publicApi: { requestsPerMinute: number };
  /** Webhooks to customers (decision 040 §3): the loopback test switch, the sender's polling interval and an attempt's limit (ms). */
  webhooks: { allowLoopback: boolean; pollMs: number; timeoutMs: number };
  moderation: { enabled: boolean; threshold: number };
  /** Per-user quota of live stored uploads (UPLOAD_QUOTA_MAX_FILES / _BYTES; decision 032). */
  uploadQuota: { maxFiles: number; maxBytes: number };
  /** Public business details (unset = null: the page says the operator has yet to fill them in). */
  site: {
    company: { name: string | null; ceo: string | null; address: string | null; registrationNo: string | null; mailOrderNo: string | null };
    supportEmail: string | null;
  };
}

/** Why the server does not start on the sandbox in production (decision 028), and what to do. */
export const SANDBOX_IN_PRODUCTION_REFUSED = [
  'Invalid configuration:',
  '  PAYMENTS_PROVIDER: sandbox (the default when unset) with NODE_ENV=production. The sandbox is a test checkout:',
  '    its test card 4242 4242 4242 4242 buys any plan or credit pack for $0, so the server refuses to start.',
  '    Set PAYMENTS_PROVIDER=lemonsqueezy or stripe (or paddle) with its keys (README, Payments), or, to run the test',
  '    checkout in production on purpose (a demo or staging site), set PAYMENTS_SANDBOX_IN_PRODUCTION=true.',
].join('\n');

/**
 * Parses the environment into an AppConfig.
 * @throws Error listing every invalid variable (the process should exit with it); also when
 *   NODE_ENV=production would run on the sandbox provider without PAYMENTS_SANDBOX_IN_PRODUCTION=true.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const abs = (p: string) => (path.isAbsolute(p) ? p : path.join(REPO_ROOT, p));
  const text = (v: string | undefined) => v?.trim() || null;
  const dataDir = abs(e.DATA_DIR);
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) throw new Error('Invalid configuration:\n  S3_BUCKET: required when STORAGE_DRIVER=s3');
  if (e.FACE_EDIT_ENGINE === 'runpod' && (!e.RUNPOD_FACE_EDIT_ENDPOINT_URL || !e.RUNPOD_API_KEY)) {
    throw new Error('Invalid configuration:\n  RUNPOD_FACE_EDIT_ENDPOINT_URL and RUNPOD_API_KEY: required when FACE_EDIT_ENGINE=runpod');
  }
  if (e.RETOUCH_ENGINE === 'runpod' && (!e.RUNPOD_ENDPOINT_URL || !e.RUNPOD_API_KEY)) {
    throw new Error('Invalid configuration:\n  RUNPOD_ENDPOINT_URL and RUNPOD_API_KEY: required when RETOUCH_ENGINE=runpod');
  }
  // A live worker misses at most one stamp before the reaper would call it dead.
  if (e.JOB_STALE_MS < 2 * e.JOB_HEARTBEAT_MS) throw new Error('Invalid configuration:\n  JOB_STALE_MS: must be at least twice JOB_HEARTBEAT_MS');
  if (e.NODE_ENV === 'production' && e.WEBHOOKS_ALLOW_LOOPBACK) {
    throw new Error('Invalid configuration:\n  WEBHOOKS_ALLOW_LOOPBACK: a test switch (webhooks to 127.0.0.1), refused with NODE_ENV=production');
  }
  if (e.NODE_ENV === 'production' && e.PAYMENTS_PROVIDER === 'sandbox' && !e.PAYMENTS_SANDBOX_IN_PRODUCTION) {
    throw new Error(SANDBOX_IN_PRODUCTION_REFUSED);
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
      cacheTtlMs: e.SESSION_CACHE_TTL_MS,
    },
    trustProxy: e.TRUST_PROXY,
    loginLimits: {
      perAccount: e.LOGIN_MAX_FAILURES_PER_ACCOUNT,
      perIp: e.LOGIN_MAX_FAILURES_PER_IP,
      perAccountUntrusted: e.LOGIN_MAX_UNTRUSTED_FAILURES_PER_ACCOUNT,
      windowMs: e.LOGIN_WINDOW_MINUTES * 60_000,
      delayBaseMs: e.LOGIN_DELAY_BASE_SECONDS * 1000,
      delayMaxMs: Math.max(e.LOGIN_DELAY_MAX_SECONDS, e.LOGIN_DELAY_BASE_SECONDS) * 1000,
    },
    signupLimits: {
      perIp: e.SIGNUP_MAX_PER_IP,
      ipWindowMs: e.SIGNUP_IP_WINDOW_MINUTES * 60_000,
      perDomain: e.SIGNUP_MAX_PER_DOMAIN,
      domainWindowMs: e.SIGNUP_DOMAIN_WINDOW_MINUTES * 60_000,
    },
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
      warmUp: e.ENGINE_WARMUP ?? e.NODE_ENV !== 'test',
    },
    faceEdit: { kind: e.FACE_EDIT_ENGINE, runpodEndpointUrl: e.RUNPOD_FACE_EDIT_ENDPOINT_URL },
    workers: {
      inProcess: e.RUN_WORKERS,
      concurrency: e.WORKER_CONCURRENCY,
      jobTimeoutSeconds: e.JOB_TIMEOUT_SECONDS,
      heartbeatMs: e.JOB_HEARTBEAT_MS,
      staleMs: e.JOB_STALE_MS,
      reaperIntervalMs: e.JOB_REAPER_INTERVAL_MS,
    },
    vendors: { kling: klingConfig(e) },
    seedream: {
      apiKey: e.SEEDREAM_API_KEY?.trim() || undefined,
      baseUrl: e.SEEDREAM_BASE_URL.replace(/\/+$/, ''),
      model: e.SEEDREAM_MODEL,
      concurrency: e.SEEDREAM_CONCURRENCY,
      maxAttempts: e.SEEDREAM_MAX_ATTEMPTS,
      retryBaseMs: e.SEEDREAM_RETRY_BASE_MS,
      requestTimeoutMs: e.SEEDREAM_REQUEST_TIMEOUT_MS,
      watermark: e.SEEDREAM_WATERMARK,
    },
    payments: paymentsConfig(e, env),
    affiliate: { enabled: e.AFFILIATE_ENABLED, cookieMaxAgeMs: e.AFFILIATE_COOKIE_DAYS * 86_400_000 },
    social: socialConfig(e),
    maintenanceMode: e.MAINTENANCE_MODE,
    mail: { smtpUrl: e.SMTP_URL || undefined, from: e.MAIL_FROM },
    llm: {
      baseUrl: e.LLM_BASE_URL.replace(/\/+$/, ''),
      apiKey: e.LLM_API_KEY || undefined,
      model: e.LLM_MODEL || null,
      visionModel: e.LLM_VISION_MODEL || null,
      timeoutMs: e.LLM_TIMEOUT_MS,
      maxRetries: e.LLM_MAX_RETRIES,
      retryBaseMs: e.LLM_RETRY_BASE_MS,
      chatChargeEnabled: e.AI_CHAT_CHARGE_ENABLED,
      requestsPerMinute: e.AI_REQUESTS_PER_MINUTE,
    },
    publicApi: { requestsPerMinute: e.API_REQUESTS_PER_MINUTE },
    webhooks: { allowLoopback: e.WEBHOOKS_ALLOW_LOOPBACK, pollMs: e.WEBHOOKS_POLL_MS, timeoutMs: e.WEBHOOKS_TIMEOUT_MS },
    moderation: { enabled: e.NSFW_SCREENING, threshold: e.NSFW_THRESHOLD },
    uploadQuota: { maxFiles: e.UPLOAD_QUOTA_MAX_FILES, maxBytes: e.UPLOAD_QUOTA_MAX_BYTES },
    site: {
      company: {
        name: text(e.COMPANY_NAME),
        ceo: text(e.COMPANY_CEO),
        address: text(e.COMPANY_ADDRESS),
        registrationNo: text(e.COMPANY_REGISTRATION_NO),
        mailOrderNo: text(e.COMPANY_MAIL_ORDER_NO),
      },
      supportEmail: text(e.SUPPORT_EMAIL),
    },
  };
}

/**
 * The seller's details Korean e-commerce law asks an online shop to display (issue 25: footer, legal
 * pages, receipts), as the variables that set them. @returns the names of those not set.
 */
export function missingSellerDetails(config: Pick<AppConfig, 'site'>): string[] {
  const { company, supportEmail } = config.site;
  const fields: [string, string | null][] = [
    ['COMPANY_NAME', company.name],
    ['COMPANY_CEO', company.ceo],
    ['COMPANY_REGISTRATION_NO', company.registrationNo],
    ['COMPANY_MAIL_ORDER_NO', company.mailOrderNo],
    ['COMPANY_ADDRESS', company.address],
    ['SUPPORT_EMAIL', supportEmail],
  ];
  return fields.filter(([, v]) => !v).map(([name]) => name);
}

/**
 * The loud warning `npm start` prints in production while seller details are missing (the pages then
 * show nothing for them, never placeholder text); null when all are set or outside production.
 */
export function sellerDetailsWarning(config: Pick<AppConfig, 'site' | 'env'>): string | null {
  const missing = missingSellerDetails(config);
  if (config.env !== 'production' || missing.length === 0) return null;
  return [
    '',
    '  ************************************************************************************',
    '  WARNING: the seller\'s details are not configured. Korean e-commerce law requires an online',
    '  shop to show them; the footer, legal pages and receipts leave them out until you set:',
    `    ${missing.join(', ')}`,
    '  ************************************************************************************',
    '',
  ].join('\n');
}
