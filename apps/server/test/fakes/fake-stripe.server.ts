import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Stripe API for contract tests of the Stripe adapter (GUIDE §6): a small stateful HTTP server on
 * 127.0.0.1 (random port) speaking the subset of Stripe's v1 REST protocol the adapter uses. Point the
 * SDK at it with `baseUrl: fake.origin`.
 *
 * Protocol: form-encoded request bodies (and query strings) in Stripe's bracket notation
 * (`line_items[0][price]=…`, `metadata[user_id]=…`); `Authorization: Bearer <secret key>` required
 * (401 otherwise); JSON answers; errors as `{error: {type, message, code?, param?}}` with a 4xx/5xx
 * status; `expand[]` on retrieves (strict: expanding something that cannot be expanded is a 400, as at
 * Stripe); `Idempotency-Key` on POSTs replays the first answer.
 *
 *   POST /v1/checkout/sessions                      create (validates mode vs price, *_data vs mode, one currency
 *        for every line; `allowed_payment_method_types` and `locale` recorded on the session, see Currencies below)
 *   GET  /v1/checkout/sessions[?payment_intent=…]   list;  GET /v1/checkout/sessions/{id} (line_items includable)
 *   GET  /v1/subscriptions/{id};  POST /v1/subscriptions/{id}   items[].price, proration_behavior
 *        (always_invoice raises a prorated `subscription_update` invoice), cancel_at_period_end,
 *        cancel_at, metadata; cancellation changes on a schedule-driven subscription are refused (400)
 *   POST /v1/subscription_schedules {from_subscription};  GET|POST /v1/subscription_schedules/{id}
 *        (phases with start_date / end_date / duration, end_behavior);  POST …/{id}/release
 *   GET  /v1/invoices/{id} (payments includable; `hosted_invoice_url` on every invoice);  GET /v1/invoice_payments?invoice=…|payment[payment_intent]=…
 *   GET  /v1/payment_intents/{id};  GET /v1/charges/{id}
 *   DELETE /v1/subscriptions/{id}                   cancels now (status canceled, ended_at; a schedule with it)
 *   POST /v1/refunds {payment_intent|charge, amount?}  refunds (the rest of) the charge
 *
 * Time: a month is 30 days here (periods, schedule durations); the clock can be moved forward
 * (`advanceClock`), as a Stripe test clock. An upgrade with `proration_behavior: always_invoice` raises a
 * `subscription_update` invoice of two proration lines (`proration: true`): "Unused time on" the old price
 * (negative) and "Remaining time on" the new one, both over `period` = change time → period end, each
 * `round(unit amount × remaining / period)`, as Stripe computes them to the second. Objects are kept in the shapes of API
 * version 2026-10-28.endive (period bounds on subscription items, `invoice.parent.subscription_details`,
 * invoice payments). Test helpers below move the state as Stripe would (checkout completion, renewals,
 * failed renewals, refunds, the end of a subscription) and sign webhook events exactly like Stripe.
 *
 * Currencies and payment methods (issue 25): every price has a currency (`usd` unless it says
 * otherwise); sessions, subscriptions, invoices, payment intents, charges and refunds take the currency
 * of their price. Amounts are in the currency's minor unit as at Stripe: cents for USD, won for KRW (a
 * zero-decimal currency, https://docs.stripe.com/currencies#zero-decimal: no ×100). A subscription
 * refuses an item price in another currency (400), as Stripe does. A session's `payment_method_types`
 * is what Stripe's dynamic payment methods would offer — {@link FAKE_DASHBOARD_METHODS}, or the
 * session's `allowed_payment_method_types` — filtered to the methods compatible with the session
 * (https://docs.stripe.com/payments/kakao-pay/accept-a-payment and its siblings): the Korean methods
 * (`kr_card`, `kakao_pay`, `naver_pay`, `payco`, `samsung_pay`) only in `krw`, and `payco` /
 * `samsung_pay` never in subscription mode. Like Stripe's `allowed_payment_method_types` (a filter
 * that silently drops incompatible methods, changelog 2026-09-30.endive), an incompatible method in the
 * list is left out; a list that leaves nothing the session can take is refused with a 400 (the fake's
 * reading of "no method to offer"), an unknown type is a 400, and `payment_method_types`, removed from
 * Checkout Session creation in this API version, is refused with a 400. Payments are made with a
 * method (`completeCheckout(id, { method })`, default `card`) the session offers — a method it does
 * not offer cannot be paid with — and set `charge.payment_method_details.type` and `receipt_url`; a
 * subscription keeps that method as its default payment method and renews with it.
 */

// Stripe objects are plain JSON here.
type Json = Record<string, unknown>;

export interface FakeStripePrice {
  /** Unit amount in the currency's minor unit: cents for USD, won for KRW (zero-decimal). */
  amount: number;
  /** Recurring prices bill per interval (a month = 30 days); absent = one-time. */
  recurring?: { interval: 'day' | 'week' | 'month' | 'year'; interval_count?: number };
  /** Lower-case ISO 4217 code; `usd` when absent. */
  currency?: string;
}

/** Payment method types a payment in the fake can be made with (Stripe's PaymentMethod `type`). */
export const FAKE_PAYMENT_METHODS = ['card', 'kr_card', 'kakao_pay', 'naver_pay', 'payco', 'samsung_pay'] as const;
export type FakePaymentMethod = (typeof FAKE_PAYMENT_METHODS)[number];

/** What the fake's "Dashboard" has turned on: the methods a session without a filter may offer. */
export const FAKE_DASHBOARD_METHODS: readonly FakePaymentMethod[] = FAKE_PAYMENT_METHODS;

/** The South Korean methods: "Supported currencies: `krw`" (e.g. https://docs.stripe.com/payments/kakao-pay/accept-a-payment). */
const KOREAN_METHODS: readonly string[] = ['kr_card', 'kakao_pay', 'naver_pay', 'payco', 'samsung_pay'];
/** Korean methods Checkout refuses in subscription mode ("Subscription mode: No" in their docs). */
const ONE_TIME_ONLY_METHODS: readonly string[] = ['payco', 'samsung_pay'];

/** Whether Checkout can offer `method` in a session of `mode` billed in `currency`. */
export function methodFits(method: string, mode: 'payment' | 'subscription', currency: string): boolean {
  if (!(FAKE_PAYMENT_METHODS as readonly string[]).includes(method)) return false;
  if (KOREAN_METHODS.includes(method) && currency !== 'krw') return false;
  return !(mode === 'subscription' && ONE_TIME_ONLY_METHODS.includes(method));
}

export interface FakeStripeOptions {
  secretKey: string;
  webhookSecret: string;
  /** The prices the fake knows, by price id. */
  prices: Record<string, FakeStripePrice>;
}

/** One request as the fake received it (body and query parsed from the bracket notation). */
export interface FakeStripeRequest {
  method: string;
  path: string;
  query: Json;
  body: Json;
  headers: IncomingHttpHeaders;
}

