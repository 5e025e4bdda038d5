import { z } from 'zod';
import { fetchVendorJson } from './vendor-http';
import { PaymentProviderError } from '../payments-provider';

/**
 * A thin typed client of the Paddle Billing API (https://developer.paddle.com/api-reference/overview),
 * covering the calls the Paddle adapter makes (paddle.provider.ts). Own client rather than
 * `@paddle/paddle-node-sdk`: the SDK reaches only its two fixed origins (no PADDLE_BASE_URL for the
 * contract tests' fake), has no request timeout, and converts every shape to camelCase classes, while
 * this adapter reads a handful of fields and checks them with zod.
 *
 * Protocol (https://developer.paddle.com/api-reference/about/authentication, …/about/success-responses,
 * …/about/errors): `Authorization: Bearer <API key>`, JSON request bodies, answers `{data, meta}` (lists:
 * `meta.pagination {per_page, next, has_more}`), errors `{error: {type, code, detail}}` with a 4xx/5xx
 * status (403 `invalid_token` / `authentication_missing` for a bad key). Money is a string of the
 * currency's lowest unit (`"1900"` = $19.00, `"26600"` = ₩26,600), times are RFC 3339 strings.
 *
 * Every failure becomes a `PaymentProviderError`: a non-2xx answer keeps its HTTP status and names
 * Paddle's `code` and `detail`; an unreachable host or a timeout has no status; a 2xx body that is not
 * the expected shape has the status it came with. No message ever carries the API key.
 */

/** RFC 3339 date-times; anything `Date` cannot read is refused. */
const Timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not an RFC 3339 date-time');
/** An amount in the lowest currency unit, as Paddle writes it (a string of digits, negative on credits). */
const Amount = z.string().regex(/^-?\d{1,18}$/, 'not an amount in the lowest currency unit');
/** Your own key-value data (https://developer.paddle.com/build/transactions/custom-data). */
const CustomData = z.record(z.string(), z.unknown()).nullish();
const TimePeriod = z.object({ starts_at: Timestamp, ends_at: Timestamp });
/** `rate`: the share of the billing period an item was prorated for (`"0.5"`), over `billing_period`. */
const Proration = z.object({ rate: z.string(), billing_period: TimePeriod.nullish() }).nullish();

/**
 * A transaction as the adapter reads it (https://developer.paddle.com/api-reference/transactions/overview):
 * status `draft|ready|billed|paid|completed|canceled|past_due`, `origin` (`web`, `api`,
 * `subscription_recurring`, `subscription_update`, `subscription_charge`,
 * `subscription_payment_method_change`), items with their price and proration (a removed item of a
 * prorated change has a negative quantity), `details.totals.grand_total`, payment attempts with their
 * `method_details.type`, and `checkout.url` (our default payment link with `?_ptxn=`).
 */
export const PaddleTransaction = z.object({
  id: z.string().min(1),
  status: z.string(),
  custom_data: CustomData,
  currency_code: z.string(),
  origin: z.string(),
  subscription_id: z.string().nullish(),
  billing_period: TimePeriod.nullish(),
  items: z.array(
    z.object({
      price: z.object({ id: z.string() }).nullish(),
      price_id: z.string().nullish(),
      quantity: z.number(),
      proration: Proration,
    }),
  ),
  details: z
    .object({
      totals: z.object({ subtotal: Amount, grand_total: Amount }).nullish(),
      line_items: z.array(z.object({ price_id: z.string(), quantity: z.number(), totals: z.object({ subtotal: Amount, total: Amount }).nullish(), proration: Proration })).nullish(),
    })
    .nullish(),
  payments: z
    .array(
      z.object({
        status: z.string(),
        method_details: z
          .object({
            type: z.string(),
            /** Deprecated `korea_local` payments name the wallet or card issuer here. */
            underlying_details: z.object({ korea_local: z.object({ type: z.string() }).nullish() }).nullish(),
          })
          .nullish(),
        created_at: Timestamp,
        captured_at: Timestamp.nullish(),
      }),
    )
    .nullish(),
  checkout: z.object({ url: z.string().nullish() }).nullish(),
  created_at: Timestamp,
});
export type PaddleTransaction = z.infer<typeof PaddleTransaction>;

