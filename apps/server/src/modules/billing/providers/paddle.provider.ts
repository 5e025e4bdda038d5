import { createHmac, timingSafeEqual } from 'node:crypto';
import { CURRENCIES, PACK_IDS, PAID_PLANS, type Currency, type PackId, type PaidPlan } from '@dewy/contracts';
import type { PaymentsConfig } from '../../../config';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type CheckoutRequest,
  type InvoiceReason,
  type PaymentsProvider,
  type ProrationBasis,
  type ProviderInvoice,
  type ProviderOrder,
  type ProviderSubscription,
  type ProviderSubscriptionStatus,
  type WebhookObjectRef,
} from '../payments-provider';
import { singleHeader } from './vendor-http';
import {
  createPaddleClient,
  PaddleAdjustment,
  PaddleCustomer,
  PaddleEvent,
  PaddleSubscription,
  PaddleTransaction,
  parseData,
  type PaddleClient,
} from './paddle.client';

/**
 * The Paddle Billing adapter of `PaymentsProvider` (decision 042), on the thin client of
 * `paddle.client.ts`. Paddle is the merchant of record; its objects map onto ours as follows:
 *
 * - A checkout is a transaction (`POST /transactions`) of one price, in USD or KRW, carrying our user
 *   id and checkout id as `custom_data`. Its `checkout.url` is OUR page (the default payment link,
 *   GET {@link PADDLE_CHECKOUT_PATH}) with `?_ptxn=txn_…`, where Paddle.js opens Paddle Checkout.
 *   Paddle creates the subscription when a plan's transaction completes, with the same `custom_data`.
 * - A pack purchase (order) is a transaction without a subscription; an invoice is a transaction of a
 *   subscription (`origin`: web/api = its first, `subscription_recurring` = a renewal,
 *   `subscription_update` = an upgrade's prorated charge).
 * - Refunds are adjustments (`POST /adjustments`, `action: refund`), which move money once Paddle
 *   approves them; `refundedMinor` is the sum of a transaction's approved refunds.
 * - Webhooks: `Paddle-Signature: ts=<unix>;h1=<hex HMAC-SHA256(secret, "<ts>:<raw body>")>` (several
 *   `h1` while a secret is rotated), checked within {@link PADDLE_WEBHOOK_TOLERANCE_SECONDS}; the event
 *   key is Paddle's `event_id`.
 *
 * Downgrades. Paddle has no scheduled item change (a subscription's `scheduled_change` is only cancel,
 * pause or resume, set by Paddle's own operations). A downgrade replaces the item at once with
 * `proration_billing_mode: do_not_bill` (nothing charged or credited now; the next renewal bills the
 * new price) and writes into the subscription's `custom_data` the price billed this period and the
 * period's start (`dewy_period_price`, `dewy_period_start`). While that period lasts, `getSubscription`
 * reports the period's price as `plan` and the new one as `nextPlan`; after the renewal the marker no
 * longer matches the period and is ignored. A withdrawal or an upgrade first puts the period's price
 * back (again `do_not_bill`), so an upgrade is prorated from the plan actually paid for.
 *
 * Amounts are in the currency's lowest unit (cents; won), times are Dates from RFC 3339 strings. Every
 * failed call throws PaymentProviderError (with the HTTP status when there is one); `parseWebhook`
 * throws WebhookSignatureError for a missing, wrong or stale signature.
 */

/** Our checkout page (the default payment link to set in Paddle; `/en` before it for English). */
export const PADDLE_CHECKOUT_PATH = '/payment/paddle-checkout';

/**
 * How far a webhook's signed `ts` may lie from our clock, in seconds. Paddle's SDKs allow 5 s, which
 * refuses a delivery held a few seconds in a proxy or queue, or checked on a clock a little adrift, and
 * makes Paddle retry it for hours; 300 s (Stripe's default) still bounds a replay of a captured
 * delivery, and a replay within it is harmless: the event id is recorded once (decision 042).
 */
export const PADDLE_WEBHOOK_TOLERANCE_SECONDS = 300;

/** Keys of our own in a subscription's `custom_data` (see the file comment, Downgrades). */
const PERIOD_PRICE_KEY = 'dewy_period_price';
const PERIOD_START_KEY = 'dewy_period_start';

/** The Paddle settings (config.ts); won prices, environment and client token may be left out. */
export type PaddleConfig = Pick<PaymentsConfig['paddle'], 'apiKey' | 'webhookSecret' | 'baseUrl' | 'prices'> & { pricesKrw?: PaymentsConfig['paddle']['pricesKrw'] };

