import { z } from 'zod';
import { PaymentProviderError } from '../payments-provider';
import { fetchVendorJson } from './vendor-http';

/**
 * A thin typed client of the Lemon Squeezy REST API (https://docs.lemonsqueezy.com/api), covering the
 * calls the payments adapter makes. Own client rather than `@lemonsqueezy/lemonsqueezy.js` v4: the SDK
 * hard-codes `https://api.lemonsqueezy.com` and keeps its API key in module-global state
 * (`lemonSqueezySetup`), so it can be pointed neither at `LEMONSQUEEZY_BASE_URL` (the contract tests'
 * fake) nor at two stores at once.
 *
 * Every request sends the JSON:API headers (`Accept` / `Content-Type: application/vnd.api+json`) and
 * `Authorization: Bearer <key>`. Every answer is checked: a non-2xx status, an unreachable host, a
 * timeout or a body that is not the expected JSON:API resource all become a `PaymentProviderError`
 * whose message names the method, the path and LS's own `errors[0]` text, never the API key.
 */

/** LS timestamps (`2024-01-31T10:00:00.000000Z`); anything `Date` cannot read is refused. */
const Timestamp = z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not an ISO 8601 date-time');
const Cents = z.number().int().nonnegative();

/** Order attributes the adapter reads (https://docs.lemonsqueezy.com/api/orders/the-order-object). */
export const LsOrderAttributes = z.object({
  status: z.string(),
  total: Cents,
  /** Absent on orders LS wrote before it added partial refunds; 0 when nothing was refunded. */
  refunded_amount: Cents.nullish(),
  first_order_item: z.object({ variant_id: z.union([z.number(), z.string()]) }).nullable(),
  /** ISO 4217 (`USD`); absent on fakes of older objects: the store's USD. */
  currency: z.string().nullish(),
  /** The customer's receipt page. */
  urls: z.object({ receipt: z.string().url().nullish() }).nullish(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type LsOrderAttributes = z.infer<typeof LsOrderAttributes>;

/** Subscription attributes (https://docs.lemonsqueezy.com/api/subscriptions/the-subscription-object). */
export const LsSubscriptionAttributes = z.object({
  status: z.string(),
  variant_id: z.union([z.number(), z.string()]),
  cancelled: z.boolean(),
  renews_at: Timestamp.nullable(),
  ends_at: Timestamp.nullable(),
  trial_ends_at: Timestamp.nullish(),
  /** Pre-signed customer pages; `update_payment_method` is where a failed payment is fixed. */
  urls: z.object({ update_payment_method: z.string().url().nullish() }).nullish(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type LsSubscriptionAttributes = z.infer<typeof LsSubscriptionAttributes>;

/** Subscription-invoice attributes (https://docs.lemonsqueezy.com/api/subscription-invoices). */
export const LsSubscriptionInvoiceAttributes = z.object({
  subscription_id: z.union([z.number(), z.string()]),
  billing_reason: z.string(),
  status: z.string(),
  total: Cents,
  /** Before discount and tax (an `updated` invoice: the prorated difference LS charged). */
  subtotal: Cents.nullish(),
  refunded_amount: Cents.nullish(),
  currency: z.string().nullish(),
  /** Set when a card paid it (LS also takes PayPal, which leaves it null). */
  card_brand: z.string().nullish(),
  /** The invoice's customer page. */
  urls: z.object({ invoice_url: z.string().url().nullish() }).nullish(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type LsSubscriptionInvoiceAttributes = z.infer<typeof LsSubscriptionInvoiceAttributes>;

/** Checkout attributes (https://docs.lemonsqueezy.com/api/checkouts/the-checkout-object). */
export const LsCheckoutAttributes = z.object({ url: z.url() });
export type LsCheckoutAttributes = z.infer<typeof LsCheckoutAttributes>;

/** The JSON:API resource types the adapter handles. */
export type LsType = 'orders' | 'subscriptions' | 'subscription-invoices' | 'checkouts';

/** One JSON:API resource object as LS returns it (only the members the adapter reads). */
export interface LsResource<A> {
  type: LsType;
  id: string;
  attributes: A;
}

const ResourceShape = z.object({ type: z.string(), id: z.string().min(1), attributes: z.record(z.string(), z.unknown()) });

/**
 * Checks that `doc` is a JSON:API document whose `data` is one resource of `type` and whose attributes
 * fit `schema`. @returns the resource with parsed attributes.
 * @throws PaymentProviderError (with `status`, when given) naming the first problems found.
 */
export function parseResource<A>(doc: unknown, type: LsType, schema: z.ZodType<A>, what: string, status?: number): LsResource<A> {
  const data = typeof doc === 'object' && doc !== null ? (doc as { data?: unknown }).data : undefined;
  const shape = ResourceShape.safeParse(data);
  if (!shape.success) throw new PaymentProviderError(`Lemon Squeezy ${what}: not a JSON:API resource document (${describe(shape.error)})`, status);
  if (shape.data.type !== type) {
    throw new PaymentProviderError(`Lemon Squeezy ${what}: expected a "${type}" resource, got "${shape.data.type}"`, status);
  }
  const attrs = schema.safeParse(shape.data.attributes);
  if (!attrs.success) throw new PaymentProviderError(`Lemon Squeezy ${what}: unexpected ${type} attributes (${describe(attrs.error)})`, status);
  return { type, id: shape.data.id, attributes: attrs.data };
}

function describe(err: z.ZodError): string {
  return err.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}

/** Settings of the client: the secret API key, the API origin and the per-request timeout (ms). */
export interface LemonSqueezyClientOptions {
  apiKey: string;
  /** API origin without a trailing slash, e.g. `https://api.lemonsqueezy.com`. */
  baseUrl: string;
  /** Per-request timeout (default 15 s). */
  timeoutMs?: number;
}

/** JSON:API request body (`{ data: { type, id?, attributes?, relationships? } }`). */
export interface LsRequestBody {
  data: { type: LsType; id?: string; attributes?: Record<string, unknown>; relationships?: Record<string, unknown> };
}

export interface LemonSqueezyClient {
  /**
   * Sends one request to `baseUrl + path` (path starts with `/v1/`) and returns the parsed JSON body of
   * a 2xx answer (null for an empty one).
   * @throws PaymentProviderError: `status` = the HTTP status for a non-2xx answer or a 2xx body that is
   *   not JSON; undefined when the host could not be reached or the request timed out.
   */
  request(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: LsRequestBody): Promise<{ status: number; body: unknown }>;
}

/** Creates the client (see the file comment). Never puts the API key anywhere but the Authorization header. */
export function createLemonSqueezyClient(opts: LemonSqueezyClientOptions): LemonSqueezyClient {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? 15_000;

  /** LS's error text is echoed into our message; make sure the key can never ride along. */
  const redact = (msg: string) => (opts.apiKey ? msg.split(opts.apiKey).join('[redacted]') : msg);

  return {
    async request(method, path, body) {
      const where = `${method} ${path}`;
      const { res, json, parsed } = await fetchVendorJson('Lemon Squeezy', where, `${base}${path}`, {
        method,
        headers: {
          Accept: 'application/vnd.api+json',
          'Content-Type': 'application/vnd.api+json',
          Authorization: `Bearer ${opts.apiKey}`,
        },
        body,
        timeoutMs,
      });
      if (!res.ok) throw new PaymentProviderError(redact(`Lemon Squeezy ${where} answered ${res.status}${errorDetail(json)}`), res.status);
      if (!parsed) throw new PaymentProviderError(`Lemon Squeezy ${where} answered ${res.status} with a body that is not JSON`, res.status);
      return { status: res.status, body: json };
    },
  };
}

/** `: <title> — <detail>` of the first JSON:API error object, when the body has one (bounded length). */
function errorDetail(json: unknown): string {
  const errors = typeof json === 'object' && json !== null ? (json as { errors?: unknown }).errors : undefined;
  if (!Array.isArray(errors) || errors.length === 0) return '';
  const first = errors[0] as { title?: unknown; detail?: unknown };
  const parts = [first.title, first.detail].filter((p): p is string => typeof p === 'string' && p.length > 0);
  return parts.length ? `: ${parts.join(' — ').slice(0, 300)}` : '';
}
