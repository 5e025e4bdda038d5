import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small stateful fake of the Lemon Squeezy API (https://docs.lemonsqueezy.com/api), for the contract
 * tests of the LS payments adapter. Listens on 127.0.0.1 on a free port; point the adapter's `baseUrl`
 * at `origin`.
 *
 * It speaks the subset the adapter uses, as JSON:API documents (`{jsonapi, links, data: {type, id,
 * attributes, relationships, links}}`), answering errors as a JSON:API `errors` array:
 *
 *   POST   /v1/checkouts                  201 checkout (url, checkout_data, product_options); 422 for a
 *                                         wrong store or an unknown variant
 *   GET    /v1/orders/{id}                order
 *   GET    /v1/subscriptions/{id}         subscription
 *   PATCH  /v1/subscriptions/{id}         variant_id (+ invoice_immediately → a prorated `updated`
 *                                         invoice; disable_prorations → no charge, the next renewal
 *                                         bills the new price), cancelled true/false; 422 once expired
 *   DELETE /v1/subscriptions/{id}         cancelled, running until ends_at
 *   GET    /v1/subscription-invoices/{id} subscription invoice
 *   POST   /v1/orders/{id}/refund, /v1/subscription-invoices/{id}/refund  `amount` optional (else the
 *                                         rest): `partial_refund` or `refunded`
 *
 * Every request needs `Authorization: Bearer <apiKey>` (401), `Accept: application/vnd.api+json` (406)
 * and, with a body, `Content-Type: application/vnd.api+json` (415). Every request is recorded in
 * `requests` (the Authorization header reduced to whether it matched). Time is a fake clock (`now`,
 * `advance`), and every change stamps a strictly later `updated_at`, as a real change would.
 *
 * Test helpers play the parts LS plays outside the API: the buyer paying (`completeCheckout`), renewals
 * (`renew`, `failRenewal`), refunds (`refundOrder`, `refundInvoice`), the end of a subscription
 * (`expire`), errors (`injectNext`), and webhook deliveries signed like LS (`signedWebhook`).
 */

/** One variant of the fake store. */
export interface FakeLsVariant {
  /** Price in cents. */
  price: number;
  /** A monthly subscription variant (else a one-time product). */
  subscription: boolean;
  name?: string;
}

/** What the fake store is: its API key, store id, webhook signing secret, variants and clock start. */
export interface FakeLsOptions {
  apiKey: string;
  storeId: string;
  /** Webhook signing secret used by `signedWebhook`. */
  signingSecret: string;
  /** The store's variants by LS variant id. */
  variants: Record<string, FakeLsVariant>;
  /** Start of the fake clock (default 2025-01-31T10:00:00Z, a month end, to exercise day clamping). */
  startAt?: Date;
}

/** A JSON:API resource as the fake stores and serves it. */
export interface FakeLsResource<T extends string = string> {
  type: T;
  id: string;
  attributes: Record<string, unknown>;
}

/** A created checkout: the LS resource plus what the fake needs to complete it. */
export interface FakeLsCheckout extends FakeLsResource<'checkouts'> {
  variantId: string;
  custom: Record<string, unknown>;
  email: string | null;
  completed: boolean;
}

/** One API request the fake received, for assertions on what the adapter sent. */
export interface FakeLsRequest {
  method: string;
  path: string;
  /** Lower-cased headers, `authorization` removed (see `authorized`). */
  headers: Record<string, string>;
  authorized: boolean;
  /** Parsed JSON body, or null. */
  body: unknown;
}

/** What `completeCheckout` created. */
export interface FakeLsCompletion {
  /** The order LS raises for every purchase (a subscription's first payment included). */
  order: FakeLsResource<'orders'>;
  subscription?: FakeLsResource<'subscriptions'>;
  invoice?: FakeLsResource<'subscription-invoices'>;
}

/** The running fake: its stores of resources, the request log, the clock and the test helpers. */
export interface FakeLemonSqueezy {
  origin: string;
  options: FakeLsOptions;
  checkouts: Map<string, FakeLsCheckout>;
  orders: Map<string, FakeLsResource<'orders'>>;
  subscriptions: Map<string, FakeLsResource<'subscriptions'>>;
  invoices: Map<string, FakeLsResource<'subscription-invoices'>>;
  requests: FakeLsRequest[];
  /** The fake clock. */
  now(): Date;
  advance(ms: number): void;
  /** The buyer pays: a pack creates a paid order; a plan an order, an active subscription and its initial paid invoice. */
  completeCheckout(checkoutId: string): FakeLsCompletion;
  /** The clock moves to `renews_at`; a paid `renewal` invoice at the current variant's price; the period advances a month. */
  renew(subscriptionId: string): FakeLsResource<'subscription-invoices'>;
  /** The clock moves to `renews_at`; a `pending` renewal invoice; the subscription goes `past_due`. */
  failRenewal(subscriptionId: string): FakeLsResource<'subscription-invoices'>;
  /** Refunds `cents` (default: what is left) of an order: `partial_refund` or `refunded`. */
  refundOrder(orderId: string, cents?: number): FakeLsResource<'orders'>;
  /** Refunds `cents` (default: what is left) of a subscription invoice. */
  refundInvoice(invoiceId: string, cents?: number): FakeLsResource<'subscription-invoices'>;
  /** The subscription ends now (`expired`, `ends_at` = the end of its grace period or now). */
  expire(subscriptionId: string): FakeLsResource<'subscriptions'>;
  /**
   * Answers the next API request with `status` and `body` (an object is sent as JSON, a string as is),
   * after `delayMs` when given (to exercise client timeouts).
   */
  injectNext(status: number, body?: unknown, delayMs?: number): void;
  /**
   * A webhook delivery as LS sends it: body `{meta: {event_name, custom_data, test_mode, webhook_id},
   * data: {type, id, attributes, relationships, links}}`, headers `Content-Type`, `X-Event-Name` and
   * `X-Signature` = hex HMAC-SHA256 of the raw body under the signing secret. `customData` defaults to
   * the custom data of the checkout the object came from (undefined = none known; null = send none).
   */
  signedWebhook(eventName: string, object: FakeLsResource, customData?: Record<string, unknown> | null): { body: Buffer; headers: Record<string, string> };
  close(): Promise<void>;
}

const JSON_API = 'application/vnd.api+json';

/** LS stamps microseconds: `2025-01-31T10:00:00.000000Z`. */
function stamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
}