/** Optional knobs; the production caller passes `publicUrl` only. */
export interface PaddleProviderOptions {
  /** Our site's origin (PUBLIC_URL): each transaction's `checkout.url` is our checkout page there. Unset: Paddle's default payment link. */
  publicUrl?: string;
  /** Per-request timeout of API calls (default 30 s). */
  timeoutMs?: number;
  /** The clock the webhook tolerance is measured on (ms since the epoch; tests). */
  now?: () => number;
}

type CatalogItem = PaidPlan | PackId;

const isPlan = (v: string | undefined): v is PaidPlan => !!v && (PAID_PLANS as readonly string[]).includes(v);
const isPack = (v: string | undefined): v is PackId => !!v && (PACK_IDS as readonly string[]).includes(v);
const toDate = (iso: string) => new Date(iso);
const amount = (s: string | null | undefined) => (s ? Number(s) : 0);

/** Paddle's ISO 4217 code as ours. @throws PaymentProviderError for a currency Dewy does not sell in. */
function currencyOf(code: string | null | undefined, what: string): Currency {
  const c = (code ?? '').toLowerCase();
  if ((CURRENCIES as readonly string[]).includes(c)) return c as Currency;
  throw new PaymentProviderError(`Paddle ${what} is in ${code ?? '(no currency)'}, which Dewy does not sell in`);
}

/** Our user id from `custom_data.user_id` (we write it as a string): a positive integer, else null. */
function userIdOf(custom: Record<string, unknown> | null | undefined): number | null {
  const v = custom?.user_id;
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string' || !/^[1-9]\d{0,14}$/.test(s)) return null;
  return Number(s);
}

function checkoutIdOf(custom: Record<string, unknown> | null | undefined): string | null {
  const v = custom?.checkout_id;
  return typeof v === 'string' && v.length > 0 && v.length <= 200 ? v : null;
}

/**
 * Paddle's payment method types (https://developer.paddle.com/changelog/2025/improved-korean-payment-methods)
 * in our names (contracts' PAYMENT_METHOD_NAMES): `south_korea_local_card` → `kr_card`; the deprecated
 * `korea_local` by its `underlying_details.korea_local.type` (`kakaopay` → `kakao_pay`, `naverpaycard` /
 * `naverpaypoint` → `naver_pay`, `payco`, `samsungpay` → `samsung_pay`, a card issuer → `kr_card`);
 * `card`, `kakao_pay`, `naver_pay`, `payco`, `samsung_pay`, `apple_pay`, `google_pay`, `paypal` as they
 * are; anything else as Paddle wrote it.
 */
export function paymentMethodOf(type: string, koreaLocal?: string | null): string {
  if (type === 'south_korea_local_card') return 'kr_card';
  if (type === 'korea_local') {
    switch (koreaLocal) {
      case 'kakaopay': return 'kakao_pay';
      case 'naverpaycard': case 'naverpaypoint': return 'naver_pay';
      case 'payco': return 'payco';
      case 'samsungpay': return 'samsung_pay';
      default: return 'kr_card';
    }
  }
  return type;
}

/** How the transaction was paid: the captured attempt's method (else the newest attempt's), or null. */
function methodOf(tx: PaddleTransaction): string | null {
  const attempts = tx.payments ?? [];
  const captured = attempts.find((p) => p.status === 'captured' && p.method_details);
  const newest = [...attempts].filter((p) => p.method_details).sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))[0];
  const chosen = captured ?? newest;
  if (!chosen?.method_details) return null;
  return paymentMethodOf(chosen.method_details.type, chosen.method_details.underlying_details?.korea_local?.type);
}

const SUBSCRIPTION_STATUS: Record<string, ProviderSubscriptionStatus> = {
  active: 'active',
  trialing: 'trialing',
  past_due: 'past_due',
  paused: 'paused',
  canceled: 'expired',
};

const INVOICE_REASON: Record<string, InvoiceReason> = {
  web: 'initial',
  api: 'initial',
  subscription_recurring: 'renewal',
  subscription_update: 'upgrade',
};

/** Transactions that bill nothing of ours (a payment-method update, a one-off charge): their events are acknowledged only. */
const NOT_OURS_ORIGINS = new Set(['subscription_payment_method_change', 'subscription_charge']);

const SUBSCRIPTION_EVENTS = new Set([
  'subscription.created', 'subscription.updated', 'subscription.activated', 'subscription.canceled',
  'subscription.past_due', 'subscription.paused', 'subscription.resumed', 'subscription.trialing', 'subscription.imported',
]);
const TRANSACTION_EVENTS = new Set(['transaction.completed', 'transaction.paid', 'transaction.payment_failed', 'transaction.past_due', 'transaction.canceled']);
const ADJUSTMENT_EVENTS = new Set(['adjustment.created', 'adjustment.updated']);

const header = singleHeader;

