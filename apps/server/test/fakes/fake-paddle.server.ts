import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Paddle Billing API for contract tests of the Paddle adapter (decision 042): a small stateful
 * HTTP server on 127.0.0.1 (random port) speaking the subset of https://developer.paddle.com/api-reference
 * the adapter uses. Point the adapter's `baseUrl` at `fake.origin`.
 *
 * Protocol: `Authorization: Bearer <API key>` required (403 `authentication_missing` /
 * `invalid_token` otherwise, as Paddle answers); JSON bodies; answers `{data, meta: {request_id}}`,
 * lists with `meta.pagination`; errors `{error: {type: 'request_error', code, detail}}`.
 *
 *   GET  /customers?email=…;  POST /customers {email}           409 customer_already_exists for a known e-mail
 *   POST /transactions                                          items [{price_id, quantity}], customer_id,
 *        currency_code (must be the price's), custom_data, checkout.url → `checkout.url` = that URL (else
 *        the default payment link) + `?_ptxn=<id>`; status `draft`, origin `api`
 *   GET  /transactions/{id};  GET /transactions/{id}/invoice    (completed only) a temporary PDF link
 *   GET  /subscriptions/{id}
 *   PATCH /subscriptions/{id}                                   items (+ proration_billing_mode, required):
 *        `prorated_immediately` raises a completed `subscription_update` transaction of the new item
 *        (quantity 1) and the removed one (quantity -1), both prorated by the rest of the period
 *        (`proration.rate`); `do_not_bill` swaps the item only; `scheduled_change: null` (anything else is
 *        refused); custom_data replaces the whole object. Refused once canceled or while past_due.
 *   POST /subscriptions/{id}/cancel {effective_from}            next_billing_period → scheduled_change
 *        cancel at the period end; immediately → canceled now
 *   GET  /subscriptions/{id}/update-payment-method-transaction  past_due → its latest past_due
 *        transaction; active → a new zero-amount `subscription_payment_method_change` transaction
 *   GET  /adjustments?transaction_id=…&action=…;  POST /adjustments {action: refund, type: full, transaction_id, reason}
 *        a refund of a completed transaction, `pending_approval` (Paddle approves refunds later: `approveAdjustment`)
 *
 * Time: a month is 30 days; the clock can be moved forward (`advanceClock`). Amounts are strings of the
 * lowest currency unit, no tax. Test helpers play Paddle's other parts: a customer paying at Paddle
 * Checkout with a chosen method (`completeCheckout`, e.g. `kakao_pay`), renewals (`renew`, `failRenewal`),
 * refunds (`refund`, `approveAdjustment`), and webhook deliveries signed like Paddle's (`signedEvent`).
 */

type Json = Record<string, unknown>;

export interface FakePaddlePrice {
  /** Unit price in the lowest currency unit (cents; won). */
  amount: number;
  currency: 'USD' | 'KRW';
  /** A monthly price (a subscription item); else one-time. */
  recurring: boolean;
}

export interface FakePaddleOptions {
  apiKey: string;
  webhookSecret: string;
  /** The prices the fake knows, by price id. */
  prices: Record<string, FakePaddlePrice>;
  /** The account's default payment link (used when a transaction names no `checkout.url`). */
  defaultPaymentLink?: string;
}

/** One request as the fake received it. */
export interface FakePaddleRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
  headers: IncomingHttpHeaders;
}