/** The next renewal after `ms`: one calendar month on, on the `anchor` day (clamped to the month's last day), as LS's `billing_anchor`. */
function nextRenewal(ms: number, anchor: number): number {
  const d = new Date(ms);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 2, 0)).getUTCDate();
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, Math.min(anchor, lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds());
}

class FakeLsError extends Error {
  constructor(readonly status: number, readonly title: string, detail: string) {
    super(detail);
  }
}

/** Starts the fake (see the file comment). */
export async function startFakeLemonSqueezy(options: FakeLsOptions): Promise<FakeLemonSqueezy> {
  let clock = (options.startAt ?? new Date('2025-01-31T10:00:00Z')).getTime();
  let lastStamp = 0;
  let nextId = 1;
  const injected: Array<{ status: number; body: unknown; delayMs?: number }> = [];
  /** Which checkout each order / subscription / invoice came from (for webhook custom data). */
  const checkoutOf = new Map<string, string>();

  /** A strictly increasing "now" for a change. */
  const touch = (): string => {
    lastStamp = Math.max(clock, lastStamp + 1000);
    clock = lastStamp;
    return stamp(lastStamp);
  };
  const id = () => String(nextId++);

  const state: FakeLemonSqueezy = {
    origin: '',
    options,
    checkouts: new Map(),
    orders: new Map(),
    subscriptions: new Map(),
    invoices: new Map(),
    requests: [],
    now: () => new Date(clock),
    advance: (ms) => {
      clock += ms;
    },
    completeCheckout,
    renew: (subId) => renewal(subId, true),
    failRenewal: (subId) => renewal(subId, false),
    refundOrder: (orderId, cents) => refund(mustGet(state.orders, orderId, 'order'), cents),
    refundInvoice: (invoiceId, cents) => refund(mustGet(state.invoices, invoiceId, 'subscription invoice'), cents),
    expire,
    injectNext: (status, body, delayMs) => {
      injected.push({ status, body, delayMs });
    },
    signedWebhook,
    close: async () => undefined,
  };

  function mustGet<R>(map: Map<string, R>, key: string, what: string): R {
    const r = map.get(key);
    if (!r) throw new FakeLsError(404, 'Not Found', `${what} ${key} not found`);
    return r;
  }

  function variant(variantId: string): FakeLsVariant {
    const v = options.variants[variantId];
    if (!v) throw new FakeLsError(422, 'Unprocessable Entity', `variant ${variantId} does not exist in this store`);
    return v;
  }

  function completeCheckout(checkoutId: string): FakeLsCompletion {
    const checkout = mustGet(state.checkouts, checkoutId, 'checkout');
    if (checkout.completed) throw new Error(`fake LS: checkout ${checkoutId} already completed`);
    checkout.completed = true;
    const v = variant(checkout.variantId);
    const at = touch();
    const orderId = id();
    const email = checkout.email ?? 'buyer@example.com';
    const order: FakeLsResource<'orders'> = {
      type: 'orders',
      id: orderId,
      attributes: {
        store_id: Number(options.storeId),
        customer_id: 1,
        identifier: randomUUID(),
        order_number: Number(orderId),
        user_name: 'Test Buyer',
        user_email: email,
        currency: 'USD',
        currency_rate: '1.0000',
        subtotal: v.price,
        discount_total: 0,
        tax: 0,
        total: v.price,
        refunded_amount: 0,
        status: 'paid',
        status_formatted: 'Paid',
        refunded: false,
        refunded_at: null,
        first_order_item: {
          id: Number(orderId) + 1000,
          order_id: Number(orderId),
          product_id: 1,
          variant_id: Number(checkout.variantId),
          product_name: 'Dewy',
          variant_name: v.name ?? `variant ${checkout.variantId}`,
          price: v.price,
          quantity: 1,
          created_at: at,
          updated_at: at,
          test_mode: true,
        },
        urls: { receipt: `${state.origin}/my-orders/${orderId}` },
        created_at: at,
        updated_at: at,
        test_mode: true,
      },
    };
    state.orders.set(order.id, order);
    checkoutOf.set(`orders:${order.id}`, checkoutId);
    if (!v.subscription) return { order };

    const subId = id();
    const anchor = new Date(lastStamp).getUTCDate();
    const renewsAt = stamp(nextRenewal(lastStamp, anchor));
    const subscription: FakeLsResource<'subscriptions'> = {
      type: 'subscriptions',
      id: subId,
      attributes: {
        store_id: Number(options.storeId),
        customer_id: 1,
        order_id: Number(orderId),
        order_item_id: Number(orderId) + 1000,
        product_id: 1,
        variant_id: Number(checkout.variantId),
        product_name: 'Dewy',
        variant_name: v.name ?? `variant ${checkout.variantId}`,
        user_name: 'Test Buyer',
        user_email: email,
        status: 'active',
        status_formatted: 'Active',
        card_brand: 'visa',
        card_last_four: '4242',
        pause: null,
        cancelled: false,
        trial_ends_at: null,
        billing_anchor: anchor,
        first_subscription_item: { id: Number(subId) + 2000, subscription_id: Number(subId), price_id: 1, quantity: 1, is_usage_based: false, created_at: at, updated_at: at },
        urls: { update_payment_method: `${state.origin}/subscription/${subId}/payment-details`, customer_portal: `${state.origin}/billing` },
        renews_at: renewsAt,
        ends_at: null,
        created_at: at,
        updated_at: at,
        test_mode: true,
      },
    };
    state.subscriptions.set(subId, subscription);
    checkoutOf.set(`subscriptions:${subId}`, checkoutId);
    const invoice = newInvoice(subscription, 'initial', v.price, 'paid', at);
    return { order, subscription, invoice };
  }

  function newInvoice(sub: FakeLsResource<'subscriptions'>, reason: 'initial' | 'renewal' | 'updated', total: number, status: 'paid' | 'pending', at: string): FakeLsResource<'subscription-invoices'> {
    const invId = id();
    const invoice: FakeLsResource<'subscription-invoices'> = {
      type: 'subscription-invoices',
      id: invId,
      attributes: {
        store_id: Number(options.storeId),
        subscription_id: Number(sub.id),
        customer_id: 1,
        user_name: sub.attributes.user_name,
        user_email: sub.attributes.user_email,
        billing_reason: reason,
        card_brand: 'visa',
        card_last_four: '4242',
        currency: 'USD',
        currency_rate: '1.00000000',
        status,
        status_formatted: status === 'paid' ? 'Paid' : 'Pending',
        refunded: false,
        refunded_at: null,
        subtotal: total,
        discount_total: 0,
        tax: 0,
        tax_inclusive: false,
        total,
        refunded_amount: 0,
        urls: { invoice_url: status === 'paid' ? `${state.origin}/invoices/${invId}` : null },
        created_at: at,
        updated_at: at,
        test_mode: true,
      },
    };
    state.invoices.set(invId, invoice);
    const from = checkoutOf.get(`subscriptions:${sub.id}`);
    if (from) checkoutOf.set(`subscription-invoices:${invId}`, from);
    return invoice;
  }

  function renewal(subId: string, pays: boolean): FakeLsResource<'subscription-invoices'> {
    const sub = mustGet(state.subscriptions, subId, 'subscription');
    const a = sub.attributes;
    if (a.status === 'expired' || a.status === 'cancelled') throw new Error(`fake LS: subscription ${subId} is ${String(a.status)}, it does not renew`);
    const boundary = Date.parse(String(a.renews_at));
    clock = Math.max(clock, boundary);
    const at = touch();
    const invoice = newInvoice(sub, 'renewal', variant(String(a.variant_id)).price, pays ? 'paid' : 'pending', at);
    if (pays) {
      a.status = 'active';
      a.status_formatted = 'Active';
      a.renews_at = stamp(nextRenewal(boundary, Number(a.billing_anchor)));
    } else {
      // LS retries over two weeks; the fake keeps `renews_at` at the attempted renewal.
      a.status = 'past_due';
      a.status_formatted = 'Past due';
    }
    a.updated_at = at;
    return invoice;
  }

  function refund<R extends FakeLsResource>(res: R, cents?: number): R {
    const a = res.attributes;
    const total = Number(a.total);
    const already = Number(a.refunded_amount ?? 0);
    const amount = cents ?? total - already;
    if (amount <= 0 || already + amount > total) throw new Error(`fake LS: cannot refund ${amount} of ${res.type} ${res.id}`);
    const at = touch();
    a.refunded_amount = already + amount;
    const full = already + amount === total;
    a.status = full ? 'refunded' : 'partial_refund';
    a.status_formatted = full ? 'Refunded' : 'Partial refund';
    a.refunded = full;
    a.refunded_at = at;
    a.updated_at = at;
    return res;
  }

  function expire(subId: string): FakeLsResource<'subscriptions'> {
    const sub = mustGet(state.subscriptions, subId, 'subscription');
    const a = sub.attributes;
    const endsAt = typeof a.ends_at === 'string' ? Date.parse(a.ends_at) : clock;
    clock = Math.max(clock, endsAt);
    const at = touch();
    a.status = 'expired';
    a.status_formatted = 'Expired';
    a.cancelled = true;
    a.ends_at = stamp(endsAt);
    a.updated_at = at;
    return sub;
  }

  function cancelSub(sub: FakeLsResource<'subscriptions'>): void {
    const a = sub.attributes;
    if (a.status === 'expired') throw new FakeLsError(422, 'Unprocessable Entity', 'an expired subscription cannot be changed');
    a.cancelled = true;
    a.status = 'cancelled';
    a.status_formatted = 'Cancelled';
    a.ends_at = a.renews_at;
  }

  function updateSub(sub: FakeLsResource<'subscriptions'>, attrs: Record<string, unknown>): void {
    const a = sub.attributes;
    if (a.status === 'expired') throw new FakeLsError(422, 'Unprocessable Entity', 'an expired subscription cannot be changed');
    const known = ['variant_id', 'invoice_immediately', 'disable_prorations', 'cancelled', 'pause', 'billing_anchor', 'trial_ends_at'];
    for (const k of Object.keys(attrs)) {
      if (!known.includes(k)) throw new FakeLsError(422, 'Unprocessable Entity', `unknown attribute ${k}`);
    }
    const at = touch();
    if ('variant_id' in attrs) {
      if (typeof attrs.variant_id !== 'number') throw new FakeLsError(422, 'Unprocessable Entity', 'The variant id must be an integer.');
      const next = variant(String(attrs.variant_id));
      if (!next.subscription) throw new FakeLsError(422, 'Unprocessable Entity', 'The variant must be a subscription variant.');
      const prev = variant(String(a.variant_id));
      a.variant_id = attrs.variant_id;
      a.variant_name = next.name ?? `variant ${attrs.variant_id}`;
      // LS: disable_prorations overrides invoice_immediately; without either the proration waits for the renewal.
      if (attrs.invoice_immediately === true && attrs.disable_prorations !== true) {
        const end = Date.parse(String(a.renews_at));
        const start = Math.max(Date.parse(String(a.created_at)), end - 30 * 86_400_000);
        const left = Math.max(0, Math.min(1, (end - clock) / (end - start)));
        const diff = Math.round((next.price - prev.price) * left);
        if (diff > 0) newInvoice(sub, 'updated', diff, 'paid', at);
      }
    }
    if (attrs.cancelled === true) cancelSub(sub);
    if (attrs.cancelled === false && a.status === 'cancelled') {
      a.cancelled = false;
      a.status = 'active';
      a.status_formatted = 'Active';
      a.ends_at = null;
    }
    a.updated_at = at;
  }

  function doc(res: FakeLsResource): unknown {
    const self = `${state.origin}/v1/${res.type}/${res.id}`;
    return { jsonapi: { version: '1.0' }, links: { self }, data: { type: res.type, id: res.id, attributes: res.attributes, relationships: {}, links: { self } } };
  }

  function signedWebhook(eventName: string, object: FakeLsResource, customData?: Record<string, unknown> | null) {
    let custom: Record<string, unknown> | null | undefined = customData;
    if (custom === undefined) {
      const from = checkoutOf.get(`${object.type}:${object.id}`);
      custom = from ? state.checkouts.get(from)?.custom : undefined;
    }
    const meta: Record<string, unknown> = { test_mode: true, event_name: eventName, webhook_id: 'fake-webhook-1' };
    if (custom) meta.custom_data = custom;
    const self = `${state.origin}/v1/${object.type}/${object.id}`;
    const body = Buffer.from(JSON.stringify({ meta, data: { type: object.type, id: object.id, attributes: object.attributes, relationships: {}, links: { self } } }));
    const signature = createHmac('sha256', options.signingSecret).update(body).digest('hex');
    return { body, headers: { 'content-type': 'application/json', 'x-event-name': eventName, 'x-signature': signature } };
  }

  function send(res: ServerResponse, status: number, body: unknown): void {
    const text = typeof body === 'string' ? body : body === undefined ? '' : JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': JSON_API, 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  }

  function sendError(res: ServerResponse, status: number, title: string, detail: string): void {
    send(res, status, { jsonapi: { version: '1.0' }, errors: [{ status: String(status), title, detail }] });
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const raw = await readBody(req);
    let body: unknown = null;
    let badJson = false;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        badJson = true;
      }
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (k !== 'authorization' && typeof v === 'string') headers[k] = v;
    const authorized = req.headers.authorization === `Bearer ${options.apiKey}`;
    state.requests.push({ method: req.method ?? '', path: url.pathname + url.search, headers, authorized, body });

    const inject = injected.shift();
    if (inject) {
      if (inject.delayMs) await new Promise((r) => setTimeout(r, inject.delayMs));
      if (!res.destroyed) send(res, inject.status, inject.body);
      return;
    }
    if (!authorized) return sendError(res, 401, 'Unauthenticated', 'Unauthenticated.');
    if (!(req.headers.accept ?? '').includes(JSON_API)) return sendError(res, 406, 'Not Acceptable', `Accept must be ${JSON_API}`);
    if (raw && !(req.headers['content-type'] ?? '').startsWith(JSON_API)) return sendError(res, 415, 'Unsupported Media Type', `Content-Type must be ${JSON_API}`);
    if (badJson) return sendError(res, 400, 'Bad Request', 'The body is not JSON.');

    const m = /^\/v1\/(checkouts|orders|subscriptions|subscription-invoices)(?:\/([^/]+))?(\/refund)?$/.exec(url.pathname);
    if (!m) return sendError(res, 404, 'Not Found', 'Not found.');
    const [, kind, rid, refundPath] = m as unknown as [string, string, string | undefined, string | undefined];
    const data = (body as { data?: { type?: unknown; id?: unknown; attributes?: Record<string, unknown>; relationships?: Record<string, { data?: { type?: unknown; id?: unknown } }> } } | null)?.data;

    if (refundPath) {
      // POST /v1/orders/{id}/refund, POST /v1/subscription-invoices/{id}/refund: `amount` (cents) optional, else the rest.
      if (req.method !== 'POST' || !rid || (kind !== 'orders' && kind !== 'subscription-invoices')) return sendError(res, 404, 'Not Found', 'Not found.');
      if (data?.type !== kind || String(data.id) !== rid) throw new FakeLsError(409, 'Conflict', 'data.type / data.id do not match the URL');
      const target = kind === 'orders' ? mustGet(state.orders, rid, 'order') : mustGet(state.invoices, rid, 'subscription invoice');
      const a = target.attributes;
      const left = Number(a.total) - Number(a.refunded_amount ?? 0);
      const amount = data.attributes?.amount === undefined ? left : Number(data.attributes.amount);
      if (!Number.isInteger(amount) || amount <= 0 || amount > left) throw new FakeLsError(422, 'Unprocessable Entity', 'The refund amount is invalid.');
      return send(res, 200, doc(refund(target as FakeLsResource, amount)));
    }

    if (kind === 'checkouts' && !rid && req.method === 'POST') {
      if (data?.type !== 'checkouts') throw new FakeLsError(422, 'Unprocessable Entity', 'data.type must be "checkouts"');
      const store = data.relationships?.store?.data;
      const variantRef = data.relationships?.variant?.data;
      if (store?.type !== 'stores' || String(store.id) !== options.storeId) throw new FakeLsError(422, 'Unprocessable Entity', 'The store is invalid.');
      if (variantRef?.type !== 'variants' || variantRef.id === undefined) throw new FakeLsError(422, 'Unprocessable Entity', 'The variant id field is required.');
      variant(String(variantRef.id));
      const attrs = data.attributes ?? {};
      const checkoutData = (attrs.checkout_data ?? {}) as { email?: unknown; custom?: Record<string, unknown> };
      const at = touch();
      const cid = randomUUID();
      const checkout: FakeLsCheckout = {
        type: 'checkouts',
        id: cid,
        variantId: String(variantRef.id),
        custom: checkoutData.custom ?? {},
        email: typeof checkoutData.email === 'string' ? checkoutData.email : null,
        completed: false,
        attributes: {
          store_id: Number(options.storeId),
          variant_id: Number(variantRef.id),
          custom_price: null,
          product_options: attrs.product_options ?? {},
          checkout_options: attrs.checkout_options ?? {},
          checkout_data: attrs.checkout_data ?? {},
          preview: false,
          expires_at: null,
          created_at: at,
          updated_at: at,
          test_mode: true,
          url: `${state.origin}/checkout/custom/${cid}?signature=fake`,
        },
      };
      state.checkouts.set(cid, checkout);
      return send(res, 201, doc(checkout));
    }
    if (!rid) return sendError(res, 404, 'Not Found', 'Not found.');

    if (kind === 'orders' && req.method === 'GET') return send(res, 200, doc(mustGet(state.orders, rid, 'order')));
    if (kind === 'subscription-invoices' && req.method === 'GET') return send(res, 200, doc(mustGet(state.invoices, rid, 'subscription invoice')));
    if (kind === 'subscriptions') {
      const sub = mustGet(state.subscriptions, rid, 'subscription');
      if (req.method === 'GET') return send(res, 200, doc(sub));
      if (req.method === 'DELETE') {
        cancelSub(sub);
        sub.attributes.updated_at = touch();
        return send(res, 200, doc(sub));
      }
      if (req.method === 'PATCH') {
        if (data?.type !== 'subscriptions' || data.id !== rid) throw new FakeLsError(409, 'Conflict', 'data.type / data.id do not match the URL');
        updateSub(sub, data.attributes ?? {});
        return send(res, 200, doc(sub));
      }
    }
    return sendError(res, 405, 'Method Not Allowed', `${req.method} is not allowed here`);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (e instanceof FakeLsError) sendError(res, e.status, e.title, e.message);
      else sendError(res, 500, 'Server Error', String(e));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((err) => (err ? reject(err) : resolve()));
    });
  return state;
}