export interface FakeStripe {
  /** `http://127.0.0.1:<port>`: the adapter's `baseUrl`. */
  origin: string;
  /** Every request received, in order (including refused ones). */
  requests: FakeStripeRequest[];
  /** Requests matching a method and a path (a string for an exact path, or a RegExp). */
  requestsTo(method: string, path: string | RegExp): FakeStripeRequest[];
  /** A deep copy of a stored object (session, subscription, schedule, invoice, payment intent, charge …). */
  object(id: string): Json;
  /** The next API request is answered with this error (and `Stripe-Should-Retry: false`). */
  failNext(status: number, type?: string, message?: string): void;

  /**
   * Completes an open Checkout Session as a paying customer would, paying with `method` (default
   * `card`; it must be one of the session's `payment_method_types`, else this throws: the customer could
   * not have picked it). Payment mode: a payment intent and a charge (`payment: 'processing'` leaves the
   * intent processing and the session unpaid, as an async method would). Subscription mode: a customer,
   * an active subscription (metadata from `subscription_data.metadata`, `method` as its default payment
   * method), its paid `subscription_create` invoice with intent, charge and invoice payment. Every
   * charge carries `payment_method_details.type` = `method` and a `receipt_url`.
   */
  completeCheckout(sessionId: string, opts?: { payment?: 'succeeded' | 'processing'; method?: FakePaymentMethod }): { subscriptionId: string | null; invoiceId: string | null; paymentIntentId: string | null; chargeId: string | null };
  /** The async payment of a completed session was declined (intent back to requires_payment_method). */
  failAsyncPayment(sessionId: string): void;
  /** The async payment of a completed session succeeded. */
  succeedAsyncPayment(sessionId: string): void;
  /** An open session expired unpaid. */
  expireCheckout(sessionId: string): void;
  /** Creates an active subscription directly (any known recurring price; paid by `method`, default card), as the dashboard could. */
  seedSubscription(priceId: string, metadata?: Record<string, string>, method?: FakePaymentMethod): string;
  /**
   * The period ends and the next one is billed (paid `subscription_cycle` invoice). Applies a schedule's
   * next phase, or releases / cancels the schedule after its last one; a subscription set to cancel at
   * the period end ends instead. @returns the new invoice id, or null when the subscription ended.
   */
  renew(subscriptionId: string): string | null;
  /** Like renew, but the payment is declined: the invoice stays open (attempted), the subscription goes past_due. */
  failRenewal(subscriptionId: string): string | null;
  /** Refunds (part of) the charge of a pack purchase. @returns the charge after the refund. */
  refundOrder(sessionId: string, amountMinor?: number): Json;
  /** Refunds (part of) the charge that paid an invoice. @returns the charge after the refund. */
  refundInvoice(invoiceId: string, amountMinor?: number): Json;
  markUncollectible(invoiceId: string): void;
  voidInvoice(invoiceId: string): void;
  /** Ends a subscription now (status canceled, ended_at); a schedule attached is canceled with it. */
  endSubscription(subscriptionId: string): void;
  /**
   * Moves the fake's clock `seconds` forward (as a Stripe test clock): prorations, new objects and
   * renewals read it. Period ends passed are not billed by themselves: call `renew`.
   */
  advanceClock(seconds: number): void;
  /**
   * A webhook delivery of `type` about `object`, signed like Stripe: `Stripe-Signature:
   * t=<unix>,v1=<hex HMAC-SHA256(webhookSecret, "<t>.<body>")>`. `timestamp` / `secret` override the
   * signing time and key (stale or forged deliveries).
   */
  signedEvent(type: string, object: Json, opts?: { timestamp?: number; secret?: string; id?: string }): { id: string; body: Buffer; headers: Record<string, string> };
  close(): Promise<void>;
}

class StripeHttpError extends Error {
  constructor(readonly status: number, message: string, readonly type = 'invalid_request_error', readonly code?: string, readonly param?: string) {
    super(message);
  }
}

const API_VERSION = '2026-10-28.endive';
const DAY = 86_400;
const FORBIDDEN_KEYS = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * Parses Stripe's form encoding (`a[b][0][c]=v`, as qs writes it) into nested objects; objects whose
 * keys are all indexes become arrays. Values stay strings, as on the wire.
 */
export function parseStripeForm(text: string): Json {
  const root: Json = {};
  const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
  for (const part of text.split('&')) {
    if (!part) continue;
    const eq = part.indexOf('=');
    const key = decode(eq < 0 ? part : part.slice(0, eq));
    const value = eq < 0 ? '' : decode(part.slice(eq + 1));
    const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    if (!m) continue;
    const path = [m[1] as string, ...[...(m[2] ?? '').matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1] as string)];
    if (path.some((p) => FORBIDDEN_KEYS.has(p))) continue;
    let cur: Json = root;
    path.forEach((seg, i) => {
      const k = seg === '' ? String(Object.keys(cur).length) : seg;
      if (i === path.length - 1) {
        cur[k] = value;
        return;
      }
      if (typeof cur[k] !== 'object' || cur[k] === null) cur[k] = {};
      cur = cur[k] as Json;
    });
  }
  const arrayify = (v: unknown): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    const o = v as Json;
    const keys = Object.keys(o);
    const out = Object.fromEntries(keys.map((k) => [k, arrayify(o[k])]));
    if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) return keys.sort((a, b) => Number(a) - Number(b)).map((k) => out[k]);
    return out;
  };
  return arrayify(root) as Json;
}

const clone = <T>(v: T): T => structuredClone(v);
const realNow = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (data: Json[], url: string): Json => ({ object: 'list', data, has_more: false, url });
const bool = (v: unknown, param: string): boolean => {
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw new StripeHttpError(400, `Invalid boolean: ${String(v)}`, 'invalid_request_error', 'parameter_invalid_boolean', param);
};
const int = (v: unknown, param: string): number => {
  if (typeof v === 'string' && /^\d+$/.test(v)) return Number(v);
  throw new StripeHttpError(400, `Invalid integer: ${String(v)}`, 'invalid_request_error', 'parameter_invalid_integer', param);
};