export interface FakePaddle {
  /** `http://127.0.0.1:<port>`: the adapter's `baseUrl`. */
  origin: string;
  requests: FakePaddleRequest[];
  requestsTo(method: string, path: string | RegExp): FakePaddleRequest[];
  /** A deep copy of a stored entity (transaction, subscription, adjustment, customer) by id. */
  object(id: string): Json;
  /** The ids of a subscription's transactions, oldest first (its checkout's, renewals, upgrades, payment-method updates). */
  transactionsOf(subscriptionId: string): string[];
  /** The next API request is answered with this error. */
  failNext(status: number, code?: string, detail?: string): void;
  /**
   * The customer pays a transaction at Paddle Checkout with `method` (a `method_details.type`: `card`,
   * `kakao_pay`, `south_korea_local_card` …; `korea_local` with `koreaLocal` = the underlying type):
   * the transaction is `completed` with a captured payment; for a recurring price Paddle creates the
   * subscription (active, a 30-day period from now, the transaction's `custom_data`) and links it.
   */
  completeCheckout(transactionId: string, opts?: { method?: string; koreaLocal?: string }): { transactionId: string; subscriptionId: string | null };
  /** A payment attempt at the checkout is declined: the transaction stays open with an `error` attempt. */
  declineCheckoutAttempt(transactionId: string, method?: string): void;
  /**
   * The period ends: a scheduled cancel ends the subscription (returns null); otherwise the next period
   * is billed in a completed `subscription_recurring` transaction of the current item, paid with the
   * last method. @returns its id.
   */
  renew(subscriptionId: string): string | null;
  /** Like renew, but the payment is declined: the transaction is `past_due`, so is the subscription. */
  failRenewal(subscriptionId: string): string | null;
  /** Refunds a completed transaction in full as Paddle's dashboard would; `approved` at once unless `pending`. @returns the adjustment id. */
  refund(transactionId: string, opts?: { pending?: boolean }): string;
  /** Paddle approves a pending refund. */
  approveAdjustment(adjustmentId: string): void;
  /** Moves the fake's clock forward. */
  advanceClock(seconds: number): void;
  /**
   * A webhook delivery of `eventType` about `data`, signed like Paddle: `Paddle-Signature:
   * ts=<unix>;h1=<hex HMAC-SHA256(secret, "<ts>:<body>")>`, one `h1` per secret in `secrets` (default the
   * webhook secret). `timestamp` / `eventId` override the signing time and the event id.
   */
  signedEvent(eventType: string, data: Json, opts?: { timestamp?: number; secrets?: string[]; eventId?: string }): { id: string; body: Buffer; headers: Record<string, string> };
  close(): Promise<void>;
}

class PaddleHttpError extends Error {
  constructor(readonly status: number, readonly code: string, detail: string) {
    super(detail);
  }
}

