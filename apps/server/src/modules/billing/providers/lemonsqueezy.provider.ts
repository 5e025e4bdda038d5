import { createHmac, timingSafeEqual } from 'node:crypto';
import { PACK_IDS, PAID_PLANS, type PackId, type PaidPlan } from '@dewy/contracts';
import type { PaymentsConfig } from '../../../config';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type CheckoutRequest,
  type InvoiceReason,
  type PaymentsProvider,
  type ProviderInvoice,
  type ProviderOrder,
  type ProviderSubscription,
  type ProviderSubscriptionStatus,
  type WebhookEvent,
  type WebhookObjectRef,
} from '../payments-provider';
import { singleHeader } from './vendor-http';
import {
  createLemonSqueezyClient,
  LsCheckoutAttributes,
  LsOrderAttributes,
  LsSubscriptionAttributes,
  LsSubscriptionInvoiceAttributes,
  parseResource,
  type LemonSqueezyClient,
  type LsRequestBody,
  type LsResource,
} from './lemonsqueezy.client';

/**
 * The Lemon Squeezy adapter of `PaymentsProvider` (decision 012). It speaks LS's JSON:API through the
 * thin client in `lemonsqueezy.client.ts` and maps LS objects onto the normalised ones:
 *
 * - checkout: `POST /v1/checkouts` (https://docs.lemonsqueezy.com/api/checkouts/create-checkout) with our
 *   user id and checkout id as `checkout_data.custom`, which LS hands back in every order / subscription
 *   webhook as `meta.custom_data` (LS's objects themselves never carry it, so every `userId` read from the
 *   API is null: the webhook supplies it).
 * - orders, subscriptions, subscription invoices: `GET /v1/{orders|subscriptions|subscription-invoices}/{id}`.
 * - plan changes: `PATCH /v1/subscriptions/{id}` (https://docs.lemonsqueezy.com/api/subscriptions/update-subscription);
 *   cancel: `DELETE /v1/subscriptions/{id}`; resume: `PATCH {cancelled: false}`.
 * - webhooks: `X-Signature` = hex HMAC-SHA256 of the raw body under the signing secret
 *   (https://docs.lemonsqueezy.com/help/webhooks/signing-requests).
 *
 * Periods. LS objects carry no period start and no billing interval (that lives on the variant); Dewy's
 * plans are monthly (contracts: "paid monthly plans"), so one interval = one calendar month (UTC, the day
 * clamped to the month's last day, as LS's `billing_anchor` does). See `subscriptionPeriod` and
 * `invoicePeriod` for what is derived and how.
 *
 * LS has no subscription schedules: a downgrade (`disable_prorations`) switches the subscription's
 * `variant_id` at once and only the price waits for the next renewal, so `getSubscription` reports the
 * new plan straight after the change and `nextPlan` is always null; the billing service keeps the
 * downgrade's display state itself.
 */

/** Optional knobs; the production caller passes the config only. */
export interface LemonSqueezyProviderOptions {
  /** Per-request timeout of API calls (default 15 s). */
  timeoutMs?: number;
}

const MONTH_INTERVAL = 1;
/** A renewal invoice may be stamped a little before the period boundary it opens. */
const PERIOD_EDGE_MS = 60 * 60 * 1000;

/**
 * Builds the Lemon Squeezy payments adapter.
 * @param cfg `PaymentsConfig['lemonsqueezy']`, already known to be complete (api key, store id, webhook
 *   signing secret, every variant id); `baseUrl` is the API origin (the fake's in tests).
 * @throws PaymentProviderError at once when a required setting is missing after all.
 */