/** Starts the fake (see the file comment). */
export async function startFakeStripe(opts: FakeStripeOptions): Promise<FakeStripe> {
  const objects = new Map<string, Json>();
  const sessionLineItems = new Map<string, Json[]>();
  const sessionParams = new Map<string, { subscription_data?: Json; payment_intent_data?: Json }>();
  const idempotent = new Map<string, { status: number; body: Json }>();
  const requests: FakeStripeRequest[] = [];
  let injected: { status: number; type: string; message: string } | null = null;
  let origin = '';
  /** The fake's clock runs this many seconds ahead of real time (`advanceClock`, as a Stripe test clock). */
  let clockOffset = 0;
  const now = () => realNow() + clockOffset;

  const store = <T extends Json>(o: T): T => {
    objects.set(o.id as string, o);
    return o;
  };
  function must(id: string, object: string, label = object): Json {
    const o = objects.get(id);
    if (!o || o.object !== object) throw new StripeHttpError(404, `No such ${label}: '${id}'`, 'invalid_request_error', 'resource_missing', 'id');
    return o;
  }

  // ---------- prices ----------
  function priceObject(id: string): Json {
    const p = opts.prices[id];
    if (!p) throw new StripeHttpError(400, `No such price: '${id}'`, 'invalid_request_error', 'resource_missing', 'price');
    return {
      id,
      object: 'price',
      active: true,
      currency: p.currency ?? 'usd',
      unit_amount: p.amount,
      type: p.recurring ? 'recurring' : 'one_time',
      recurring: p.recurring ? { interval: p.recurring.interval, interval_count: p.recurring.interval_count ?? 1 } : null,
      product: 'prod_fake',
    };
  }
  function intervalSeconds(interval: unknown, count: number): number {
    const days = { day: 1, week: 7, month: 30, year: 365 }[String(interval) as 'day'] ?? 30;
    return days * DAY * count;
  }
  function periodSeconds(priceId: string): number {
    const r = opts.prices[priceId]?.recurring;
    return intervalSeconds(r?.interval ?? 'month', r?.interval_count ?? 1);
  }
  const amountOf = (priceId: string) => opts.prices[priceId]?.amount ?? 0;
  const currencyOfPrice = (priceId: string) => opts.prices[priceId]?.currency ?? 'usd';
  /** Stripe refuses an item price in another currency than the subscription's. */
  function sameCurrency(sub: Json, priceId: string, param: string): void {
    const c = currencyOfPrice(priceId);
    if (c !== sub.currency) throw new StripeHttpError(400, `The price specified only supports \`${c}\`. This doesn't match the expected currency: \`${String(sub.currency)}\`.`, 'invalid_request_error', undefined, param);
  }

  // ---------- payment methods ----------
  /** A payment method of `type` (what a customer paid with; a subscription's default). */
  function createPaymentMethod(type: FakePaymentMethod, customer: string | null): Json {
    return store({ id: newId('pm'), object: 'payment_method', type, [type]: {}, customer, created: now(), metadata: {} });
  }
  const methodTypeOf = (pmId: unknown): FakePaymentMethod => (typeof pmId === 'string' ? ((objects.get(pmId)?.type as FakePaymentMethod | undefined) ?? 'card') : 'card');

  // ---------- payments ----------
  function createPayment(amount: number, currency: string, metadata: Json, customer: string | null, outcome: 'succeeded' | 'processing' | 'failed', paymentMethod: string): { pi: Json; charge: Json | null } {
    const t = now();
    const pi = store({
      id: newId('pi'), object: 'payment_intent', amount, amount_received: outcome === 'succeeded' ? amount : 0, currency,
      customer, metadata: { ...metadata }, created: t, latest_charge: null as string | null, last_payment_error: null as Json | null,
      payment_method: paymentMethod, payment_method_types: [methodTypeOf(paymentMethod)],
      status: outcome === 'succeeded' ? 'succeeded' : outcome === 'processing' ? 'processing' : 'requires_payment_method',
    });
    if (outcome === 'processing') return { pi, charge: null };
    return { pi, charge: chargeIntent(pi, outcome) };
  }
  /** A charge of the intent's amount: succeeded (the intent succeeds) or declined. */
  function chargeIntent(pi: Json, outcome: 'succeeded' | 'failed'): Json {
    const amount = pi.amount as number;
    const type = methodTypeOf(pi.payment_method);
    const id = newId('ch');
    const charge = store({
      id, object: 'charge', amount, amount_captured: outcome === 'succeeded' ? amount : 0, amount_refunded: 0, refunded: false,
      captured: outcome === 'succeeded', paid: outcome === 'succeeded', status: outcome === 'succeeded' ? 'succeeded' : 'failed',
      currency: pi.currency, customer: pi.customer, metadata: { ...(pi.metadata as Json) }, payment_intent: pi.id, created: now(),
      failure_code: outcome === 'failed' ? 'card_declined' : null,
      payment_method: pi.payment_method, payment_method_details: { type, [type]: {} },
      // Stripe's receipt page of the charge (kept up to date with its refunds).
      receipt_url: `${origin}/receipts/payment/${id}`,
    });
    pi.latest_charge = charge.id;
    pi.status = outcome === 'succeeded' ? 'succeeded' : 'requires_payment_method';
    pi.amount_received = outcome === 'succeeded' ? amount : 0;
    pi.last_payment_error = outcome === 'failed' ? { type: 'card_error', code: 'card_declined', message: 'Your card was declined.', charge: charge.id } : null;
    return charge;
  }
  function refundCharge(charge: Json, amountMinor?: number): Json {
    const remaining = (charge.amount as number) - (charge.amount_refunded as number);
    const amount = amountMinor ?? remaining;
    if (charge.status !== 'succeeded' || amount <= 0 || amount > remaining) throw new Error(`fake stripe: cannot refund ${amount} of charge ${String(charge.id)}`);
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    return clone(charge);
  }

  // ---------- subscriptions, invoices ----------
  function createSubscription(priceId: string, metadata: Json, customer: string, paymentMethod: string): Json {
    const t = now();
    const id = newId('sub');
    const item = {
      id: newId('si'), object: 'subscription_item', price: priceObject(priceId), quantity: 1, subscription: id, created: t, metadata: {},
      current_period_start: t, current_period_end: t + periodSeconds(priceId),
    };
    return store({
      id, object: 'subscription', status: 'active', customer, currency: currencyOfPrice(priceId), collection_method: 'charge_automatically',
      default_payment_method: paymentMethod,
      metadata: { ...metadata }, cancel_at_period_end: false, cancel_at: null as number | null, canceled_at: null as number | null,
      ended_at: null as number | null, created: t, start_date: t, billing_cycle_anchor: t, schedule: null as string | null,
      latest_invoice: null as string | null, items: list([item], `/v1/subscription_items?subscription=${id}`),
    });
  }
  const itemOf = (sub: Json) => ((sub.items as Json).data as Json[])[0] as Json;
  const priceIdOf = (item: Json) => (item.price as Json).id as string;

  interface LineSpec { amount: number; priceId: string; start: number; end: number; proration: boolean }
  function createInvoice(sub: Json, reason: string, lines: LineSpec[], outcome: 'succeeded' | 'failed'): Json {
    const t = now();
    const id = newId('in');
    const total = lines.reduce((a, l) => a + l.amount, 0);
    const item = itemOf(sub);
    const paid = outcome === 'succeeded' || total <= 0;
    const inv = store({
      id, object: 'invoice', status: paid ? 'paid' : 'open', billing_reason: reason, customer: sub.customer, currency: sub.currency, created: t,
      amount_due: Math.max(total, 0), amount_paid: paid ? Math.max(total, 0) : 0, amount_remaining: paid ? 0 : total, total, subtotal: total,
      attempted: true, attempt_count: 1, next_payment_attempt: paid ? null : t + 3 * DAY,
      // The hosted invoice page (where the customer pays an open invoice with another card).
      hosted_invoice_url: `${origin}/i/${id}`,
      period_start: Math.min(...lines.map((l) => l.start)), period_end: Math.max(...lines.map((l) => l.end)),
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: sub.id, metadata: clone(sub.metadata) } },
      status_transitions: { paid_at: paid ? t : null, finalized_at: t, voided_at: null, marked_uncollectible_at: null },
      lines: list(lines.map((l) => ({
        id: newId('il'), object: 'line_item', amount: l.amount, currency: sub.currency, invoice: id, quantity: 1, metadata: {},
        description: l.proration ? `${l.amount < 0 ? 'Unused' : 'Remaining'} time on ${l.priceId}` : `1 × ${l.priceId}`,
        period: { start: l.start, end: l.end },
        pricing: { type: 'price_details', price_details: { price: l.priceId, product: 'prod_fake' }, unit_amount_decimal: String(amountOf(l.priceId)) },
        parent: {
          type: 'subscription_item_details', invoice_item_details: null,
          subscription_item_details: { subscription: sub.id, subscription_item: item.id, proration: l.proration, proration_details: null, invoice_item: null },
        },
        subscription: sub.id,
      })), `/v1/invoices/${id}/lines`),
    });
    sub.latest_invoice = id;
    if (total > 0) {
      const { pi } = createPayment(total, sub.currency as string, {}, sub.customer as string, outcome, sub.default_payment_method as string);
      store({
        id: newId('inpay'), object: 'invoice_payment', invoice: id, amount_requested: total, amount_paid: paid ? total : null, currency: sub.currency,
        status: paid ? 'paid' : 'open', is_default: true, created: t, payment: { type: 'payment_intent', payment_intent: pi.id },
        status_transitions: { paid_at: paid ? t : null, canceled_at: null },
      });
    }
    return inv;
  }
  const paymentsOf = (invoiceId: string) => [...objects.values()].filter((o) => o.object === 'invoice_payment' && o.invoice === invoiceId);

  function releaseSchedule(schedule: Json, at: number) {
    const sub = objects.get(schedule.subscription as string);
    schedule.status = 'released';
    schedule.released_at = at;
    schedule.released_subscription = schedule.subscription;
    schedule.current_phase = null;
    if (sub) sub.schedule = null;
  }
  function endSub(sub: Json, at: number) {
    sub.status = 'canceled';
    sub.ended_at = at;
    sub.canceled_at = sub.canceled_at ?? at;
    const schedule = sub.schedule ? objects.get(sub.schedule as string) : undefined;
    if (schedule) {
      schedule.status = 'canceled';
      schedule.canceled_at = at;
      schedule.current_phase = null;
      sub.schedule = null;
    }
  }

  /** Moves a subscription into its next period: schedule phases, scheduled cancels, then the invoice. */
  function advance(subscriptionId: string, outcome: 'succeeded' | 'failed'): string | null {
    const sub = must(subscriptionId, 'subscription');
    if (sub.status === 'canceled') throw new Error(`fake stripe: subscription ${subscriptionId} has ended`);
    const item = itemOf(sub);
    const boundary = item.current_period_end as number;
    if (sub.cancel_at_period_end || (sub.cancel_at !== null && (sub.cancel_at as number) <= boundary)) {
      endSub(sub, boundary);
      return null;
    }
    const schedule = sub.schedule ? objects.get(sub.schedule as string) : undefined;
    if (schedule) {
      const phase = (schedule.phases as Json[]).find((p) => (p.start_date as number) <= boundary && boundary < (p.end_date as number));
      if (phase) {
        const price = ((phase.items as Json[])[0] as Json).price as string;
        item.price = priceObject(price);
        if (isObj(phase.metadata)) sub.metadata = { ...(sub.metadata as Json), ...phase.metadata };
        schedule.current_phase = { start_date: phase.start_date, end_date: phase.end_date };
      } else if (schedule.end_behavior === 'cancel') {
        endSub(sub, boundary);
        return null;
      } else {
        releaseSchedule(schedule, boundary);
      }
    }
    const priceId = priceIdOf(item);
    item.current_period_start = boundary;
    item.current_period_end = boundary + periodSeconds(priceId);
    const inv = createInvoice(sub, 'subscription_cycle', [{ amount: amountOf(priceId), priceId, start: boundary, end: item.current_period_end as number, proration: false }], outcome);
    sub.status = outcome === 'succeeded' ? 'active' : 'past_due';
    return inv.id as string;
  }

  // ---------- expansion ----------
  function includable(target: Json, field: string): Json | undefined {
    if (target.object === 'checkout.session' && field === 'line_items') return list(clone(sessionLineItems.get(target.id as string) ?? []), `/v1/checkout/sessions/${String(target.id)}/line_items`);
    if (target.object === 'invoice' && field === 'payments') return list(clone(paymentsOf(target.id as string)), `/v1/invoice_payments?invoice=${String(target.id)}`);
    return undefined;
  }
  function expandPath(target: Json, segs: string[], full: string): void {
    const [head, ...rest] = segs;
    if (!head) return;
    if (!(head in target)) {
      const inc = includable(target, head);
      if (!inc) throw new StripeHttpError(400, `This property cannot be expanded (${full}).`, 'invalid_request_error', undefined, 'expand');
      target[head] = inc;
    }
    let v = target[head];
    if (typeof v === 'string') {
      const o = objects.get(v);
      if (!o) throw new StripeHttpError(400, `This property cannot be expanded (${full}).`, 'invalid_request_error', undefined, 'expand');
      v = clone(o);
      target[head] = v;
    } else if (v !== null && !isObj(v)) {
      throw new StripeHttpError(400, `This property cannot be expanded (${full}).`, 'invalid_request_error', undefined, 'expand');
    }
    if (!isObj(v) || rest.length === 0) return;
    if (v.object === 'list' && rest[0] === 'data') {
      for (const el of v.data as Json[]) expandPath(el, rest.slice(1), full);
      return;
    }
    expandPath(v, rest, full);
  }
  function render(o: Json, expand: unknown): Json {
    const out = clone(o);
    const paths = Array.isArray(expand) ? expand.filter((x): x is string => typeof x === 'string') : [];
    for (const p of paths) expandPath(out, p.split('.'), p);
    return out;
  }

  // ---------- handlers ----------
  function createSession(b: Json): Json {
    const mode = str(b.mode);
    if (mode !== 'payment' && mode !== 'subscription') throw new StripeHttpError(400, 'Missing required param: mode.', 'invalid_request_error', 'parameter_missing', 'mode');
    const items = Array.isArray(b.line_items) ? (b.line_items as Json[]) : [];
    if (items.length === 0) throw new StripeHttpError(400, 'Missing required param: line_items.', 'invalid_request_error', 'parameter_missing', 'line_items');
    if (!str(b.success_url)) throw new StripeHttpError(400, 'Missing required param: success_url.', 'invalid_request_error', 'parameter_missing', 'success_url');
    if (b.payment_intent_data !== undefined && mode !== 'payment') throw new StripeHttpError(400, `You can not pass \`payment_intent_data\` in \`${mode}\` mode.`, 'invalid_request_error', undefined, 'payment_intent_data');
    if (b.subscription_data !== undefined && mode !== 'subscription') throw new StripeHttpError(400, `You can not pass \`subscription_data\` in \`${mode}\` mode.`, 'invalid_request_error', undefined, 'subscription_data');
    // Removed from Checkout Session creation in 2026-09-30.endive (dynamic payment methods instead).
    if (b.payment_method_types !== undefined) throw new StripeHttpError(400, 'Received unknown parameter: payment_method_types. Use `allowed_payment_method_types` or dynamic payment methods instead.', 'invalid_request_error', 'payment_method_types_no_longer_supported', 'payment_method_types');
    if (b.allowed_payment_method_types !== undefined && b.excluded_payment_method_types !== undefined) {
      throw new StripeHttpError(400, 'You cannot pass both `allowed_payment_method_types` and `excluded_payment_method_types`.', 'invalid_request_error', undefined, 'allowed_payment_method_types');
    }
    const locale = b.locale === undefined ? null : str(b.locale);
    if (locale === undefined || (locale !== null && !/^(auto|[a-z]{2}(-[A-Z]{2})?)$/.test(locale))) throw new StripeHttpError(400, `Invalid locale: ${String(b.locale)}`, 'invalid_request_error', undefined, 'locale');
    const id = `cs_test_${randomBytes(16).toString('hex')}`;
    let total = 0;
    let currency: string | null = null;
    const lineItems = items.map((li, i) => {
      const price = priceObject(str(li.price) ?? '');
      const quantity = li.quantity === undefined ? 1 : int(li.quantity, `line_items[${i}][quantity]`);
      if (mode === 'subscription' && !price.recurring) throw new StripeHttpError(400, 'You must provide at least one recurring price in `subscription` mode when using prices.', 'invalid_request_error', undefined, 'line_items');
      if (mode === 'payment' && price.recurring) throw new StripeHttpError(400, 'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.', 'invalid_request_error', undefined, 'line_items');
      if (currency !== null && price.currency !== currency) throw new StripeHttpError(400, 'All line items of a Checkout Session must be in the same currency.', 'invalid_request_error', undefined, `line_items[${i}][price]`);
      currency = price.currency as string;
      const amount = (price.unit_amount as number) * quantity;
      total += amount;
      return { id: newId('li'), object: 'item', price, quantity, amount_subtotal: amount, amount_total: amount, currency, description: price.id };
    });
    const sessionCurrency = String((lineItems[0] as Json).currency);
    const methods = offeredMethods(b.allowed_payment_method_types, mode, sessionCurrency);
    const t = now();
    const session = store({
      id, object: 'checkout.session', mode, status: 'open', payment_status: 'unpaid', url: `${origin}/c/pay/${id}`,
      client_reference_id: str(b.client_reference_id) ?? null, customer_email: str(b.customer_email) ?? null, customer: null as string | null,
      metadata: isObj(b.metadata) ? b.metadata : {}, payment_intent: null as string | null, subscription: null as string | null,
      invoice: null as string | null, amount_subtotal: total, amount_total: total, currency: sessionCurrency, created: t, expires_at: t + DAY,
      success_url: b.success_url, cancel_url: str(b.cancel_url) ?? null, livemode: false, locale,
      allowed_payment_method_types: methods.allowed, payment_method_types: methods.offered,
    });
    sessionLineItems.set(id, lineItems);
    sessionParams.set(id, {
      subscription_data: isObj(b.subscription_data) ? b.subscription_data : undefined,
      payment_intent_data: isObj(b.payment_intent_data) ? b.payment_intent_data : undefined,
    });
    return session;
  }

  /**
   * What a session offers: the dashboard's methods, or `allowed_payment_method_types` (a filter on them),
   * less those the session cannot take. @throws 400 for an unknown type or when nothing is left.
   */
  function offeredMethods(raw: unknown, mode: 'payment' | 'subscription', currency: string): { allowed: string[] | null; offered: string[] } {
    let allowed: string[] | null = null;
    if (raw !== undefined) {
      if (!Array.isArray(raw) || raw.length === 0) throw new StripeHttpError(400, 'Invalid array', 'invalid_request_error', undefined, 'allowed_payment_method_types');
      allowed = raw.map((m, i) => {
        if (typeof m !== 'string' || !(FAKE_PAYMENT_METHODS as readonly string[]).includes(m)) {
          throw new StripeHttpError(400, `Invalid allowed_payment_method_types[${i}]: must be one of ${FAKE_PAYMENT_METHODS.join(', ')}`, 'invalid_request_error', undefined, `allowed_payment_method_types[${i}]`);
        }
        return m;
      });
    }
    const offered = (allowed ?? [...FAKE_DASHBOARD_METHODS]).filter((m) => methodFits(m, mode, currency));
    if (offered.length === 0) {
      throw new StripeHttpError(400, `None of the payment method types in \`allowed_payment_method_types\` (${(allowed ?? []).join(', ')}) can be used in \`${mode}\` mode with currency \`${currency}\`.`, 'invalid_request_error', undefined, 'allowed_payment_method_types');
    }
    return { allowed, offered };
  }

  function updateSubscription(sub: Json, b: Json): void {
    if (sub.status === 'canceled' && Object.keys(b).some((k) => k !== 'metadata' && k !== 'expand' && k !== 'cancellation_details')) {
      throw new StripeHttpError(400, 'A canceled subscription can only update its cancellation_details and metadata.');
    }
    if (sub.schedule && ('cancel_at_period_end' in b || 'cancel_at' in b)) {
      throw new StripeHttpError(400, `The subscription is managed by the subscription schedule \`${String(sub.schedule)}\`, and updating any cancelation behavior directly is not allowed. Please update the schedule instead.`);
    }
    const item = itemOf(sub);
    const proration = str(b.proration_behavior) ?? 'create_prorations';
    if (!['always_invoice', 'create_prorations', 'none'].includes(proration)) throw new StripeHttpError(400, `Invalid proration_behavior: ${proration}`, 'invalid_request_error', undefined, 'proration_behavior');
    if (b.items !== undefined) {
      if (!Array.isArray(b.items)) throw new StripeHttpError(400, 'Invalid array', 'invalid_request_error', undefined, 'items');
      for (const [i, change] of (b.items as Json[]).entries()) {
        if (str(change.id) !== item.id) throw new StripeHttpError(400, `No such subscription item: '${String(change.id)}'`, 'invalid_request_error', 'resource_missing', `items[${i}][id]`);
        const newPrice = str(change.price);
        if (!newPrice || newPrice === priceIdOf(item)) continue;
        const price = priceObject(newPrice);
        if (!price.recurring) throw new StripeHttpError(400, 'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', 'invalid_request_error', undefined, `items[${i}][price]`);
        sameCurrency(sub, newPrice, `items[${i}][price]`);
        const oldPrice = priceIdOf(item);
        item.price = price;
        if (proration === 'always_invoice') {
          const t = now();
          const start = item.current_period_start as number;
          const end = item.current_period_end as number;
          const f = Math.max(0, Math.min(1, (end - t) / (end - start)));
          createInvoice(sub, 'subscription_update', [
            { amount: -Math.round(amountOf(oldPrice) * f), priceId: oldPrice, start: t, end, proration: true },
            { amount: Math.round(amountOf(newPrice) * f), priceId: newPrice, start: t, end, proration: true },
          ], 'succeeded');
        }
      }
    }
    if ('cancel_at_period_end' in b) {
      const on = bool(b.cancel_at_period_end, 'cancel_at_period_end');
      sub.cancel_at_period_end = on;
      sub.cancel_at = on ? item.current_period_end : null;
      sub.canceled_at = on ? now() : null;
    }
    if ('cancel_at' in b) {
      sub.cancel_at = b.cancel_at === '' ? null : int(b.cancel_at, 'cancel_at');
      if (sub.cancel_at === null) sub.cancel_at_period_end = false;
      sub.canceled_at = sub.cancel_at === null ? null : now();
    }
    if (isObj(b.metadata)) {
      const md = { ...(sub.metadata as Json) };
      for (const [k, v] of Object.entries(b.metadata)) {
        if (v === '') delete md[k];
        else md[k] = v;
      }
      sub.metadata = md;
    }
  }

  function createSchedule(b: Json): Json {
    const subId = str(b.from_subscription);
    if (!subId) throw new StripeHttpError(400, 'Missing required param: from_subscription.', 'invalid_request_error', 'parameter_missing', 'from_subscription');
    const sub = must(subId, 'subscription');
    if (sub.status === 'canceled') throw new StripeHttpError(400, 'You cannot migrate a canceled subscription to a subscription schedule.', 'invalid_request_error', undefined, 'from_subscription');
    if (sub.schedule) throw new StripeHttpError(400, `You cannot migrate a subscription that is already attached to a schedule: \`${String(sub.schedule)}\`.`, 'invalid_request_error', undefined, 'from_subscription');
    const item = itemOf(sub);
    const start = item.current_period_start as number;
    const end = item.current_period_end as number;
    const schedule = store({
      id: newId('sub_sched'), object: 'subscription_schedule', status: 'active', subscription: sub.id, customer: sub.customer, created: now(),
      end_behavior: sub.cancel_at_period_end ? 'cancel' : 'release', current_phase: { start_date: start, end_date: end } as Json | null,
      phases: [{ start_date: start, end_date: end, items: [{ price: priceIdOf(item), quantity: 1, metadata: {} }], metadata: {}, proration_behavior: 'create_prorations' }],
      released_at: null, released_subscription: null, canceled_at: null, completed_at: null, metadata: {},
    });
    sub.schedule = schedule.id;
    return schedule;
  }

  function updateSchedule(schedule: Json, b: Json): void {
    if (schedule.status !== 'active' && schedule.status !== 'not_started') {
      throw new StripeHttpError(400, `You cannot update a subscription schedule that is currently in the \`${String(schedule.status)}\` status. It must be in one of the following statuses: \`not_started\`, \`active\`.`);
    }
    if (b.end_behavior !== undefined) {
      if (!['release', 'cancel', 'none', 'renew'].includes(String(b.end_behavior))) throw new StripeHttpError(400, `Invalid end_behavior: ${String(b.end_behavior)}`, 'invalid_request_error', undefined, 'end_behavior');
      schedule.end_behavior = b.end_behavior;
    }
    if (b.phases === undefined) return;
    if (!Array.isArray(b.phases) || b.phases.length === 0) throw new StripeHttpError(400, 'Invalid array', 'invalid_request_error', undefined, 'phases');
    const current = schedule.current_phase as Json | null;
    const phases: Json[] = [];
    let prevEnd: number | null = null;
    for (const [i, raw] of (b.phases as Json[]).entries()) {
      const items = Array.isArray(raw.items) ? (raw.items as Json[]) : [];
      if (items.length === 0) throw new StripeHttpError(400, 'Missing required param: phases[].items.', 'invalid_request_error', 'parameter_missing', `phases[${i}][items]`);
      const priceIds = items.map((it, j) => {
        const price = priceObject(str(it.price) ?? '');
        if (!price.recurring) throw new StripeHttpError(400, 'The price specified is set to `type=one_time` but this field only accepts prices with `type=recurring`.', 'invalid_request_error', undefined, `phases[${i}][items][${j}][price]`);
        const sub = objects.get(schedule.subscription as string);
        if (sub) sameCurrency(sub, price.id as string, `phases[${i}][items][${j}][price]`);
        return price.id as string;
      });
      let start: number;
      if (raw.start_date !== undefined) start = int(raw.start_date, `phases[${i}][start_date]`);
      else if (prevEnd !== null) start = prevEnd;
      else throw new StripeHttpError(400, 'The first phase must have a `start_date`.', 'invalid_request_error', undefined, `phases[${i}][start_date]`);
      if (i === 0 && current && start !== current.start_date) throw new StripeHttpError(400, 'You can not modify the start date of the current phase.', 'invalid_request_error', undefined, 'phases[0][start_date]');
      if (prevEnd !== null && start !== prevEnd) throw new StripeHttpError(400, 'Phases must be contiguous.', 'invalid_request_error', undefined, `phases[${i}][start_date]`);
      let end: number;
      if (raw.end_date !== undefined) end = int(raw.end_date, `phases[${i}][end_date]`);
      else if (isObj(raw.duration)) end = start + intervalSeconds(raw.duration.interval, raw.duration.interval_count === undefined ? 1 : int(raw.duration.interval_count, `phases[${i}][duration][interval_count]`));
      else if (i === b.phases.length - 1) end = start + periodSeconds(priceIds[0] as string);
      else throw new StripeHttpError(400, 'Every phase but the last needs an `end_date` or a `duration`.', 'invalid_request_error', undefined, `phases[${i}][end_date]`);
      if (end <= start) throw new StripeHttpError(400, 'A phase must end after it starts.', 'invalid_request_error', undefined, `phases[${i}][end_date]`);
      phases.push({
        start_date: start, end_date: end, metadata: isObj(raw.metadata) ? raw.metadata : {}, proration_behavior: str(raw.proration_behavior) ?? 'create_prorations',
        items: items.map((it, j) => ({ price: priceIds[j], quantity: it.quantity === undefined ? 1 : int(it.quantity, `phases[${i}][items][${j}][quantity]`), metadata: {} })),
      });
      prevEnd = end;
    }
    schedule.phases = phases;
    const first = phases[0] as Json;
    schedule.current_phase = { start_date: first.start_date, end_date: first.end_date };
  }

  type Handler = (m: RegExpExecArray, q: Json, b: Json) => Json;
  const routes: Array<[string, RegExp, Handler]> = [
    ['POST', /^\/v1\/checkout\/sessions$/, (_m, _q, b) => render(createSession(b), b.expand)],
    ['GET', /^\/v1\/checkout\/sessions$/, (_m, q) => {
      const pi = str(q.payment_intent);
      const sub = str(q.subscription);
      const data = [...objects.values()].filter((o) => o.object === 'checkout.session' && (!pi || o.payment_intent === pi) && (!sub || o.subscription === sub));
      const limit = q.limit === undefined ? 10 : int(q.limit, 'limit');
      return { ...list(data.slice(0, limit).map((o) => render(o, [])), '/v1/checkout/sessions'), has_more: data.length > limit };
    }],
    ['GET', /^\/v1\/checkout\/sessions\/([\w-]+)$/, (m, q) => render(must(m[1] as string, 'checkout.session', 'checkout.session'), q.expand)],
    ['GET', /^\/v1\/subscriptions\/(\w+)$/, (m, q) => render(must(m[1] as string, 'subscription'), q.expand)],
    ['POST', /^\/v1\/subscriptions\/(\w+)$/, (m, _q, b) => {
      const sub = must(m[1] as string, 'subscription');
      updateSubscription(sub, b);
      return render(sub, b.expand);
    }],
    ['DELETE', /^\/v1\/subscriptions\/(\w+)$/, (m, q) => {
      const sub = must(m[1] as string, 'subscription');
      if (sub.status === 'canceled') throw new StripeHttpError(400, `No such subscription: '${String(sub.id)}'`, 'invalid_request_error', 'resource_missing');
      endSub(sub, now());
      return render(sub, q.expand);
    }],
    ['POST', /^\/v1\/refunds$/, (_m, _q, b) => {
      const piId = str(b.payment_intent);
      const chargeId = str(b.charge);
      if (!piId && !chargeId) throw new StripeHttpError(400, 'One of `charge` or `payment_intent` is required.', 'invalid_request_error', 'parameter_missing');
      const charge = chargeId ? must(chargeId, 'charge') : chargeOfIntent(piId as string);
      const remaining = (charge.amount as number) - (charge.amount_refunded as number);
      const amount = b.amount === undefined ? remaining : int(b.amount, 'amount');
      if (amount <= 0 || amount > remaining) throw new StripeHttpError(400, `Charge ${String(charge.id)} has already been refunded.`, 'invalid_request_error', 'charge_already_refunded');
      refundCharge(charge, amount);
      return store({ id: newId('re'), object: 'refund', amount, charge: charge.id, payment_intent: charge.payment_intent, status: 'succeeded', currency: charge.currency, metadata: isObj(b.metadata) ? b.metadata : {}, created: now() });
    }],
    ['POST', /^\/v1\/subscription_schedules$/, (_m, _q, b) => render(createSchedule(b), b.expand)],
    ['GET', /^\/v1\/subscription_schedules\/(\w+)$/, (m, q) => render(must(m[1] as string, 'subscription_schedule'), q.expand)],
    ['POST', /^\/v1\/subscription_schedules\/(\w+)$/, (m, _q, b) => {
      const schedule = must(m[1] as string, 'subscription_schedule');
      updateSchedule(schedule, b);
      return render(schedule, b.expand);
    }],
    ['POST', /^\/v1\/subscription_schedules\/(\w+)\/release$/, (m, _q, b) => {
      const schedule = must(m[1] as string, 'subscription_schedule');
      if (schedule.status !== 'active' && schedule.status !== 'not_started') throw new StripeHttpError(400, `You cannot release a subscription schedule that is currently in the \`${String(schedule.status)}\` status.`);
      releaseSchedule(schedule, now());
      return render(schedule, b.expand);
    }],
    ['GET', /^\/v1\/invoices\/(\w+)$/, (m, q) => render(must(m[1] as string, 'invoice'), q.expand)],
    ['GET', /^\/v1\/invoice_payments$/, (_m, q) => {
      const invoice = str(q.invoice);
      const payment = isObj(q.payment) ? q.payment : null;
      if (payment && payment.type !== 'payment_intent' && payment.type !== 'payment_record') throw new StripeHttpError(400, 'Invalid payment[type]', 'invalid_request_error', undefined, 'payment[type]');
      const pi = payment ? str(payment.payment_intent) : undefined;
      const data = [...objects.values()].filter((o) => o.object === 'invoice_payment' && (!invoice || o.invoice === invoice) && (!pi || (o.payment as Json).payment_intent === pi));
      const limit = q.limit === undefined ? 10 : int(q.limit, 'limit');
      return { ...list(data.slice(0, limit).map((o) => render(o, q.expand)), '/v1/invoice_payments'), has_more: data.length > limit };
    }],
    ['GET', /^\/v1\/payment_intents\/(\w+)$/, (m, q) => render(must(m[1] as string, 'payment_intent'), q.expand)],
    ['GET', /^\/v1\/charges\/(\w+)$/, (m, q) => render(must(m[1] as string, 'charge'), q.expand)],
  ];

  const send = (res: ServerResponse, status: number, body: Json, extra: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Request-Id': newId('req'), 'Stripe-Version': API_VERSION, ...extra });
    res.end(text);
  };
  const sendError = (res: ServerResponse, e: StripeHttpError, extra: Record<string, string> = {}) => {
    const error: Json = { type: e.type, message: e.message };
    if (e.code) error.code = e.code;
    if (e.param) error.param = e.param;
    send(res, e.status, { error }, extra);
  };

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const raw = await readBody(req);
    const body = method === 'POST' ? parseStripeForm(raw) : {};
    const query = parseStripeForm(url.search.slice(1));
    requests.push({ method, path: url.pathname, query, body, headers: req.headers });

    const auth = req.headers.authorization ?? '';
    if (auth !== `Bearer ${opts.secretKey}`) {
      const given = auth.replace(/^Bearer\s+/i, '');
      const shown = given ? `${given.slice(0, 8)}${'*'.repeat(Math.max(0, given.length - 12))}${given.slice(-4)}` : '';
      return sendError(res, new StripeHttpError(401, given ? `Invalid API Key provided: ${shown}` : 'You did not provide an API key.'));
    }
    if (injected) {
      const e = injected;
      injected = null;
      return sendError(res, new StripeHttpError(e.status, e.message, e.type), { 'Stripe-Should-Retry': 'false' });
    }
    const key = method === 'POST' ? req.headers['idempotency-key'] : undefined;
    const idemKey = typeof key === 'string' ? `${url.pathname} ${key}` : null;
    const replay = idemKey ? idempotent.get(idemKey) : undefined;
    if (replay) return send(res, replay.status, clone(replay.body), { 'Idempotent-Replayed': 'true' });

    const route = routes.find(([m, re]) => m === method && re.test(url.pathname));
    if (!route) return sendError(res, new StripeHttpError(404, `Unrecognized request URL (${method}: ${url.pathname}).`));
    const match = route[1].exec(url.pathname) as RegExpExecArray;
    try {
      const out = route[2](match, query, body);
      if (idemKey) idempotent.set(idemKey, { status: 200, body: clone(out) });
      send(res, 200, out);
    } catch (e) {
      if (!(e instanceof StripeHttpError)) throw e;
      if (idemKey && e.status < 500) idempotent.set(idemKey, { status: e.status, body: { error: { type: e.type, message: e.message } } });
      sendError(res, e);
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => sendError(res, new StripeHttpError(500, `fake stripe crashed: ${String(e)}`, 'api_error')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // ---------- test helpers ----------
  function session(sessionId: string): Json {
    return must(sessionId, 'checkout.session', 'checkout.session');
  }
  function chargeOfIntent(piId: string): Json {
    const pi = must(piId, 'payment_intent');
    if (!pi.latest_charge) throw new Error(`fake stripe: payment intent ${piId} has no charge`);
    return must(pi.latest_charge as string, 'charge');
  }

  const fake: FakeStripe = {
    origin,
    requests,
    requestsTo: (method, path) => requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path))),
    object(id) {
      const o = objects.get(id);
      if (!o) throw new Error(`fake stripe: no object ${id}`);
      return clone(o);
    },
    failNext(status, type = status >= 500 ? 'api_error' : 'invalid_request_error', message = `injected ${status}`) {
      injected = { status, type, message };
    },

    completeCheckout(sessionId, o = {}) {
      const s = session(sessionId);
      if (s.status !== 'open') throw new Error(`fake stripe: session ${sessionId} is ${String(s.status)}`);
      const method = o.method ?? 'card';
      if (!(s.payment_method_types as string[]).includes(method)) {
        throw new Error(`fake stripe: session ${sessionId} (${String(s.mode)}, ${String(s.currency)}) does not offer ${method}; it offers ${(s.payment_method_types as string[]).join(', ')}`);
      }
      const customer = store({ id: newId('cus'), object: 'customer', email: s.customer_email, created: now(), metadata: {} });
      const pm = createPaymentMethod(method, customer.id);
      s.customer = customer.id;
      s.status = 'complete';
      const params = sessionParams.get(sessionId) ?? {};
      const line = (sessionLineItems.get(sessionId) ?? [])[0] as Json;
      const priceId = (line.price as Json).id as string;
      if (s.mode === 'payment') {
        const metadata = isObj(params.payment_intent_data?.metadata) ? params.payment_intent_data.metadata : {};
        const outcome = o.payment === 'processing' ? 'processing' : 'succeeded';
        const { pi, charge } = createPayment(s.amount_total as number, s.currency as string, metadata, customer.id, outcome, pm.id as string);
        s.payment_intent = pi.id;
        s.payment_status = outcome === 'succeeded' ? 'paid' : 'unpaid';
        return { subscriptionId: null, invoiceId: null, paymentIntentId: pi.id as string, chargeId: (charge?.id as string | undefined) ?? null };
      }
      const metadata = isObj(params.subscription_data?.metadata) ? params.subscription_data.metadata : {};
      const sub = createSubscription(priceId, metadata, customer.id, pm.id as string);
      const item = itemOf(sub);
      const inv = createInvoice(sub, 'subscription_create', [{ amount: amountOf(priceId), priceId, start: item.current_period_start as number, end: item.current_period_end as number, proration: false }], 'succeeded');
      s.subscription = sub.id;
      s.invoice = inv.id;
      s.payment_status = 'paid';
      const pay = paymentsOf(inv.id as string)[0];
      const piId = pay ? ((pay.payment as Json).payment_intent as string) : null;
      return { subscriptionId: sub.id as string, invoiceId: inv.id as string, paymentIntentId: piId, chargeId: piId ? (chargeOfIntent(piId).id as string) : null };
    },
    failAsyncPayment(sessionId) {
      const s = session(sessionId);
      const pi = must(s.payment_intent as string, 'payment_intent');
      pi.status = 'requires_payment_method';
      pi.last_payment_error = { type: 'card_error', code: 'payment_method_provider_decline', message: 'The payment was declined.' };
      s.payment_status = 'unpaid';
    },
    succeedAsyncPayment(sessionId) {
      const s = session(sessionId);
      const pi = must(s.payment_intent as string, 'payment_intent');
      chargeIntent(pi, 'succeeded');
      s.payment_status = 'paid';
    },
    expireCheckout(sessionId) {
      const s = session(sessionId);
      if (s.status !== 'open') throw new Error(`fake stripe: session ${sessionId} is ${String(s.status)}`);
      s.status = 'expired';
      s.url = null;
    },
    seedSubscription(priceId, metadata = {}, method = 'card') {
      const customer = store({ id: newId('cus'), object: 'customer', email: null, created: now(), metadata: {} });
      return createSubscription(priceId, metadata, customer.id, createPaymentMethod(method, customer.id).id as string).id as string;
    },
    renew: (subscriptionId) => advance(subscriptionId, 'succeeded'),
    failRenewal: (subscriptionId) => advance(subscriptionId, 'failed'),
    refundOrder(sessionId, amountMinor) {
      const s = session(sessionId);
      if (!s.payment_intent) throw new Error(`fake stripe: session ${sessionId} has no payment`);
      return refundCharge(chargeOfIntent(s.payment_intent as string), amountMinor);
    },
    refundInvoice(invoiceId, amountMinor) {
      must(invoiceId, 'invoice');
      const pay = paymentsOf(invoiceId).find((p) => p.status === 'paid');
      if (!pay) throw new Error(`fake stripe: invoice ${invoiceId} has no paid payment`);
      return refundCharge(chargeOfIntent((pay.payment as Json).payment_intent as string), amountMinor);
    },
    markUncollectible(invoiceId) {
      const inv = must(invoiceId, 'invoice');
      if (inv.status !== 'open') throw new Error(`fake stripe: invoice ${invoiceId} is ${String(inv.status)}`);
      inv.status = 'uncollectible';
      (inv.status_transitions as Json).marked_uncollectible_at = now();
    },
    voidInvoice(invoiceId) {
      const inv = must(invoiceId, 'invoice');
      if (inv.status !== 'open' && inv.status !== 'uncollectible') throw new Error(`fake stripe: invoice ${invoiceId} is ${String(inv.status)}`);
      inv.status = 'void';
      (inv.status_transitions as Json).voided_at = now();
      for (const p of paymentsOf(invoiceId)) if (p.status === 'open') p.status = 'canceled';
    },
    endSubscription(subscriptionId) {
      const sub = must(subscriptionId, 'subscription');
      if (sub.status === 'canceled') throw new Error(`fake stripe: subscription ${subscriptionId} has ended`);
      endSub(sub, now());
    },
    advanceClock(seconds) {
      if (!(seconds > 0)) throw new Error('fake stripe: the clock only moves forward');
      clockOffset += Math.round(seconds);
    },
    signedEvent(type, object, o = {}) {
      const id = o.id ?? newId('evt');
      // Deliveries are signed on real time, as a test clock's events are.
      const t = o.timestamp ?? realNow();
      const body = Buffer.from(JSON.stringify({
        id, object: 'event', api_version: API_VERSION, created: t, type, livemode: false, pending_webhooks: 1,
        request: { id: null, idempotency_key: null }, data: { object },
      }));
      const sig = createHmac('sha256', o.secret ?? opts.webhookSecret).update(`${t}.`).update(body).digest('hex');
      return { id, body, headers: { 'stripe-signature': `t=${t},v1=${sig}`, 'content-type': 'application/json; charset=utf-8' } };
    },
    close: () => new Promise<void>((resolve, reject) => {
      server.closeAllConnections();
      server.close((e) => (e ? reject(e) : resolve()));
    }),
  };
  return fake;
}