/**
 * Verifies `Paddle-Signature` (https://developer.paddle.com/webhooks/signature-verification):
 * `ts=<unix seconds>;h1=<hex>[;h1=<hex>…]`; each `h1` is compared, in constant time, with the hex
 * HMAC-SHA256 of `"<ts>:<raw body>"` under `secret`; one match suffices (Paddle signs with the old and
 * the new secret while one is rotated). `ts` must lie within `toleranceSeconds` of `nowMs`.
 * @throws WebhookSignatureError when the header is missing or malformed, no `h1` matches, or `ts` is outside the tolerance.
 */
export function verifyPaddleSignature(rawBody: Buffer, signature: string | undefined, secret: string, nowMs: number, toleranceSeconds = PADDLE_WEBHOOK_TOLERANCE_SECONDS): void {
  if (!signature) throw new WebhookSignatureError('missing Paddle-Signature header');
  let ts: string | undefined;
  const h1: string[] = [];
  for (const part of signature.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 'ts') ts = value;
    else if (key === 'h1') h1.push(value);
  }
  if (!ts || !/^\d{1,12}$/.test(ts) || h1.length === 0 || h1.length > 8) throw new WebhookSignatureError('malformed Paddle-Signature header');
  if (Math.abs(nowMs / 1000 - Number(ts)) > toleranceSeconds) throw new WebhookSignatureError('Paddle-Signature timestamp outside the tolerance');
  const expected = createHmac('sha256', secret).update(`${ts}:`).update(rawBody).digest();
  let ok = false;
  for (const h of h1) {
    if (!/^[0-9a-f]{64}$/i.test(h)) continue;
    const given = Buffer.from(h, 'hex');
    // Every candidate is compared (no early exit), each in constant time.
    if (timingSafeEqual(given, expected)) ok = true;
  }
  if (!ok) throw new WebhookSignatureError();
}

/**
 * Builds the Paddle adapter.
 * @param cfg `PaymentsConfig['paddle']`, already known to be complete (API key, webhook secret, a price
 *   for every plan and pack; won prices all or none); `baseUrl` is the API origin (a fake's in tests).
 * @throws PaymentProviderError at once when the API key, the webhook secret or a dollar price is missing.
 */