export function createLemonSqueezyProvider(cfg: PaymentsConfig['lemonsqueezy'], opts: LemonSqueezyProviderOptions = {}): PaymentsProvider {
  const { apiKey, storeId, webhookSecret } = cfg;
  if (!apiKey || !storeId || !webhookSecret) throw new PaymentProviderError('Lemon Squeezy is not configured (api key, store id, webhook secret)');
  const variantOf = (item: PaidPlan | PackId): string => {
    const v = cfg.variants[item];
    if (!v) throw new PaymentProviderError(`Lemon Squeezy variant for "${item}" is not configured`);
    return v;
  };
  const planByVariant = new Map<string, PaidPlan>(PAID_PLANS.map((p) => [variantOf(p), p]));
  const packByVariant = new Map<string, PackId>(PACK_IDS.map((p) => [variantOf(p), p]));
  const client: LemonSqueezyClient = createLemonSqueezyClient({ apiKey, baseUrl: cfg.baseUrl, timeoutMs: opts.timeoutMs });

  function planOf(variantId: string | number, what: string): PaidPlan {
    const plan = planByVariant.get(String(variantId));
    if (!plan) throw new PaymentProviderError(`Lemon Squeezy ${what} has variant ${variantId}, which is not one of our plans`);
    return plan;
  }

  async function readSubscription(id: string): Promise<LsResource<LsSubscriptionAttributes>> {
    const { status, body } = await client.request('GET', `/v1/subscriptions/${encodeURIComponent(id)}`);
    return parseResource(body, 'subscriptions', LsSubscriptionAttributes, `subscription ${id}`, status);
  }

  async function patchSubscription(id: string, attributes: Record<string, unknown>): Promise<ProviderSubscription> {
    const body: LsRequestBody = { data: { type: 'subscriptions', id, attributes } };
    const res = await client.request('PATCH', `/v1/subscriptions/${encodeURIComponent(id)}`, body);
    parseResource(res.body, 'subscriptions', LsSubscriptionAttributes, `update of subscription ${id}`, res.status);
    return mapSubscription(await readSubscription(id), planOf);
  }

  return {
    name: 'lemonsqueezy',
    currencies: ['usd'],

    /**
     * `POST /v1/checkouts`: `checkout_data: {email, custom: {user_id, checkout_id}}` (custom values as
     * strings), `product_options.redirect_url` = `successUrl`, relationships store + variant. LS has no
     * cancel URL (the buyer just leaves the page), so `cancelUrl` is not sent.
     * @returns `{url: data.attributes.url, providerCheckoutId: data.id}` (a UUID).
     */
    async createCheckout(req: CheckoutRequest) {
      const variant = variantOf(req.item.kind === 'plan' ? req.item.plan : req.item.pack);
      const body: LsRequestBody = {
        data: {
          type: 'checkouts',
          attributes: {
            checkout_data: { email: req.email, custom: { user_id: String(req.userId), checkout_id: req.checkoutId } },
            product_options: { redirect_url: req.successUrl },
          },
          relationships: {
            store: { data: { type: 'stores', id: storeId } },
            variant: { data: { type: 'variants', id: variant } },
          },
        },
      };
      const res = await client.request('POST', '/v1/checkouts', body);
      const checkout = parseResource(res.body, 'checkouts', LsCheckoutAttributes, 'checkout', res.status);
      return { url: checkout.attributes.url, providerCheckoutId: checkout.id };
    },

    /**
     * Upgrade (`now`): `{variant_id, invoice_immediately: true, cancelled: false}`: LS switches the plan
     * and charges the prorated difference at once (a `billing_reason: updated` invoice).
     * Downgrade (`next_cycle`): `{variant_id, disable_prorations: true, cancelled: false}`: no charge now,
     * the next renewal bills the new variant's price (LS applies the variant itself at once; see the file
     * comment). `cancelled: false` in both clears a scheduled cancellation, as the interface asks.
     * @returns the subscription re-read after the change.
     */
    async changePlan(subscriptionId, plan, timing) {
      const variantId = lsId(variantOf(plan));
      const attributes =
        timing === 'now'
          ? { variant_id: variantId, invoice_immediately: true, cancelled: false }
          : { variant_id: variantId, disable_prorations: true, cancelled: false };
      return patchSubscription(subscriptionId, attributes);
    },

    /**
     * Withdraws a scheduled downgrade. LS has no schedules: the downgrade already switched the variant
     * (only the price waits for the renewal), so the variant is switched back to `currentPlan`'s with
     * `disable_prorations: true`: no charge now, and the next renewal bills `currentPlan` again
     * (https://docs.lemonsqueezy.com/api/subscriptions/update-subscription). @returns it re-read.
     */
    async withdrawScheduledChange(subscriptionId, currentPlan) {
      const sub = await readSubscription(subscriptionId);
      if (String(sub.attributes.variant_id) === variantOf(currentPlan)) return mapSubscription(sub, planOf);
      return patchSubscription(subscriptionId, { variant_id: lsId(variantOf(currentPlan)), disable_prorations: true });
    },

    /**
     * LS's signed page where the customer updates the card of a subscription
     * (`data.attributes.urls.update_payment_method` of `GET /v1/subscriptions/{id}`, valid for a limited
     * time, so it is read fresh each time); null when LS gives none.
     */
    async updatePaymentUrl(subscriptionId) {
      const sub = await readSubscription(subscriptionId);
      return sub.attributes.urls?.update_payment_method ?? null;
    },

    /** `DELETE /v1/subscriptions/{id}`: LS marks it `cancelled`, running until `ends_at`. @returns it re-read. */
    async cancel(subscriptionId) {
      const res = await client.request('DELETE', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`);
      parseResource(res.body, 'subscriptions', LsSubscriptionAttributes, `cancel of subscription ${subscriptionId}`, res.status);
      return mapSubscription(await readSubscription(subscriptionId), planOf);
    },

    /**
     * LS's API has no immediate end of a subscription: `DELETE /v1/subscriptions/{id}` cancels it and it
     * runs out at `ends_at` without renewing (decision 029; its invoice is refunded with
     * `refundInvoice`). A no-op when it is already cancelled or expired.
     */
    async cancelNow(subscriptionId) {
      const sub = await readSubscription(subscriptionId);
      if (sub.attributes.status === 'cancelled' || sub.attributes.status === 'expired') return;
      const res = await client.request('DELETE', `/v1/subscriptions/${encodeURIComponent(subscriptionId)}`);
      parseResource(res.body, 'subscriptions', LsSubscriptionAttributes, `cancel of subscription ${subscriptionId}`, res.status);
    },

    /**
     * `POST /v1/subscription-invoices/{id}/refund` without an amount: LS refunds what is left of it
     * (https://docs.lemonsqueezy.com/api/subscription-invoices/issue-refund). A no-op when the invoice
     * is not paid or already refunded in full.
     */
    async refundInvoice(invoiceId) {
      const path = `/v1/subscription-invoices/${encodeURIComponent(invoiceId)}`;
      const cur = await client.request('GET', path);
      const inv = parseResource(cur.body, 'subscription-invoices', LsSubscriptionInvoiceAttributes, `subscription invoice ${invoiceId}`, cur.status);
      if (inv.attributes.status !== 'paid' && inv.attributes.status !== 'partial_refund') return;
      const body: LsRequestBody = { data: { type: 'subscription-invoices', id: invoiceId, attributes: {} } };
      const res = await client.request('POST', `${path}/refund`, body);
      parseResource(res.body, 'subscription-invoices', LsSubscriptionInvoiceAttributes, `refund of subscription invoice ${invoiceId}`, res.status);
    },

    /** `PATCH /v1/subscriptions/{id}` with `{cancelled: false}` (allowed until `ends_at`). @returns it re-read. */
    async resume(subscriptionId) {
      return patchSubscription(subscriptionId, { cancelled: false });
    },

    /** `GET /v1/subscriptions/{id}` mapped by `mapSubscription`. */
    async getSubscription(id) {
      return mapSubscription(await readSubscription(id), planOf);
    },

    /**
     * `GET /v1/subscription-invoices/{id}`, then `GET /v1/subscriptions/{subscription_id}` for the plan
     * (an LS invoice names no variant: the plan is the subscription's current one, right for the event
     * being handled, not for an invoice read long after a later plan change) and for the period.
     */
    async getInvoice(id) {
      const res = await client.request('GET', `/v1/subscription-invoices/${encodeURIComponent(id)}`);
      const inv = parseResource(res.body, 'subscription-invoices', LsSubscriptionInvoiceAttributes, `subscription invoice ${id}`, res.status);
      const sub = mapSubscription(await readSubscription(String(inv.attributes.subscription_id)), planOf);
      return mapInvoice(inv, sub);
    },

    /**
     * `GET /v1/orders/{id}`. The pack comes from `first_order_item.variant_id`.
     * @throws PaymentProviderError when the variant is not one of our packs (also for the order LS raises
     *   for a subscription's first payment: that purchase is read through the subscription and invoice).
     */
    async getOrder(id) {
      const res = await client.request('GET', `/v1/orders/${encodeURIComponent(id)}`);
      const order = parseResource(res.body, 'orders', LsOrderAttributes, `order ${id}`, res.status);
      const variant = order.attributes.first_order_item?.variant_id;
      const pack = variant === undefined ? undefined : packByVariant.get(String(variant));
      if (!pack) {
        const why = variant !== undefined && planByVariant.has(String(variant)) ? 'a subscription plan, not a pack' : 'not one of our packs';
        throw new PaymentProviderError(`Lemon Squeezy order ${id} has variant ${variant ?? '(none)'}, ${why}`);
      }
      return mapOrder(order, pack);
    },

    /**
     * Verifies `X-Signature` (hex HMAC-SHA256 of the exact raw bytes under the signing secret, compared
     * with `timingSafeEqual`) and parses the LS webhook body `{meta: {event_name, custom_data}, data}`.
     * Key: `${event_name}:${data.type}:${data.id}:${data.attributes.updated_at}` (LS sends no event id;
     * a redelivery carries the same body, a new change a new `updated_at`). Objects:
     * `order_created` / `order_refunded` → order (null when the order is a subscription's first payment,
     * i.e. its variant is a plan: `subscription_created` and `subscription_payment_success` carry that);
     * `subscription_*` state events → subscription; `subscription_payment_*` → invoice (`data` is a
     * subscription-invoice); anything else → null.
     * @throws WebhookSignatureError when the header is missing, malformed or does not match;
     *   PaymentProviderError when the signed body is not an LS event we understand.
     */
    async parseWebhook(rawBody, headers) {
      verifySignature(rawBody, header(headers, 'x-signature'), webhookSecret);
      return parseEvent(rawBody, header(headers, 'x-event-name'), planByVariant);
    },
  };
}

/** LS ids are integers; the config holds them as strings. */
function lsId(id: string): number | string {
  return /^\d+$/.test(id) ? Number(id) : id;
}

const header = singleHeader;

function verifySignature(rawBody: Buffer, signature: string | undefined, secret: string): void {
  if (!signature) throw new WebhookSignatureError('missing X-Signature header');
  if (!/^[0-9a-f]{64}$/i.test(signature.trim())) throw new WebhookSignatureError('malformed X-Signature header');
  const given = Buffer.from(signature.trim(), 'hex');
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new WebhookSignatureError();
}

const SUBSCRIPTION_EVENTS = new Set([
  'subscription_created',
  'subscription_updated',
  'subscription_cancelled',
  'subscription_resumed',
  'subscription_expired',
  'subscription_paused',
  'subscription_unpaused',
  'subscription_plan_changed',
]);
const INVOICE_EVENTS = new Set([
  'subscription_payment_success',
  'subscription_payment_failed',
  'subscription_payment_recovered',
  'subscription_payment_refunded',
]);
const ORDER_EVENTS = new Set(['order_created', 'order_refunded']);

function parseEvent(rawBody: Buffer, eventHeader: string | undefined, planByVariant: Map<string, PaidPlan>): WebhookEvent {
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody.toString('utf8'));
  } catch {
    throw new PaymentProviderError('Lemon Squeezy webhook body is not JSON');
  }
  const p = (payload ?? {}) as { meta?: { event_name?: unknown; custom_data?: unknown }; data?: { type?: unknown; id?: unknown; attributes?: unknown } };
  const type = p.meta?.event_name;
  const data = p.data;
  if (typeof type !== 'string' || !type || typeof data?.type !== 'string' || typeof data.id !== 'string' || !data.id) {
    throw new PaymentProviderError('Lemon Squeezy webhook body lacks meta.event_name or data.type / data.id');
  }
  if (eventHeader !== undefined && eventHeader !== type) {
    throw new PaymentProviderError(`Lemon Squeezy webhook X-Event-Name "${eventHeader}" disagrees with the signed body ("${type}")`);
  }
  const attributes = (typeof data.attributes === 'object' && data.attributes !== null ? data.attributes : {}) as Record<string, unknown>;

  const expect = (resourceType: string, kind: WebhookObjectRef['kind']): WebhookObjectRef => {
    if (data.type !== resourceType) throw new PaymentProviderError(`Lemon Squeezy webhook ${type} carries a "${String(data.type)}", not "${resourceType}"`);
    return { kind, id: data.id as string };
  };
  let object: WebhookObjectRef | null = null;
  if (ORDER_EVENTS.has(type)) {
    const item = attributes.first_order_item as { variant_id?: unknown } | null | undefined;
    const isPlanOrder = item?.variant_id !== undefined && planByVariant.has(String(item.variant_id));
    object = isPlanOrder ? null : expect('orders', 'order');
  } else if (SUBSCRIPTION_EVENTS.has(type)) object = expect('subscriptions', 'subscription');
  else if (INVOICE_EVENTS.has(type)) object = expect('subscription-invoices', 'invoice');

  const updatedAt = attributes.updated_at;
  if (typeof updatedAt !== 'string' || !updatedAt) {
    if (object) throw new PaymentProviderError(`Lemon Squeezy webhook ${type} for ${data.type} ${data.id} has no updated_at`);
  }
  const key = `${type}:${data.type}:${data.id}:${typeof updatedAt === 'string' ? updatedAt : ''}`;

  const custom = p.meta?.custom_data;
  if (custom !== undefined && custom !== null && (typeof custom !== 'object' || Array.isArray(custom))) {
    throw new PaymentProviderError('Lemon Squeezy webhook meta.custom_data is not an object');
  }
  const c = (custom ?? {}) as { user_id?: unknown; checkout_id?: unknown };
  return { key, type, object, userId: userIdOf(c.user_id), checkoutId: checkoutIdOf(c.checkout_id) };
}

/** `custom_data.user_id`: a positive integer (we send it as a string); absent / null → null. */
function userIdOf(v: unknown): number | null {
  if (v === undefined || v === null) return null;
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s === 'string' && /^[1-9]\d{0,15}$/.test(s) && Number.isSafeInteger(Number(s))) return Number(s);
  throw new PaymentProviderError('Lemon Squeezy webhook custom_data.user_id is not a positive integer');
}

function checkoutIdOf(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'string' && v.length > 0 && v.length <= 200) return v;
  throw new PaymentProviderError('Lemon Squeezy webhook custom_data.checkout_id is not a string');
}

const ORDER_STATUS: Record<string, ProviderOrder['status']> = {
  pending: 'pending',
  failed: 'failed',
  paid: 'paid',
  refunded: 'refunded',
  partial_refund: 'refunded',
};

function mapOrder(order: LsResource<LsOrderAttributes>, pack: PackId): ProviderOrder {
  const a = order.attributes;
  const status = ORDER_STATUS[a.status];
  if (!status) throw new PaymentProviderError(`Lemon Squeezy order ${order.id} has unknown status "${a.status}"`);
  return {
    id: order.id,
    userId: null,
    pack,
    status,
    amountMinor: a.total,
    refundedMinor: refundedMinor(a.status, a.total, a.refunded_amount),
    createdAt: new Date(a.created_at),
    currency: currencyOf(a.currency, `order ${order.id}`),
    method: null,
    receiptUrl: a.urls?.receipt ?? null,
  };
}

/**
 * LS's ISO 4217 code as ours. Dewy sells through Lemon Squeezy in dollars only (issue 25); an object in
 * another currency is refused rather than booked as dollars. Absent (older objects): USD.
 */
function currencyOf(code: string | null | undefined, what: string): 'usd' {
  if (!code || code.toUpperCase() === 'USD') return 'usd';
  throw new PaymentProviderError(`Lemon Squeezy ${what} is in ${code}; the store must sell in USD`);
}

/** Full refund without an amount (older objects) = the total; otherwise LS's `refunded_amount`. */
function refundedMinor(status: string, total: number, refunded: number | null | undefined): number {
  if (status === 'refunded') return refunded ? refunded : total;
  return refunded ?? 0;
}

const SUBSCRIPTION_STATUS: Record<string, ProviderSubscriptionStatus> = {
  on_trial: 'trialing',
  active: 'active',
  paused: 'paused',
  past_due: 'past_due',
  unpaid: 'unpaid',
  cancelled: 'active',
  expired: 'expired',
};

/**
 * LS subscription → `ProviderSubscription`. `cancelled` (cancelled, running until `ends_at`) → status
 * `active`, `cancelAtPeriodEnd`, period end `ends_at`; `expired` → period end = `endedAt` = `ends_at`;
 * otherwise the period ends at `renews_at` (for `past_due`, LS's next retry) or, lacking it, at
 * `trial_ends_at`. The period start is the end minus one monthly interval, never before `created_at`
 * (so a trial or a first short period starts when the subscription did).
 */
function mapSubscription(sub: LsResource<LsSubscriptionAttributes>, planOf: (v: string | number, what: string) => PaidPlan): ProviderSubscription {
  const a = sub.attributes;
  const status = SUBSCRIPTION_STATUS[a.status];
  if (!status) throw new PaymentProviderError(`Lemon Squeezy subscription ${sub.id} has unknown status "${a.status}"`);
  const ending = a.status === 'cancelled' || a.status === 'expired';
  const endIso = ending ? a.ends_at : (a.renews_at ?? a.trial_ends_at ?? null);
  if (!endIso) throw new PaymentProviderError(`Lemon Squeezy subscription ${sub.id} (${a.status}) has no ${ending ? 'ends_at' : 'renews_at'}`);
  const createdAt = new Date(a.created_at);
  const currentPeriodEnd = new Date(endIso);
  const start = addMonthsUtc(currentPeriodEnd, -MONTH_INTERVAL);
  return {
    id: sub.id,
    userId: null,
    plan: planOf(a.variant_id, `subscription ${sub.id}`),
    nextPlan: null,
    status,
    currentPeriodStart: start < createdAt ? createdAt : start,
    currentPeriodEnd,
    cancelAtPeriodEnd: a.status === 'cancelled',
    endedAt: a.status === 'expired' ? currentPeriodEnd : null,
    createdAt,
    currency: 'usd',
  };
}

const INVOICE_STATUS: Record<string, ProviderInvoice['status']> = {
  paid: 'paid',
  pending: 'open',
  void: 'void',
  refunded: 'refunded',
  partial_refund: 'refunded',
};
const INVOICE_REASON: Record<string, InvoiceReason> = { initial: 'initial', renewal: 'renewal', updated: 'upgrade' };

/**
 * LS subscription invoice → `ProviderInvoice`. LS never reports `failed` on an invoice: a failed
 * renewal stays `pending` (→ `open`) while the subscription goes `past_due`. The period is the best
 * available (an LS invoice has none): it starts at the invoice's `created_at`; it ends at the
 * subscription's current period end when the invoice belongs to the current period (within an hour of
 * its derived start, or later), else one monthly interval after `created_at`.
 */
function mapInvoice(inv: LsResource<LsSubscriptionInvoiceAttributes>, sub: ProviderSubscription): ProviderInvoice {
  const a = inv.attributes;
  const status = INVOICE_STATUS[a.status];
  if (!status) throw new PaymentProviderError(`Lemon Squeezy subscription invoice ${inv.id} has unknown status "${a.status}"`);
  const createdAt = new Date(a.created_at);
  const reason = INVOICE_REASON[a.billing_reason] ?? 'other';
  return {
    id: inv.id,
    subscriptionId: sub.id,
    userId: null,
    status,
    reason,
    plan: sub.plan,
    ...invoicePeriod(createdAt, sub),
    amountMinor: a.total,
    refundedMinor: refundedMinor(a.status, a.total, a.refunded_amount),
    createdAt,
    // An LS invoice carries no period and no line items: for a plan change only the amount charged
    // for the difference (its subtotal: before discount and tax) says how much of the period was
    // prorated; `chargedFraction` sets it against the two plans' list prices (decision 028).
    proration: reason === 'upgrade' ? { chargedMinor: a.subtotal ?? a.total } : null,
    currency: currencyOf(a.currency, `subscription invoice ${inv.id}`),
    method: a.card_brand ? 'card' : null,
    receiptUrl: a.urls?.invoice_url ?? null,
  };
}

function invoicePeriod(createdAt: Date, sub: ProviderSubscription): { periodStart: Date; periodEnd: Date } {
  const inCurrent = createdAt.getTime() >= sub.currentPeriodStart.getTime() - PERIOD_EDGE_MS && createdAt < sub.currentPeriodEnd;
  return { periodStart: createdAt, periodEnd: inCurrent ? sub.currentPeriodEnd : addMonthsUtc(createdAt, MONTH_INTERVAL) };
}

/** `d` moved by `months` calendar months in UTC, the day clamped to the target month's last day. */
export function addMonthsUtc(d: Date, months: number): Date {
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), lastDay), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds()));
}