/**
 * A subscription (https://developer.paddle.com/api-reference/subscriptions/overview): status
 * `active|past_due|paused|canceled|trialing`, `current_billing_period` (null once canceled or paused),
 * `scheduled_change {action: cancel|pause|resume, effective_at}`, items with their price, `custom_data`.
 */
export const PaddleSubscription = z.object({
  id: z.string().min(1),
  status: z.string(),
  currency_code: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
  paused_at: Timestamp.nullish(),
  canceled_at: Timestamp.nullish(),
  current_billing_period: TimePeriod.nullish(),
  scheduled_change: z.object({ action: z.string(), effective_at: Timestamp }).nullish(),
  items: z.array(z.object({ price: z.object({ id: z.string() }), quantity: z.number() })),
  custom_data: CustomData,
});
export type PaddleSubscription = z.infer<typeof PaddleSubscription>;

/**
 * An adjustment (https://developer.paddle.com/api-reference/adjustments/overview): `action` (`refund`,
 * `credit`, `chargeback` …), `status` `pending_approval|approved|rejected|reversed` (a refund moves money
 * only once `approved`), `totals.total` in the lowest currency unit.
 */
export const PaddleAdjustment = z.object({
  id: z.string().min(1),
  action: z.string(),
  transaction_id: z.string(),
  subscription_id: z.string().nullish(),
  status: z.string(),
  totals: z.object({ total: Amount, currency_code: z.string() }),
});
export type PaddleAdjustment = z.infer<typeof PaddleAdjustment>;

/** A customer (https://developer.paddle.com/api-reference/customers/overview). */
export const PaddleCustomer = z.object({ id: z.string().min(1), email: z.string(), status: z.string().optional() });
export type PaddleCustomer = z.infer<typeof PaddleCustomer>;

/**
 * A webhook's body (https://developer.paddle.com/webhooks/overview): `event_id` (`evt_…`, unique per
 * event, the same on every redelivery), `event_type` (`transaction.completed` …), `occurred_at`, and
 * `data`: the entity as it was when the event occurred.
 */
export const PaddleEvent = z.object({
  event_id: z.string().min(1).max(200),
  event_type: z.string().min(1).max(100),
  occurred_at: Timestamp,
  data: z.object({ id: z.string().min(1) }).loose(),
});
export type PaddleEvent = z.infer<typeof PaddleEvent>;

function describe(err: z.ZodError): string {
  return err.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/**
 * The `data` of a Paddle answer, checked against `schema`.
 * @throws PaymentProviderError (with `status`) naming the first problems found.
 */
export function parseData<T>(body: unknown, schema: z.ZodType<T>, what: string, status?: number): T {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown }).data : undefined;
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new PaymentProviderError(`Paddle ${what}: unexpected answer (${describe(parsed.error)})`, status);
  return parsed.data;
}

/** Settings of the client: the API key, the API origin and the per-request timeout (ms). */
export interface PaddleClientOptions {
  apiKey: string;
  /** API origin without a trailing slash: https://api.paddle.com, https://sandbox-api.paddle.com or a fake. */
  baseUrl: string;
  /** Per-request timeout (default 30 s: an upgrade's PATCH waits for its payment attempt). */
  timeoutMs?: number;
}