export function createPaddleProvider(cfg: PaddleConfig, opts: PaddleProviderOptions = {}): PaymentsProvider {
  const { apiKey, webhookSecret } = cfg;
  if (!apiKey || !webhookSecret) throw new PaymentProviderError('Paddle is not configured (API key, webhook secret)');
  const now = opts.now ?? Date.now;
  const client: PaddleClient = createPaddleClient({ apiKey, baseUrl: cfg.baseUrl, timeoutMs: opts.timeoutMs });

  const itemByPrice = new Map<string, CatalogItem>();
  for (const item of [...PAID_PLANS, ...PACK_IDS]) {
    if (!cfg.prices[item]) throw new PaymentProviderError(`Paddle price for "${item}" is not configured`);
    for (const price of [cfg.prices[item], cfg.pricesKrw?.[item]]) if (price) itemByPrice.set(price, item);
  }
  const currencies: readonly Currency[] = cfg.pricesKrw ? ['usd', 'krw'] : ['usd'];

  /** The configured price of `item` in `currency` (PADDLE_PRICE_* in dollars, PADDLE_PRICE_KRW_* in won). */
  function priceOf(item: CatalogItem, currency: Currency): string {
    const price = currency === 'krw' ? cfg.pricesKrw?.[item] : cfg.prices[item];
    if (!price) throw new PaymentProviderError(`no Paddle ${currency.toUpperCase()} price configured for ${item}`);
    return price;
  }

  function planOfPrice(priceId: string | null | undefined, what: string): PaidPlan {
    const item = priceId ? itemByPrice.get(priceId) : undefined;
    if (!isPlan(item)) throw new PaymentProviderError(`Paddle ${what} bills price ${priceId ?? '(none)'}, which is not one of our plans`);
    return item;
  }

  const path = (...parts: string[]) => `/${parts.map(encodeURIComponent).join('/')}`;

  async function readTransaction(id: string): Promise<PaddleTransaction> {
    const res = await client.request('GET', path('transactions', id));
    return parseData(res.body, PaddleTransaction, `transaction ${id}`, res.status);
  }

  async function readSubscription(id: string): Promise<PaddleSubscription> {
    const res = await client.request('GET', path('subscriptions', id));
    return parseData(res.body, PaddleSubscription, `subscription ${id}`, res.status);
  }

  async function patchSubscription(id: string, body: Record<string, unknown>, what: string): Promise<PaddleSubscription> {
    const res = await client.request('PATCH', path('subscriptions', id), { body });
    return parseData(res.body, PaddleSubscription, `${what} of subscription ${id}`, res.status);
  }

  /** The refunds of a transaction Paddle approved, summed (lowest currency unit). */
  async function refundedOf(tx: PaddleTransaction): Promise<number> {
    const adjustments = await client.list('/adjustments', { transaction_id: tx.id, action: 'refund' }, PaddleAdjustment, `adjustments of transaction ${tx.id}`);
    return adjustments
      .filter((a) => a.transaction_id === tx.id && a.action === 'refund' && a.status === 'approved')
      .reduce((sum, a) => sum + Math.abs(amount(a.totals.total)), 0);
  }

  /** The price billed in the current period when a downgrade is pending (the `custom_data` marker still matches the period), else null. */
  function pendingDowngradeFrom(sub: PaddleSubscription): string | null {
    const price = sub.custom_data?.[PERIOD_PRICE_KEY];
    const start = sub.custom_data?.[PERIOD_START_KEY];
    const period = sub.current_billing_period;
    if (typeof price !== 'string' || typeof start !== 'string' || !period) return null;
    return Date.parse(start) === Date.parse(period.starts_at) ? price : null;
  }

  /** `custom_data` without our downgrade marker. */
  function withoutMarker(custom: Record<string, unknown> | null | undefined): Record<string, unknown> {
    const { [PERIOD_PRICE_KEY]: _p, [PERIOD_START_KEY]: _s, ...rest } = custom ?? {};
    return rest;
  }

  function firstPrice(sub: PaddleSubscription): string {
    const price = sub.items.find((i) => i.quantity > 0)?.price.id;
    if (!price) throw new PaymentProviderError(`Paddle subscription ${sub.id} has no items`);
    return price;
  }

  /**
   * Paddle subscription → ours: status (`canceled` → `expired`), the plan billed this period and the
   * next one (see Downgrades), the period from `current_billing_period` (a canceled or paused
   * subscription has none: its `canceled_at` / `paused_at`), `cancelAtPeriodEnd` from
   * `scheduled_change.action === 'cancel'` (the period then ends at its `effective_at`).
   */
  function mapSubscription(sub: PaddleSubscription): ProviderSubscription {
    const status = SUBSCRIPTION_STATUS[sub.status];
    if (!status) throw new PaymentProviderError(`unknown Paddle subscription status ${sub.status}`);
    const price = firstPrice(sub);
    const periodPrice = pendingDowngradeFrom(sub);
    const plan = planOfPrice(periodPrice ?? price, `subscription ${sub.id}`);
    const itemPlan = planOfPrice(price, `subscription ${sub.id}`);
    const ended = sub.status === 'canceled';
    const cancelScheduled = !ended && sub.scheduled_change?.action === 'cancel';
    const period = sub.current_billing_period;
    const fallback = toDate(sub.canceled_at ?? sub.paused_at ?? sub.updated_at);
    const start = period ? toDate(period.starts_at) : fallback;
    let end = period ? toDate(period.ends_at) : fallback;
    if (cancelScheduled && sub.scheduled_change) end = toDate(sub.scheduled_change.effective_at);
    return {
      id: sub.id,
      userId: userIdOf(sub.custom_data),
      plan,
      nextPlan: !ended && itemPlan !== plan ? itemPlan : null,
      status,
      currentPeriodStart: start,
      currentPeriodEnd: end,
      cancelAtPeriodEnd: cancelScheduled,
      endedAt: ended ? fallback : null,
      createdAt: toDate(sub.created_at),
      currency: currencyOf(sub.currency_code, `subscription ${sub.id}`),
    };
  }

  async function getSubscription(id: string): Promise<ProviderSubscription> {
    return mapSubscription(await readSubscription(id));
  }

  /** Removes a scheduled cancel (`scheduled_change: null`); a no-op when none is scheduled. */
  async function clearScheduledCancel(sub: PaddleSubscription): Promise<PaddleSubscription> {
    if (sub.scheduled_change?.action !== 'cancel') return sub;
    return patchSubscription(sub.id, { scheduled_change: null }, 'removal of the scheduled cancel');
  }

  /** Puts the period's own price back when a downgrade is pending (nothing billed), dropping the marker. */
  async function undoPendingDowngrade(sub: PaddleSubscription, periodPrice: string | null): Promise<PaddleSubscription> {
    const marked = sub.custom_data?.[PERIOD_PRICE_KEY] !== undefined || sub.custom_data?.[PERIOD_START_KEY] !== undefined;
    if (!periodPrice || (periodPrice === firstPrice(sub) && !marked)) return sub;
    return patchSubscription(sub.id, {
      items: [{ price_id: periodPrice, quantity: 1 }],
      proration_billing_mode: 'do_not_bill',
      custom_data: withoutMarker(sub.custom_data),
    }, 'withdrawal of the downgrade');
  }

  /** The plan line of a subscription transaction: the plan item with a positive quantity and the largest total. */
  function planItem(tx: PaddleTransaction): { plan: PaidPlan; proration: { rate: string } | null } {
    const lines = tx.details?.line_items ?? [];
    const candidates = tx.items.flatMap((it) => {
      const priceId = it.price?.id ?? it.price_id ?? undefined;
      const item = priceId ? itemByPrice.get(priceId) : undefined;
      if (!isPlan(item) || it.quantity <= 0) return [];
      const line = lines.find((l) => l.price_id === priceId && l.quantity > 0);
      return [{ plan: item, total: amount(line?.totals?.total), proration: it.proration ?? line?.proration ?? null }];
    });
    const best = candidates.sort((a, b) => b.total - a.total)[0];
    if (!best) throw new PaymentProviderError(`Paddle transaction ${tx.id} bills none of our plans`);
    return best;
  }

  /** A plan change's proration: Paddle's rate (share of the period charged) on the new plan's item, else the subtotal against the list prices. */
  function prorationOf(tx: PaddleTransaction, proration: { rate: string } | null): ProrationBasis {
    const rate = proration ? Number(proration.rate) : NaN;
    if (Number.isFinite(rate) && rate >= 0 && rate <= 1) return { fraction: rate };
    return { chargedMinor: Math.max(0, amount(tx.details?.totals?.subtotal)) };
  }

  /** Our customer at Paddle for `email`: the one Paddle has (`GET /customers?email=`), else a new one (`POST /customers`). */
  async function customerFor(email: string): Promise<string> {
    const find = async () => (await client.list('/customers', { email }, PaddleCustomer, 'customers by email', 1)).find((c) => c.email.toLowerCase() === email.toLowerCase() && c.status !== 'archived');
    const found = await find();
    if (found) return found.id;
    try {
      const res = await client.request('POST', '/customers', { body: { email } });
      return parseData(res.body, PaddleCustomer, 'new customer', res.status).id;
    } catch (e) {
      // 409 customer_already_exists: created meanwhile (or archived): look it up again.
      if (e instanceof PaymentProviderError && e.status === 409) {
        const again = await find();
        if (again) return again.id;
      }
      throw e;
    }
  }

  return {
    name: 'paddle',
    currencies,

    /**
     * Creates a transaction to pay at our checkout page (https://developer.paddle.com/api-reference/transactions/create-transaction):
     * one item of the configured price in the chosen currency (`currency_code` USD / KRW),
     * `collection_mode: automatic`, the customer found or created by e-mail, `custom_data {user_id,
     * checkout_id, kind, item}` (copied by Paddle onto the subscription a plan creates), and
     * `checkout.url` = our page {@link PADDLE_CHECKOUT_PATH} (`/en` first for English) when `publicUrl`
     * is set. Korean wallets and cards are offered by Paddle Checkout itself for a won price.
     * @returns `{url: data.checkout.url (…?_ptxn=txn_…), providerCheckoutId: the transaction id}`.
     */
    async createCheckout(req: CheckoutRequest) {
      const item: CatalogItem = req.item.kind === 'plan' ? req.item.plan : req.item.pack;
      const price = priceOf(item, req.currency);
      const customerId = await customerFor(req.email);
      const body: Record<string, unknown> = {
        items: [{ price_id: price, quantity: 1 }],
        customer_id: customerId,
        currency_code: req.currency.toUpperCase(),
        collection_mode: 'automatic',
        custom_data: { user_id: String(req.userId), checkout_id: req.checkoutId, kind: req.item.kind, item },
      };
      if (opts.publicUrl) body.checkout = { url: `${opts.publicUrl.replace(/\/+$/, '')}${req.locale === 'en' ? '/en' : ''}${PADDLE_CHECKOUT_PATH}` };
      const res = await client.request('POST', '/transactions', { body });
      const tx = parseData(res.body, PaddleTransaction, 'new transaction', res.status);
      const url = tx.checkout?.url;
      if (!url || !/^https?:\/\//.test(url)) throw new PaymentProviderError(`Paddle transaction ${tx.id} has no checkout url (is a default payment link set?)`);
      return { url, providerCheckoutId: tx.id };
    },

    /**
     * `timing: 'now'` (upgrade): removes a scheduled cancel, puts back the period's price when a
     * downgrade is pending, then replaces the item with `plan`'s price in the subscription's currency
     * and `proration_billing_mode: prorated_immediately` (https://developer.paddle.com/build/subscriptions/replace-products-prices-upgrade-downgrade):
     * Paddle charges the prorated difference at once in a `subscription_update` transaction.
     * `timing: 'next_cycle'` (downgrade): removes a scheduled cancel, then replaces the item with
     * `proration_billing_mode: do_not_bill` and marks the period's price in `custom_data` (file comment,
     * Downgrades). Asking for the period's own plan withdraws a pending downgrade.
     * @returns the subscription re-read. @throws PaymentProviderError (Paddle refuses changes to a
     *   `past_due` subscription and within 30 minutes of a renewal).
     */
    async changePlan(subscriptionId, plan, timing) {
      const sub = await clearScheduledCancel(await readSubscription(subscriptionId));
      const currency = currencyOf(sub.currency_code, `subscription ${sub.id}`);
      const target = priceOf(plan, currency);
      const periodPrice = pendingDowngradeFrom(sub) ?? firstPrice(sub);

      if (timing === 'now') {
        await undoPendingDowngrade(sub, pendingDowngradeFrom(sub));
        await patchSubscription(subscriptionId, { items: [{ price_id: target, quantity: 1 }], proration_billing_mode: 'prorated_immediately' }, 'upgrade');
        return getSubscription(subscriptionId);
      }

      if (target === periodPrice) {
        await undoPendingDowngrade(sub, periodPrice);
        return getSubscription(subscriptionId);
      }
      const period = sub.current_billing_period;
      if (!period) throw new PaymentProviderError(`Paddle subscription ${sub.id} (${sub.status}) has no current billing period`);
      await patchSubscription(subscriptionId, {
        items: [{ price_id: target, quantity: 1 }],
        proration_billing_mode: 'do_not_bill',
        custom_data: { ...withoutMarker(sub.custom_data), [PERIOD_PRICE_KEY]: periodPrice, [PERIOD_START_KEY]: period.starts_at },
      }, 'downgrade');
      return getSubscription(subscriptionId);
    },

    /**
     * Withdraws a pending downgrade: the item goes back to `currentPlan`'s price (the plan billed and
     * credited this period) with `proration_billing_mode: do_not_bill` and the marker is dropped
     * (https://developer.paddle.com/api-reference/subscriptions/update-subscription). A no-op when the
     * item already bills `currentPlan` and no marker is left. @returns the subscription re-read.
     */
    async withdrawScheduledChange(subscriptionId, currentPlan) {
      const sub = await readSubscription(subscriptionId);
      await undoPendingDowngrade(sub, priceOf(currentPlan, currencyOf(sub.currency_code, `subscription ${sub.id}`)));
      return getSubscription(subscriptionId);
    },

    /**
     * `GET /subscriptions/{id}/update-payment-method-transaction`
     * (https://developer.paddle.com/api-reference/subscriptions/update-payment-method): for a `past_due`
     * subscription Paddle answers its most recent past-due transaction, whose `checkout.url` (our
     * checkout page with `?_ptxn=`) lets the customer pay it with another method. Null when it has no url.
     */
    /**
     * `GET /transactions/{id}/invoice` (https://developer.paddle.com/api-reference/transactions/get-invoice-pdf):
     * a temporary link to the transaction's invoice PDF (orders and invoices are both transactions).
     * Null when Paddle has none yet (a transaction that is not completed answers 400).
     */
    async freshReceiptUrl(_kind, id) {
      try {
        const res = await client.request('GET', `${path('transactions', id)}/invoice`);
        const url = (res.body as { data?: { url?: unknown } } | null)?.data?.url;
        return typeof url === 'string' && /^https:\/\//.test(url) ? url : null;
      } catch (err) {
        if (err instanceof PaymentProviderError && err.status === 400) return null;
        throw err;
      }
    },

    async updatePaymentUrl(subscriptionId) {
      const res = await client.request('GET', `${path('subscriptions', subscriptionId)}/update-payment-method-transaction`);
      return parseData(res.body, PaddleTransaction, `update-payment-method transaction of subscription ${subscriptionId}`, res.status).checkout?.url ?? null;
    },

    /**
     * `POST /subscriptions/{id}/cancel {effective_from: next_billing_period}`
     * (https://developer.paddle.com/api-reference/subscriptions/cancel-subscription): Paddle sets
     * `scheduled_change {action: cancel, effective_at: <period end>}`. @returns the subscription re-read.
     */
    async cancel(subscriptionId) {
      const res = await client.request('POST', `${path('subscriptions', subscriptionId)}/cancel`, { body: { effective_from: 'next_billing_period' } });
      parseData(res.body, PaddleSubscription, `cancel of subscription ${subscriptionId}`, res.status);
      return getSubscription(subscriptionId);
    },

    /**
     * Removes a scheduled cancel: `PATCH /subscriptions/{id} {scheduled_change: null}` (the only write
     * Paddle allows on `scheduled_change`). A no-op when no cancel is scheduled. @returns it re-read.
     */
    async resume(subscriptionId) {
      await clearScheduledCancel(await readSubscription(subscriptionId));
      return getSubscription(subscriptionId);
    },

    /**
     * Ends a subscription now: `POST /subscriptions/{id}/cancel {effective_from: immediately}`. A no-op
     * on one already `canceled`.
     */
    async cancelNow(subscriptionId) {
      const sub = await readSubscription(subscriptionId);
      if (sub.status === 'canceled') return;
      const res = await client.request('POST', `${path('subscriptions', subscriptionId)}/cancel`, { body: { effective_from: 'immediately' } });
      parseData(res.body, PaddleSubscription, `immediate cancel of subscription ${subscriptionId}`, res.status);
    },

    /**
     * Refunds a paid subscription transaction in full: `POST /adjustments {action: refund, type: full,
     * transaction_id, reason}` (https://developer.paddle.com/api-reference/adjustments/create-adjustment).
     * Paddle approves it later (`adjustment.updated`). A no-op for a transaction that is not paid, is
     * refunded in full, or has a refund waiting for approval.
     */
    async refundInvoice(invoiceId) {
      const tx = await readTransaction(invoiceId);
      if (tx.status !== 'completed' && tx.status !== 'paid') return;
      const adjustments = await client.list('/adjustments', { transaction_id: tx.id, action: 'refund' }, PaddleAdjustment, `adjustments of transaction ${tx.id}`);
      const live = adjustments.filter((a) => a.transaction_id === tx.id && a.action === 'refund');
      if (live.some((a) => a.status === 'pending_approval')) return;
      const refunded = live.filter((a) => a.status === 'approved').reduce((s, a) => s + Math.abs(amount(a.totals.total)), 0);
      if (refunded >= amount(tx.details?.totals?.grand_total)) return;
      const res = await client.request('POST', '/adjustments', { body: { action: 'refund', type: 'full', transaction_id: tx.id, reason: 'Duplicate subscription refused by Dewy' } });
      parseData(res.body, PaddleAdjustment, `refund of transaction ${tx.id}`, res.status);
    },

    /**
     * `GET /subscriptions/{id}` (https://developer.paddle.com/api-reference/subscriptions/get-subscription)
     * mapped by `mapSubscription`: `userId` from `custom_data.user_id`.
     * @throws PaymentProviderError for a price that is not one of our plans or an unknown status.
     */
    getSubscription,

    /**
     * A transaction of a subscription (`GET /transactions/{id}`,
     * https://developer.paddle.com/api-reference/transactions/get-transaction): `completed` / `paid` →
     * `paid` (`refunded` once an approved refund exists: `refundedMinor`, from `GET /adjustments?transaction_id=`),
     * `past_due` → `failed`, `canceled` → `void`, else `open`; reason from `origin`; amount
     * `details.totals.grand_total`; period `billing_period`; plan and, for an upgrade, the proration
     * rate from the plan item; method from the payment attempt. `receiptUrl` stays null: Paddle's invoice
     * PDF link (`GET /transactions/{id}/invoice`) expires after an hour, so the billing history links our
     * receipt page instead. @throws PaymentProviderError for a transaction of no subscription.
     */
    async getInvoice(id) {
      const tx = await readTransaction(id);
      if (!tx.subscription_id) throw new PaymentProviderError(`Paddle transaction ${tx.id} is not of a subscription`);
      const { plan, proration } = planItem(tx);
      const refundedMinor = await refundedOf(tx);
      let status: ProviderInvoice['status'];
      switch (tx.status) {
        case 'completed': case 'paid': status = refundedMinor > 0 ? 'refunded' : 'paid'; break;
        case 'past_due': status = 'failed'; break;
        case 'canceled': status = 'void'; break;
        case 'draft': case 'ready': case 'billed': status = 'open'; break;
        default: throw new PaymentProviderError(`unknown Paddle transaction status ${tx.status}`);
      }
      const reason = INVOICE_REASON[tx.origin] ?? 'other';
      let period = tx.billing_period ?? null;
      if (!period) {
        const sub = await readSubscription(tx.subscription_id);
        period = sub.current_billing_period ?? null;
      }
      if (!period) throw new PaymentProviderError(`Paddle transaction ${tx.id} has no billing period`);
      return {
        id: tx.id,
        subscriptionId: tx.subscription_id,
        userId: userIdOf(tx.custom_data),
        status,
        reason,
        plan,
        periodStart: toDate(period.starts_at),
        periodEnd: toDate(period.ends_at),
        amountMinor: amount(tx.details?.totals?.grand_total),
        refundedMinor,
        createdAt: toDate(tx.created_at),
        proration: reason === 'upgrade' ? prorationOf(tx, proration) : null,
        currency: currencyOf(tx.currency_code, `transaction ${tx.id}`),
        method: methodOf(tx),
        receiptUrl: null,
      };
    },

    /**
     * A pack purchase: a transaction without a subscription (`GET /transactions/{id}`). `completed` /
     * `paid` → `paid` (`refunded` with an approved refund), `past_due` / `canceled` → `failed`, else
     * `pending` (a declined attempt at the checkout leaves it `ready`: the customer may try again).
     * `receiptUrl` null (see getInvoice). @throws PaymentProviderError for a transaction of a
     * subscription or one that bills none of our packs.
     */
    async getOrder(id) {
      const tx = await readTransaction(id);
      if (tx.subscription_id) throw new PaymentProviderError(`Paddle transaction ${tx.id} is of a subscription, not a pack`);
      const packItem = tx.items.map((it) => itemByPrice.get(it.price?.id ?? it.price_id ?? '')).find(isPack);
      if (!packItem) throw new PaymentProviderError(`Paddle transaction ${tx.id} bills none of our packs`);
      const refundedMinor = await refundedOf(tx);
      let status: ProviderOrder['status'];
      switch (tx.status) {
        case 'completed': case 'paid': status = refundedMinor > 0 ? 'refunded' : 'paid'; break;
        case 'past_due': case 'canceled': status = 'failed'; break;
        default: status = 'pending';
      }
      return {
        id: tx.id,
        userId: userIdOf(tx.custom_data),
        pack: packItem,
        status,
        amountMinor: amount(tx.details?.totals?.grand_total),
        refundedMinor,
        createdAt: toDate(tx.created_at),
        currency: currencyOf(tx.currency_code, `transaction ${tx.id}`),
        method: methodOf(tx),
        receiptUrl: null,
      };
    },

    /**
     * Verifies `Paddle-Signature` (`verifyPaddleSignature`) and names the object to re-read
     * (https://developer.paddle.com/webhooks/overview): `subscription.*` → the subscription;
     * `transaction.completed|paid|payment_failed|past_due|canceled` → the invoice (a transaction of a
     * subscription) or the order (one without); `adjustment.created|updated` → the invoice or order of
     * its `transaction_id`. A plan's transaction paid before Paddle linked its subscription is re-read
     * as an invoice all the same (`getInvoice` refuses it until the link exists: the route answers
     * non-2xx and Paddle retries). Null (recorded, acknowledged) for other events, for transactions that
     * bill nothing of ours (payment-method updates, one-off charges), and for a declined attempt at a
     * plan's checkout.
     * Key: `event_id`. @throws WebhookSignatureError; PaymentProviderError for a signed body that is not a Paddle event.
     */
    async parseWebhook(rawBody, headers) {
      verifyPaddleSignature(rawBody, header(headers, 'paddle-signature'), webhookSecret, now());
      let json: unknown;
      try {
        json = JSON.parse(rawBody.toString('utf8'));
      } catch {
        throw new PaymentProviderError('Paddle webhook body is not JSON');
      }
      const parsed = PaddleEvent.safeParse(json);
      if (!parsed.success) throw new PaymentProviderError('Paddle webhook body is not an event (event_id, event_type, occurred_at, data.id)');
      const ev = parsed.data;
      const data = ev.data as Record<string, unknown>;
      const custom = typeof data.custom_data === 'object' && data.custom_data !== null && !Array.isArray(data.custom_data) ? (data.custom_data as Record<string, unknown>) : null;
      const str = (v: unknown) => (typeof v === 'string' && v ? v : null);

      let object: WebhookObjectRef | null = null;
      if (SUBSCRIPTION_EVENTS.has(ev.event_type)) object = { kind: 'subscription', id: ev.data.id };
      else if (TRANSACTION_EVENTS.has(ev.event_type)) {
        const origin = str(data.origin);
        const items = Array.isArray(data.items) ? (data.items as Array<{ price?: { id?: unknown } | null; price_id?: unknown }>) : [];
        const billsPlan = items.some((it) => isPlan(itemByPrice.get(String(it.price?.id ?? it.price_id ?? ''))));
        if (origin && NOT_OURS_ORIGINS.has(origin)) object = null;
        else if (str(data.subscription_id)) object = { kind: 'invoice', id: ev.data.id };
        else if (!billsPlan) object = { kind: 'order', id: ev.data.id };
        // A plan's payment before Paddle linked its subscription: re-read as an invoice (it answers
        // non-2xx until the link exists, and Paddle retries); a declined attempt there is only acknowledged.
        else if (ev.event_type === 'transaction.completed' || ev.event_type === 'transaction.paid') object = { kind: 'invoice', id: ev.data.id };
      } else if (ADJUSTMENT_EVENTS.has(ev.event_type)) {
        const txId = str(data.transaction_id);
        if (txId) object = str(data.subscription_id) ? { kind: 'invoice', id: txId } : { kind: 'order', id: txId };
      }
      return { key: ev.event_id, type: ev.event_type, object, userId: userIdOf(custom), checkoutId: checkoutIdOf(custom) };
    },
  };
}