const DAY_MS = 86_400_000;
const MONTH_MS = 30 * DAY_MS;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** A Paddle id: prefix, `_`, 26 lower-case letters or digits. */
const newId = (prefix: string) => `${prefix}_${[...randomBytes(26)].map((b) => ALPHABET[b % ALPHABET.length]).join('')}`;
const clone = <T>(v: T): T => structuredClone(v);
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Starts the fake (see the file comment). */
export async function startFakePaddle(opts: FakePaddleOptions): Promise<FakePaddle> {
  const entities = new Map<string, Json>();
  const requests: FakePaddleRequest[] = [];
  let injected: { status: number; code: string; detail: string } | null = null;
  let clockOffset = 0;
  const nowMs = () => Date.now() + clockOffset;
  const iso = (ms = nowMs()) => new Date(ms).toISOString();
  const defaultLink = opts.defaultPaymentLink ?? 'https://dewy.test/payment/paddle-checkout';

  const store = <T extends Json>(o: T): T => {
    entities.set(o.id as string, o);
    return o;
  };
  function must(id: string, prefix: string, label: string): Json {
    const o = entities.get(id);
    if (!o || !id.startsWith(`${prefix}_`)) throw new PaddleHttpError(404, 'not_found', `Entity ${label} ${id} not found`);
    return o;
  }
  function priceOf(id: unknown): FakePaddlePrice & { id: string } {
    const p = typeof id === 'string' ? opts.prices[id] : undefined;
    if (!p) throw new PaddleHttpError(400, 'transaction_price_not_found', `price ${String(id)} not found`);
    return { ...p, id: id as string };
  }
  const priceObject = (p: FakePaddlePrice & { id: string }) => ({
    id: p.id, product_id: 'pro_fake', type: 'standard', status: 'active',
    billing_cycle: p.recurring ? { interval: 'month', frequency: 1 } : null,
    unit_price: { amount: String(p.amount), currency_code: p.currency },
  });

  // ---------- transactions ----------
  interface Line { priceId: string; quantity: number; rate?: number; period?: { starts_at: string; ends_at: string } }
  function makeTransaction(t: { lines: Line[]; currency: string; origin: string; status: string; customerId: string | null; custom: Json | null; subscriptionId?: string | null; period?: { starts_at: string; ends_at: string } | null; checkoutUrl?: string | null }): Json {
    const id = newId('txn');
    const items = t.lines.map((l) => {
      const p = priceOf(l.priceId);
      return { price_id: p.id, price: priceObject(p), quantity: l.quantity, proration: l.rate === undefined ? null : { rate: String(Math.round(l.rate * 1e6) / 1e6), billing_period: l.period ?? null } };
    });
    const lineItems = t.lines.map((l) => {
      const p = priceOf(l.priceId);
      const total = Math.round(p.amount * l.quantity * (l.rate ?? 1));
      return { id: newId('txnitm'), price_id: p.id, quantity: l.quantity, proration: l.rate === undefined ? null : { rate: String(Math.round(l.rate * 1e6) / 1e6), billing_period: l.period ?? null }, tax_rate: '0', totals: { subtotal: String(total), discount: '0', tax: '0', total: String(total) } };
    });
    const sum = lineItems.reduce((s, l) => s + Number(l.totals.total), 0);
    const grand = Math.max(0, sum);
    return store({
      id, status: t.status, customer_id: t.customerId, address_id: null, business_id: null, custom_data: t.custom, currency_code: t.currency,
      origin: t.origin, subscription_id: t.subscriptionId ?? null, invoice_id: null, invoice_number: null, collection_mode: 'automatic',
      billing_details: null, billing_period: t.period ?? null, items,
      details: {
        tax_rates_used: [], line_items: lineItems,
        totals: { subtotal: String(sum), discount: '0', tax: '0', total: String(sum), credit: String(Math.max(0, -sum)), credit_to_balance: '0', balance: String(grand), grand_total: String(grand), fee: null, earnings: null, currency_code: t.currency },
      },
      payments: [] as Json[],
      checkout: { url: `${t.checkoutUrl ?? defaultLink}?_ptxn=${id}` },
      created_at: iso(), updated_at: iso(), billed_at: null as string | null,
    });
  }
  function pay(tx: Json, outcome: 'captured' | 'error', method: string, koreaLocal?: string) {
    const t = iso();
    (tx.payments as Json[]).unshift({
      payment_attempt_id: newId('pay'), stored_payment_method_id: newId('paymtd'), payment_method_id: newId('paymtd'),
      amount: (tx.details as Json & { totals: Json }).totals.grand_total, status: outcome, error_code: outcome === 'error' ? 'declined' : null,
      method_details: { type: method, card: null, underlying_details: koreaLocal ? { korea_local: { type: koreaLocal } } : null },
      created_at: t, captured_at: outcome === 'captured' ? t : null,
    });
    tx.updated_at = t;
  }

  // ---------- subscriptions ----------
  const itemOf = (sub: Json) => (sub.items as Json[])[0] as Json & { price: Json & { id: string } };
  const lastMethod = new Map<string, { method: string; koreaLocal?: string }>();
  function subscriptionItem(priceId: string) {
    const p = priceOf(priceId);
    return { status: 'active', quantity: 1, recurring: true, created_at: iso(), updated_at: iso(), previously_billed_at: iso(), next_billed_at: null as string | null, trial_dates: null, price: priceObject(p), product: { id: 'pro_fake', name: p.id } };
  }
  function updateSubscription(sub: Json, b: Json): Json {
    if (sub.status === 'canceled') throw new PaddleHttpError(400, 'subscription_update_when_canceled', 'cannot update subscription, as subscription is canceled');
    if ('scheduled_change' in b) {
      if (b.scheduled_change !== null) throw new PaddleHttpError(400, 'subscription_scheduled_change_invalid_update', 'You can only set the `scheduled_change` field to `null`. Other updates aren\'t allowed.');
      sub.scheduled_change = null;
    }
    if ('custom_data' in b) {
      if (b.custom_data !== null && !isObj(b.custom_data)) throw new PaddleHttpError(400, 'bad_request', 'custom_data must be an object');
      sub.custom_data = b.custom_data;
    }
    if ('items' in b) {
      if (sub.status === 'past_due') throw new PaddleHttpError(400, 'subscription_locked_past_due', 'cannot update items of a past_due subscription');
      const items = b.items;
      if (!Array.isArray(items) || items.length !== 1 || !isObj(items[0])) throw new PaddleHttpError(400, 'bad_request', 'the fake takes exactly one item');
      const mode = b.proration_billing_mode;
      if (mode !== 'prorated_immediately' && mode !== 'do_not_bill') throw new PaddleHttpError(400, 'bad_request', 'proration_billing_mode is required when changing items (the fake takes prorated_immediately or do_not_bill)');
      const newPrice = priceOf(items[0].price_id);
      const old = itemOf(sub).price.id;
      if (!newPrice.recurring || newPrice.currency !== sub.currency_code) throw new PaddleHttpError(400, 'subscription_invalid_price', 'price must be recurring and in the subscription currency');
      if (mode === 'prorated_immediately' && newPrice.id !== old) {
        const period = sub.current_billing_period as { starts_at: string; ends_at: string };
        const start = Date.parse(period.starts_at);
        const end = Date.parse(period.ends_at);
        const rate = Math.min(1, Math.max(0, (end - nowMs()) / (end - start)));
        const prorationPeriod = { starts_at: iso(), ends_at: period.ends_at };
        const tx = makeTransaction({
          lines: [{ priceId: newPrice.id, quantity: 1, rate, period: prorationPeriod }, { priceId: old, quantity: -1, rate, period: prorationPeriod }],
          currency: sub.currency_code as string, origin: 'subscription_update', status: 'completed', customerId: sub.customer_id as string,
          custom: (sub.custom_data as Json | null) ?? null, subscriptionId: sub.id as string, period: prorationPeriod,
        });
        const m = lastMethod.get(sub.id as string) ?? { method: 'card' };
        pay(tx, 'captured', m.method, m.koreaLocal);
        tx.billed_at = iso();
      }
      sub.items = [subscriptionItem(newPrice.id)];
    }
    sub.updated_at = iso();
    return sub;
  }
  function bill(sub: Json, outcome: 'captured' | 'error'): string | null {
    if (sub.status === 'canceled') throw new Error(`fake paddle: subscription ${String(sub.id)} is canceled`);
    const period = sub.current_billing_period as { starts_at: string; ends_at: string };
    const scheduled = sub.scheduled_change as { action: string } | null;
    if (scheduled?.action === 'cancel') {
      sub.status = 'canceled';
      sub.canceled_at = period.ends_at;
      sub.current_billing_period = null;
      sub.next_billed_at = null;
      sub.scheduled_change = null;
      sub.updated_at = iso();
      return null;
    }
    const next = { starts_at: period.ends_at, ends_at: iso(Date.parse(period.ends_at) + MONTH_MS) };
    sub.current_billing_period = next;
    sub.next_billed_at = next.ends_at;
    const tx = makeTransaction({
      lines: [{ priceId: itemOf(sub).price.id, quantity: 1 }], currency: sub.currency_code as string, origin: 'subscription_recurring',
      status: outcome === 'captured' ? 'completed' : 'past_due', customerId: sub.customer_id as string, custom: (sub.custom_data as Json | null) ?? null,
      subscriptionId: sub.id as string, period: next,
    });
    const m = lastMethod.get(sub.id as string) ?? { method: 'card' };
    pay(tx, outcome, m.method, m.koreaLocal);
    tx.billed_at = iso();
    sub.status = outcome === 'captured' ? 'active' : 'past_due';
    sub.updated_at = iso();
    return tx.id as string;
  }

  // ---------- adjustments ----------
  function makeRefund(tx: Json, status: 'pending_approval' | 'approved', reason: string): Json {
    if (tx.status !== 'completed' && tx.status !== 'paid') throw new PaddleHttpError(400, 'adjustment_transaction_invalid_status', `transaction ${String(tx.id)} is ${String(tx.status)}`);
    const total = (tx.details as { totals: { grand_total: string } }).totals.grand_total;
    const live = [...entities.values()].some((a) => String(a.id).startsWith('adj_') && a.transaction_id === tx.id && a.action === 'refund' && (a.status === 'approved' || a.status === 'pending_approval'));
    if (live) throw new PaddleHttpError(400, 'adjustment_total_amount_exceeded', 'the transaction is already refunded');
    return store({
      id: newId('adj'), action: 'refund', type: 'full', transaction_id: tx.id, subscription_id: tx.subscription_id ?? null, customer_id: tx.customer_id,
      reason, credit_applied_to_balance: null, currency_code: tx.currency_code, status, items: [],
      totals: { subtotal: total, tax: '0', total, fee: '0', earnings: '0', retained_fee: '0', currency_code: tx.currency_code },
      created_at: iso(), updated_at: iso(),
    });
  }

  // ---------- routes ----------
  type Handler = (m: RegExpExecArray, q: Record<string, string>, b: Json) => { status?: number; data: unknown; list?: boolean };
  const routes: Array<[string, RegExp, Handler]> = [
    ['GET', /^\/customers$/, (_m, q) => {
      const emails = (q.email ?? '').split(',').filter(Boolean).map((e) => e.toLowerCase());
      const data = [...entities.values()].filter((c) => String(c.id).startsWith('ctm_') && (!emails.length || emails.includes(String(c.email).toLowerCase())));
      return { data: data.map(clone), list: true };
    }],
    ['POST', /^\/customers$/, (_m, _q, b) => {
      const email = typeof b.email === 'string' ? b.email : '';
      if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new PaddleHttpError(400, 'bad_request', 'email is invalid');
      const known = [...entities.values()].find((c) => String(c.id).startsWith('ctm_') && String(c.email).toLowerCase() === email.toLowerCase());
      if (known) throw new PaddleHttpError(409, 'customer_already_exists', `customer email conflicts with customer of id ${String(known.id)}`);
      return { status: 201, data: clone(store({ id: newId('ctm'), email, name: null, status: 'active', custom_data: null, locale: 'en', created_at: iso(), updated_at: iso() })) };
    }],
    ['POST', /^\/transactions$/, (_m, _q, b) => {
      const items = b.items;
      if (!Array.isArray(items) || items.length === 0) throw new PaddleHttpError(400, 'bad_request', 'items are required');
      const lines = items.map((it: unknown) => {
        if (!isObj(it) || it.quantity !== 1) throw new PaddleHttpError(400, 'bad_request', 'each item needs price_id and quantity 1');
        return { priceId: priceOf(it.price_id).id, quantity: 1 };
      });
      const currency = typeof b.currency_code === 'string' ? b.currency_code : priceOf(lines[0]!.priceId).currency;
      for (const l of lines) if (priceOf(l.priceId).currency !== currency) throw new PaddleHttpError(400, 'transaction_price_different_currency', `price ${l.priceId} is not in ${currency}`);
      const customerId = typeof b.customer_id === 'string' ? b.customer_id : null;
      if (customerId) must(customerId, 'ctm', 'customer');
      if (b.custom_data !== undefined && b.custom_data !== null && !isObj(b.custom_data)) throw new PaddleHttpError(400, 'bad_request', 'custom_data must be an object');
      const checkoutUrl = isObj(b.checkout) && typeof b.checkout.url === 'string' ? b.checkout.url : null;
      const tx = makeTransaction({ lines, currency, origin: 'api', status: 'draft', customerId, custom: (b.custom_data as Json | undefined) ?? null, checkoutUrl });
      return { status: 201, data: clone(tx) };
    }],
    ['GET', /^\/transactions\/(txn_\w+)$/, (m) => ({ data: clone(must(m[1]!, 'txn', 'transaction')) })],
    ['GET', /^\/transactions\/(txn_\w+)\/invoice$/, (m) => {
      const tx = must(m[1]!, 'txn', 'transaction');
      if (tx.status !== 'completed') throw new PaddleHttpError(400, 'transaction_invoice_unavailable', 'invoice PDFs are available for completed transactions');
      return { data: { url: `https://paddle-invoices.example/${String(tx.id)}.pdf?expires=${nowMs() + 3_600_000}` } };
    }],
    ['GET', /^\/subscriptions\/(sub_\w+)$/, (m) => ({ data: clone(must(m[1]!, 'sub', 'subscription')) })],
    ['PATCH', /^\/subscriptions\/(sub_\w+)$/, (m, _q, b) => ({ data: clone(updateSubscription(must(m[1]!, 'sub', 'subscription'), b)) })],
    ['POST', /^\/subscriptions\/(sub_\w+)\/cancel$/, (m, _q, b) => {
      const sub = must(m[1]!, 'sub', 'subscription');
      if (sub.status === 'canceled') throw new PaddleHttpError(400, 'subscription_update_when_canceled', 'cannot update subscription, as subscription is canceled');
      const from = b.effective_from ?? 'next_billing_period';
      if (from === 'immediately') {
        sub.status = 'canceled';
        sub.canceled_at = iso();
        sub.current_billing_period = null;
        sub.next_billed_at = null;
        sub.scheduled_change = null;
      } else if (from === 'next_billing_period') {
        const period = sub.current_billing_period as { ends_at: string } | null;
        if (!period) throw new PaddleHttpError(400, 'subscription_is_not_active', 'subscription has no billing period');
        sub.scheduled_change = { action: 'cancel', effective_at: period.ends_at, resume_at: null };
      } else throw new PaddleHttpError(400, 'bad_request', 'effective_from is invalid');
      sub.updated_at = iso();
      return { data: clone(sub) };
    }],
    ['GET', /^\/subscriptions\/(sub_\w+)\/update-payment-method-transaction$/, (m) => {
      const sub = must(m[1]!, 'sub', 'subscription');
      if (sub.status === 'past_due') {
        const due = [...entities.values()].filter((t) => String(t.id).startsWith('txn_') && t.subscription_id === sub.id && t.status === 'past_due').at(-1);
        if (due) return { data: clone(due) };
      }
      if (sub.status === 'canceled') throw new PaddleHttpError(400, 'subscription_update_when_canceled', 'subscription is canceled');
      const tx = makeTransaction({ lines: [{ priceId: itemOf(sub).price.id, quantity: 1, rate: 0 }], currency: sub.currency_code as string, origin: 'subscription_payment_method_change', status: 'ready', customerId: sub.customer_id as string, custom: null, subscriptionId: sub.id as string });
      return { data: clone(tx) };
    }],
    ['GET', /^\/adjustments$/, (_m, q) => {
      const txIds = (q.transaction_id ?? '').split(',').filter(Boolean);
      const data = [...entities.values()].filter((a) => String(a.id).startsWith('adj_') && (!txIds.length || txIds.includes(a.transaction_id as string)) && (!q.action || a.action === q.action));
      return { data: data.map(clone), list: true };
    }],
    ['POST', /^\/adjustments$/, (_m, _q, b) => {
      if (b.action !== 'refund' || b.type !== 'full') throw new PaddleHttpError(400, 'bad_request', 'the fake takes full refunds only');
      if (typeof b.reason !== 'string' || !b.reason) throw new PaddleHttpError(400, 'bad_request', 'reason is required');
      const tx = must(String(b.transaction_id), 'txn', 'transaction');
      return { status: 201, data: clone(makeRefund(tx, 'pending_approval', b.reason)) };
    }],
  ];

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
    res.end(text);
  };
  const sendError = (res: ServerResponse, status: number, code: string, detail: string) =>
    send(res, status, { error: { type: status >= 500 ? 'api_error' : 'request_error', code, detail, documentation_url: `https://developer.paddle.com/v1/errors/shared/${code}` }, meta: { request_id: newId('req') } });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = null;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        requests.push({ method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: raw, headers: req.headers });
        return sendError(res, 400, 'bad_request', 'Invalid request body');
      }
    }
    const query = Object.fromEntries(url.searchParams);
    requests.push({ method, path: url.pathname, query, body, headers: req.headers });

    const auth = req.headers.authorization;
    if (!auth) return sendError(res, 403, 'authentication_missing', 'Authentication header missing.');
    if (auth !== `Bearer ${opts.apiKey}`) return sendError(res, 403, 'invalid_token', 'Invalid or revoked API key.');
    if (injected) {
      const e = injected;
      injected = null;
      return sendError(res, e.status, e.code, e.detail);
    }
    const route = routes.find(([m, re]) => m === method && re.test(url.pathname));
    if (!route) return sendError(res, 404, 'not_found', `${method} ${url.pathname} is not a route of the fake`);
    try {
      const out = route[2](route[1].exec(url.pathname)!, query, isObj(body) ? body : {});
      const meta: Json = { request_id: newId('req') };
      if (out.list) meta.pagination = { per_page: Number(query.per_page ?? 50), next: `${origin}${url.pathname}?after=last`, has_more: false, estimated_total: (out.data as unknown[]).length };
      send(res, out.status ?? 200, { data: out.data, meta });
    } catch (e) {
      if (!(e instanceof PaddleHttpError)) throw e;
      sendError(res, e.status, e.code, e.message);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => sendError(res, 500, 'internal_error', `fake paddle crashed: ${String(e)}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const tx = (id: string) => {
    const t = entities.get(id);
    if (!t || !id.startsWith('txn_')) throw new Error(`fake paddle: no transaction ${id}`);
    return t;
  };
  const subscription = (id: string) => {
    const s = entities.get(id);
    if (!s || !id.startsWith('sub_')) throw new Error(`fake paddle: no subscription ${id}`);
    return s;
  };

  return {
    origin,
    requests,
    requestsTo: (method, path) => requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path))),
    object(id) {
      const o = entities.get(id);
      if (!o) throw new Error(`fake paddle: no entity ${id}`);
      return clone(o);
    },
    transactionsOf: (subscriptionId) => [...entities.values()].filter((t) => String(t.id).startsWith('txn_') && t.subscription_id === subscriptionId).map((t) => t.id as string),
    failNext(status, code = status >= 500 ? 'internal_error' : 'bad_request', detail = `injected ${status}`) {
      injected = { status, code, detail };
    },
    completeCheckout(transactionId, o = {}) {
      const t = tx(transactionId);
      if (t.status === 'completed' || t.status === 'canceled') throw new Error(`fake paddle: transaction ${transactionId} is ${String(t.status)}`);
      const method = o.method ?? 'card';
      t.status = 'completed';
      t.billed_at = iso();
      pay(t, 'captured', method, o.koreaLocal);
      const first = (t.items as Array<{ price_id: string }>)[0]!;
      if (!priceOf(first.price_id).recurring) return { transactionId, subscriptionId: null };
      const period = { starts_at: iso(), ends_at: iso(nowMs() + MONTH_MS) };
      const sub = store({
        id: newId('sub'), status: 'active', customer_id: t.customer_id, address_id: newId('add'), business_id: null, currency_code: t.currency_code,
        created_at: iso(), updated_at: iso(), started_at: iso(), first_billed_at: iso(), next_billed_at: period.ends_at, paused_at: null, canceled_at: null as string | null,
        discount: null, collection_mode: 'automatic', billing_details: null, current_billing_period: period as typeof period | null, billing_cycle: { interval: 'month', frequency: 1 },
        scheduled_change: null as Json | null, management_urls: { update_payment_method: null, cancel: 'https://sandbox-customer-portal.paddle.com/cancel' },
        items: [subscriptionItem(first.price_id)], custom_data: t.custom_data ? clone(t.custom_data) : null,
      });
      lastMethod.set(sub.id, { method, koreaLocal: o.koreaLocal });
      t.subscription_id = sub.id;
      t.billing_period = period;
      return { transactionId, subscriptionId: sub.id };
    },
    declineCheckoutAttempt(transactionId, method = 'card') {
      const t = tx(transactionId);
      t.status = 'ready';
      pay(t, 'error', method);
    },
    renew: (id) => bill(subscription(id), 'captured'),
    failRenewal: (id) => bill(subscription(id), 'error'),
    refund(transactionId, o = {}) {
      return makeRefund(tx(transactionId), o.pending ? 'pending_approval' : 'approved', 'Refund requested by the customer').id as string;
    },
    approveAdjustment(adjustmentId) {
      const a = entities.get(adjustmentId);
      if (!a || a.status !== 'pending_approval') throw new Error(`fake paddle: adjustment ${adjustmentId} is not pending`);
      a.status = 'approved';
      a.updated_at = iso();
    },
    advanceClock(seconds) {
      if (!(seconds > 0)) throw new Error('fake paddle: the clock only moves forward');
      clockOffset += Math.round(seconds * 1000);
    },
    signedEvent(eventType, data, o = {}) {
      const id = o.eventId ?? newId('evt');
      const ts = o.timestamp ?? Math.floor(Date.now() / 1000);
      const body = Buffer.from(JSON.stringify({ event_id: id, event_type: eventType, occurred_at: iso(), notification_id: newId('ntf'), data }));
      const h1 = (o.secrets ?? [opts.webhookSecret]).map((secret) => `h1=${createHmac('sha256', secret).update(`${ts}:`).update(body).digest('hex')}`);
      return { id, body, headers: { 'paddle-signature': [`ts=${ts}`, ...h1].join(';'), 'content-type': 'application/json' } };
    },
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((e) => (e ? reject(e) : resolve()));
    }),
  };
}