export interface PaddleClient {
  /**
   * Sends one request to `baseUrl + path` (query parameters appended) and returns the parsed JSON body
   * of a 2xx answer. @throws PaymentProviderError: `status` = the HTTP status for a non-2xx answer or a
   * 2xx body that is not JSON; undefined when the host could not be reached or the request timed out.
   */
  request(method: 'GET' | 'POST' | 'PATCH', path: string, opts?: { query?: Record<string, string>; body?: unknown }): Promise<{ status: number; body: unknown }>;
  /**
   * Every entity of a list endpoint (`GET path?query`), following `meta.pagination.next` while
   * `has_more` (at most `maxPages` pages of `per_page` 50). @throws PaymentProviderError, also when a
   * `next` link leaves `baseUrl` or the pages run out.
   */
  list<T>(path: string, query: Record<string, string>, schema: z.ZodType<T>, what: string, maxPages?: number): Promise<T[]>;
}

/** Anything shaped like a Paddle secret: API keys (`pdl_live_apikey_…`, `pdl_sdbx_apikey_…`), notification secrets (`pdl_ntfset_…`). */
const SECRET_SHAPE = /\bpdl_[A-Za-z0-9]+_[A-Za-z0-9_]{8,}/g;

/** Creates the client (see the file comment). Never puts the API key anywhere but the Authorization header. */
export function createPaddleClient(opts: PaddleClientOptions): PaddleClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const redact = (msg: string) => (opts.apiKey ? msg.split(opts.apiKey).join('[redacted]') : msg).replace(SECRET_SHAPE, 'pdl_[redacted]');

  async function send(method: string, url: string, body: unknown, where: string): Promise<{ status: number; body: unknown }> {
    const { res, json, parsed } = await fetchVendorJson('Paddle', where, url, {
      method,
      headers: {
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        Authorization: `Bearer ${opts.apiKey}`,
      },
      body,
      timeoutMs,
    });
    if (!res.ok) throw new PaymentProviderError(redact(`Paddle ${where} answered ${res.status}${errorDetail(json)}`), res.status);
    if (!parsed) throw new PaymentProviderError(`Paddle ${where} answered ${res.status} with a body that is not JSON`, res.status);
    return { status: res.status, body: json };
  }

  const client: PaddleClient = {
    async request(method, path, o = {}) {
      const qs = o.query && Object.keys(o.query).length ? `?${new URLSearchParams(o.query).toString()}` : '';
      return send(method, `${base}${path}${qs}`, o.body, `${method} ${path}`);
    },

    async list(path, query, schema, what, maxPages = 20) {
      const out: unknown[] = [];
      let url: string | null = `${base}${path}?${new URLSearchParams({ ...query, per_page: '50' }).toString()}`;
      for (let page = 0; url; page++) {
        if (page >= maxPages) throw new PaymentProviderError(`Paddle ${what}: more than ${maxPages} pages`);
        const res = await send('GET', url, undefined, `GET ${path}`);
        const b = (res.body ?? {}) as { data?: unknown; meta?: { pagination?: { next?: unknown; has_more?: unknown } } };
        if (!Array.isArray(b.data)) throw new PaymentProviderError(`Paddle ${what}: not a list`, res.status);
        out.push(...b.data);
        const next = b.meta?.pagination?.has_more === true ? b.meta.pagination.next : null;
        if (typeof next === 'string' && next) {
          if (!next.startsWith(`${base}/`)) throw new PaymentProviderError(`Paddle ${what}: a next page outside the API origin`);
          url = next;
        } else url = null;
      }
      const parsed = z.array(schema).safeParse(out);
      if (!parsed.success) throw new PaymentProviderError(`Paddle ${what}: unexpected answer (${describe(parsed.error)})`);
      return parsed.data;
    },
  };
  return client;
}

/** `: <code> — <detail>` of Paddle's error object, when the body has one (bounded length). */
function errorDetail(json: unknown): string {
  const error = typeof json === 'object' && json !== null ? (json as { error?: unknown }).error : undefined;
  if (typeof error !== 'object' || error === null) return '';
  const e = error as { code?: unknown; detail?: unknown };
  const parts = [e.code, e.detail].filter((p): p is string => typeof p === 'string' && p.length > 0);
  return parts.length ? `: ${parts.join(' — ').slice(0, 300)}` : '';
}
