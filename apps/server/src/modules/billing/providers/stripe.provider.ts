import { CURRENCIES, KRW_ONE_TIME_METHODS, KRW_SUBSCRIPTION_METHODS, PACK_IDS, PAID_PLANS, type Currency, type PackId, type PaidPlan } from '@dewy/contracts';
import Stripe from 'stripe';
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
  type WebhookEvent,
  type WebhookObjectRef,
} from '../payments-provider';

/**
 * The Stripe API version every request is pinned to (`Stripe-Version` header), and the version the
 * shapes below are written for: period bounds on the subscription *items*, the invoice → subscription
 * link under `invoice.parent.subscription_details`, invoice payments as their own objects
 * (`invoice.payments`, `/v1/invoice_payments`; `charge.invoice` no longer exists), schedule phases
 * sized with `duration`. It is the version stripe-node 23.1 is generated for, so the SDK's types
 * describe exactly these shapes; a later SDK with another version fails `tsc` here until this file is
 * re-checked against that version's changelog (https://docs.stripe.com/changelog).
 */
export const STRIPE_API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion;

/** The Stripe settings (config.ts); won prices and methods may be left out (dollars only). */
type StripeConfig = Omit<PaymentsConfig['stripe'], 'pricesKrw' | 'krwMethods'> & { pricesKrw?: PaymentsConfig['stripe']['pricesKrw']; krwMethods?: string[] };
type CatalogItem = PaidPlan | PackId;

/** Stripe answers ids or, where expanded, the objects themselves. */
type Expandable<T extends { id: string }> = string | T | { id: string; deleted: true } | null | undefined;

function idOf<T extends { id: string }>(v: Expandable<T>): string | null {
  if (!v) return null;
  return typeof v === 'string' ? v : v.id;
}

/** The expanded object, or null when Stripe answered only the id (or nothing). */
function objectOf<T extends { id: string }>(v: string | T | null | undefined): T | null {
  return v && typeof v === 'object' ? v : null;
}

const toDate = (unixSeconds: number) => new Date(unixSeconds * 1000);

/** A schedule that still drives its subscription. */
const isLive = (schedule: Stripe.SubscriptionSchedule) => schedule.status === 'active' || schedule.status === 'not_started';

/** Our user id from metadata / client_reference_id: a positive integer written in decimal, else null. */
function parseUserId(v: string | null | undefined): number | null {
  if (!v || !/^\d{1,15}$/.test(v)) return null;
  const n = Number(v);
  return n > 0 ? n : null;
}

/** Removes anything shaped like a Stripe secret (and the configured key itself) from a log message. */
function redact(message: string, secretKey: string): string {
  const masked = secretKey ? message.split(secretKey).join('[redacted]') : message;
  return masked.replace(/\b(sk|rk|whsec)_(?:(live|test)_)?[A-Za-z0-9*]+/g, (_m, kind: string, mode?: string) => `${kind}_${mode ? `${mode}_` : ''}[redacted]`);
}

/**
 * Maps any failure of a Stripe call onto PaymentProviderError: HTTP errors keep their status (400, 401,
 * 402, 404, 429, 5xx …), connection errors and timeouts have none. The message names the operation and
 * Stripe's error type and message, never the secret key.
 */
function providerError(what: string, e: unknown, secretKey: string): PaymentProviderError {
  if (e instanceof PaymentProviderError) return e;
  if (e instanceof Stripe.errors.StripeError) {
    const status = e.statusCode;
    return new PaymentProviderError(redact(`stripe ${what} failed (${e.type}${status ? ` ${status}` : ''}): ${e.message}`, secretKey), status);
  }
  const msg = e instanceof Error ? e.message : String(e);
  return new PaymentProviderError(redact(`stripe ${what} failed: ${msg}`, secretKey));
}

/** SDK client options: the pinned version, and `baseUrl` (a fake or proxy) as host / port / protocol. */
/** Stripe's lower-case ISO 4217 code as ours. @throws PaymentProviderError for a currency Dewy does not sell in. */
function currencyOf(code: string | null | undefined, what: string): Currency {
  const c = (code ?? '').toLowerCase();
  if ((CURRENCIES as readonly string[]).includes(c)) return c as Currency;
  throw new PaymentProviderError(`Stripe ${what} is in ${code ?? '(no currency)'}, which Dewy does not sell in`);
}

/** The payment method type a charge was paid with (`card`, `kakao_pay`, `kr_card` …), or null. */
function methodOf(charge: Stripe.Charge | null): string | null {
  return charge?.payment_method_details?.type ?? null;
}

function clientOptions(cfg: StripeConfig): Stripe.StripeConfig {
  const opts: Stripe.StripeConfig = {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 2,
    timeout: 30_000,
    telemetry: false,
    appInfo: { name: 'dewy' },
  };
  if (cfg.baseUrl) {
    let url: URL;
    try {
      url = new URL(cfg.baseUrl);
    } catch {
      throw new PaymentProviderError('STRIPE_BASE_URL is not a URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PaymentProviderError('STRIPE_BASE_URL must be http(s)');
    const protocol = url.protocol === 'http:' ? 'http' : 'https';
    opts.protocol = protocol;
    opts.host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    opts.port = url.port || (protocol === 'http' ? 80 : 443);
  }
  return opts;
}

const SUBSCRIPTION_STATUS: Record<string, ProviderSubscriptionStatus> = {
  active: 'active',
  past_due: 'past_due',
  paused: 'paused',
  trialing: 'trialing',
  incomplete: 'incomplete',
  incomplete_expired: 'incomplete_expired',
  unpaid: 'unpaid',
  canceled: 'expired',
};

const INVOICE_REASON: Record<string, InvoiceReason> = {
  subscription_create: 'initial',
  subscription_cycle: 'renewal',
  subscription_update: 'upgrade',
};

/**
 * The Stripe adapter of the payments interface (payments-provider.ts), on the official SDK with the API
 * version pinned to {@link STRIPE_API_VERSION}. `cfg` must be complete (secret key, webhook secret, a
 * price id for every plan and pack); `cfg.baseUrl` (e.g. `http://127.0.0.1:PORT`) sends every request
 * there instead of api.stripe.com.
 *
 * - Plans are monthly subscriptions sold through Checkout (`mode: subscription`), packs one-time
 *   Checkout payments (`mode: payment`); `cfg.prices` maps both ways between our ids and Stripe prices.
 * - Upgrades swap the item's price with `proration_behavior: always_invoice` (an immediate `upgrade`
 *   invoice); downgrades attach a subscription schedule whose second phase bills the new price.
 * - Amounts are in the currency's minor unit (cents), times are Dates from Stripe's unix seconds.
 * - Every failed Stripe call throws PaymentProviderError (with the HTTP status when there is one);
 *   `parseWebhook` throws WebhookSignatureError for a bad signature.
 *
 * @throws PaymentProviderError when `cfg.baseUrl` is not an http(s) URL.
 */
export function createStripeProvider(cfg: StripeConfig): PaymentsProvider {
  const secretKey = cfg.secretKey ?? '';
  const webhookSecret = cfg.webhookSecret ?? '';
  const stripe = new Stripe(secretKey, clientOptions(cfg));

  const itemByPrice = new Map<string, CatalogItem>();
  for (const item of [...PAID_PLANS, ...PACK_IDS]) {
    for (const price of [cfg.prices[item], cfg.pricesKrw?.[item]]) if (price) itemByPrice.set(price, item);
  }
  const currencies: readonly Currency[] = cfg.pricesKrw ? ['usd', 'krw'] : ['usd'];

  async function call<T>(what: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw providerError(what, e, secretKey);
    }
  }

  /** The configured price of `item` in `currency` (dollar prices, or the won ones of STRIPE_PRICE_KRW_*). */
  function priceOf(item: CatalogItem, currency: Currency): string {
    const price = currency === 'krw' ? cfg.pricesKrw?.[item] : cfg.prices[item];
    if (!price) throw new PaymentProviderError(`no Stripe ${currency.toUpperCase()} price configured for ${item}`);
    return price;
  }

  /**
   * The allowed payment method types of a won Checkout Session: the configured Korean methods
   * (STRIPE_KRW_PAYMENT_METHODS), in subscription mode only those Stripe allows there: Kakao Pay, Naver
   * Pay and Korean cards (the methods that can be saved for later payments, changelog 2024-11-20.acacia
   * "south-korea-payment-methods"; https://docs.stripe.com/payments/kakao-pay/accept-a-payment:
   * "Subscription mode: Yes"), never PAYCO or Samsung Pay ("Subscription mode: No" on
   * https://docs.stripe.com/payments/payco/accept-a-payment and …/samsung-pay/accept-a-payment), plus
   * `card`. Stripe would drop an incompatible method from the filter silently; we never send one.
   */
  function krwMethods(mode: 'subscription' | 'payment'): Stripe.Checkout.SessionCreateParams.AllowedPaymentMethodType[] {
    const allowed = mode === 'subscription' ? KRW_SUBSCRIPTION_METHODS : KRW_ONE_TIME_METHODS;
    const chosen = (cfg.krwMethods ?? [...KRW_ONE_TIME_METHODS]).filter((m) => (allowed as readonly string[]).includes(m));
    return (chosen.length ? chosen : ['card']) as Stripe.Checkout.SessionCreateParams.AllowedPaymentMethodType[];
  }

  function planOfPrice(priceId: string | null): PaidPlan {
    const item = priceId ? itemByPrice.get(priceId) : undefined;
    if (!item || !(PAID_PLANS as readonly string[]).includes(item)) throw new PaymentProviderError(`Stripe price ${priceId ?? '(none)'} is not one of our plans`);
    return item as PaidPlan;
  }

  function packOf(v: string | null | undefined): PackId | null {
    if (v && (PACK_IDS as readonly string[]).includes(v)) return v as PackId;
    const item = v ? itemByPrice.get(v) : undefined;
    return item && (PACK_IDS as readonly string[]).includes(item) ? (item as PackId) : null;
  }

  /** The subscription with its schedule expanded (nextPlan and the schedule-aware writes need it). */
  async function retrieveSubscription(id: string): Promise<Stripe.Subscription> {
    return call('retrieve subscription', () => stripe.subscriptions.retrieve(id, { expand: ['schedule'] }));
  }

  function firstItem(sub: Stripe.Subscription): Stripe.SubscriptionItem {
    const item = sub.items.data[0];
    if (!item) throw new PaymentProviderError(`Stripe subscription ${sub.id} has no items`);
    return item;
  }

  async function scheduleOf(sub: Stripe.Subscription): Promise<Stripe.SubscriptionSchedule | null> {
    if (!sub.schedule) return null;
    if (typeof sub.schedule === 'object') return sub.schedule;
    const id = sub.schedule;
    return call('retrieve subscription schedule', () => stripe.subscriptionSchedules.retrieve(id));
  }

  /** The plan of the schedule phase that follows the current one, when its price differs. */
  function nextPlanOf(schedule: Stripe.SubscriptionSchedule | null, item: Stripe.SubscriptionItem): PaidPlan | null {
    if (!schedule || !isLive(schedule)) return null;
    const boundary = schedule.current_phase?.end_date ?? item.current_period_end;
    const next = schedule.phases.find((p) => p.start_date >= boundary);
    const nextPrice = next ? idOf(next.items[0]?.price) : null;
    if (!nextPrice || nextPrice === item.price.id) return null;
    return planOfPrice(nextPrice);
  }

  async function mapSubscription(sub: Stripe.Subscription): Promise<ProviderSubscription> {
    const item = firstItem(sub);
    const status = SUBSCRIPTION_STATUS[sub.status];
    if (!status) throw new PaymentProviderError(`unknown Stripe subscription status ${sub.status}`);
    const plan = planOfPrice(item.price.id);
    const ended = sub.status === 'canceled';
    const schedule = ended ? null : await scheduleOf(sub);
    const nextPlan = nextPlanOf(schedule, item);
    const cancelAt = sub.cancel_at;
    const scheduleCancels = !!schedule && isLive(schedule) && schedule.end_behavior === 'cancel';
    return {
      id: sub.id,
      userId: parseUserId(sub.metadata?.user_id),
      plan,
      nextPlan,
      status,
      currentPeriodStart: toDate(item.current_period_start),
      currentPeriodEnd: toDate(cancelAt !== null && cancelAt < item.current_period_end ? cancelAt : item.current_period_end),
      cancelAtPeriodEnd: !ended && (sub.cancel_at_period_end || cancelAt !== null || scheduleCancels),
      endedAt: sub.ended_at !== null ? toDate(sub.ended_at) : null,
      createdAt: toDate(sub.created),
      currency: currencyOf(sub.currency, `subscription ${sub.id}`),
    };
  }

  async function getSubscription(id: string): Promise<ProviderSubscription> {
    return mapSubscription(await retrieveSubscription(id));
  }

  async function releaseSchedule(scheduleId: string): Promise<void> {
    await call('release subscription schedule', () => stripe.subscriptionSchedules.release(scheduleId));
  }

  async function updateSubscription(id: string, params: Stripe.SubscriptionUpdateParams): Promise<void> {
    await call('update subscription', () => stripe.subscriptions.update(id, params));
  }

  /** Charge of a payment intent (expanded `latest_charge`), or null when it has none yet. */
  async function chargeOfPaymentIntent(pi: string | Stripe.PaymentIntent): Promise<{ intent: Stripe.PaymentIntent; charge: Stripe.Charge | null }> {
    const intent = typeof pi === 'object' && typeof pi.latest_charge !== 'string'
      ? pi
      : await call('retrieve payment intent', () => stripe.paymentIntents.retrieve(typeof pi === 'string' ? pi : pi.id, { expand: ['latest_charge'] }));
    return { intent, charge: objectOf(intent.latest_charge) };
  }

  /** Sums the refunds of an invoice's payments and tells whether its last payment attempt failed. */
  async function invoicePaymentsState(inv: Stripe.Invoice): Promise<{ refundedMinor: number; attemptFailed: boolean; method: string | null }> {
    const payments = inv.payments?.data
      ?? (await call('list invoice payments', () => stripe.invoicePayments.list({ invoice: inv.id, limit: 100 }))).data;
    let refundedMinor = 0;
    let attemptFailed = false;
    let method: string | null = null;
    for (const p of payments) {
      const { charge: chargeRef, payment_intent: intentRef } = p.payment;
      if (chargeRef) {
        const charge = typeof chargeRef === 'object' ? chargeRef : await call('retrieve charge', () => stripe.charges.retrieve(chargeRef));
        if (p.status === 'paid') {
          refundedMinor += charge.amount_refunded;
          method = methodOf(charge) ?? method;
        }
      } else if (intentRef) {
        const { intent, charge } = await chargeOfPaymentIntent(intentRef);
        if (p.status === 'paid') {
          refundedMinor += charge?.amount_refunded ?? 0;
          method = methodOf(charge) ?? method;
        } else if (p.status === 'open' && intent.last_payment_error && (intent.status === 'requires_payment_method' || intent.status === 'canceled')) attemptFailed = true;
      }
    }
    return { refundedMinor, attemptFailed, method };
  }

  /** The line billing a plan: the positive one when there is one (after an upgrade: the new price). */
  function planLine(inv: Stripe.Invoice): { line: Stripe.InvoiceLineItem; plan: PaidPlan } {
    const withPlan = inv.lines.data.flatMap((line) => {
      const price = idOf(line.pricing?.price_details?.price);
      const item = price ? itemByPrice.get(price) : undefined;
      return item && (PAID_PLANS as readonly string[]).includes(item) ? [{ line, plan: item as PaidPlan }] : [];
    });
    const found = withPlan.find((l) => l.line.amount > 0) ?? withPlan[0];
    if (!found) throw new PaymentProviderError(`Stripe invoice ${inv.id} bills none of our plans`);
    return found;
  }

  /**
   * What an upgrade (`subscription_update`) invoice says about its proration (decision 028). Stripe
   * prorates by the second: the positive proration line of the new price covers `period.start` (the
   * change) → `period.end` (the end of the subscription period it happened in), so the fraction is that
   * line's period over the subscription item's period when the subscription is still in that period
   * (`current_period_end` = the line's end). Read after the subscription moved on, the line's amount
   * over its unit amount × quantity (what Stripe computed the charge from) gives the same fraction to
   * the cent. An invoice without a proration line: its subtotal, against the list prices.
   */
  async function prorationOf(inv: Stripe.Invoice, line: Stripe.InvoiceLineItem, subscription: () => Promise<Stripe.Subscription>): Promise<ProrationBasis> {
    if (!line.parent?.subscription_item_details?.proration || line.amount <= 0) return { chargedMinor: Math.max(0, inv.subtotal) };
    const item = firstItem(await subscription());
    const span = line.period.end - line.period.start;
    if (item.current_period_end === line.period.end && item.current_period_end > item.current_period_start) {
      return { fraction: span / (item.current_period_end - item.current_period_start) };
    }
    const unit = Number(line.pricing?.unit_amount_decimal ?? NaN) * (line.quantity ?? 1);
    return unit > 0 ? { fraction: line.amount / unit } : { chargedMinor: Math.max(0, inv.subtotal) };
  }

  /** Metadata and ids of a webhook's object, for `userId` / `checkoutId` of the event. */
  function metaOf(metadata: Stripe.Metadata | null | undefined, fallbackUserId?: string | null): { userId: number | null; checkoutId: string | null } {
    return {
      userId: parseUserId(metadata?.user_id) ?? parseUserId(fallbackUserId),
      checkoutId: metadata?.checkout_id || null,
    };
  }

  /** charge.refunded → the pack order (Checkout Session of its payment intent) or the invoice it paid. */
  async function refundTarget(charge: Stripe.Charge): Promise<{ ref: WebhookObjectRef | null; metadata: Stripe.Metadata | null }> {
    const pi = idOf(charge.payment_intent);
    if (!pi) return { ref: null, metadata: null };
    const sessions = await call('list checkout sessions', () => stripe.checkout.sessions.list({ payment_intent: pi, limit: 1 }));
    const session = sessions.data[0];
    if (session && session.mode === 'payment') return { ref: { kind: 'order', id: session.id }, metadata: session.metadata };
    const payments = await call('list invoice payments', () => stripe.invoicePayments.list({ payment: { type: 'payment_intent', payment_intent: pi }, limit: 1 }));
    const invoiceId = idOf(payments.data[0]?.invoice);
    return { ref: invoiceId ? { kind: 'invoice', id: invoiceId } : null, metadata: null };
  }

  function rawHeader(headers: Record<string, string | string[] | undefined>, name: string): string | null {
    const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
    const v = key ? headers[key] : undefined;
    if (Array.isArray(v)) return v.length === 1 ? (v[0] ?? null) : null;
    return v || null;
  }

  return {
    name: 'stripe',
    currencies,

    /**
     * Creates a hosted Checkout Session (https://docs.stripe.com/api/checkout/sessions/create): a plan
     * as `mode: subscription`, a pack as `mode: payment`, one line of the configured price. Our checkout
     * id and user id ride along as metadata on the session and on the subscription / payment intent it
     * creates. The checkout id is the idempotency key, so a retried call answers the same session.
     */
    async createCheckout(req: CheckoutRequest) {
      const userId = String(req.userId);
      const item: CatalogItem = req.item.kind === 'plan' ? req.item.plan : req.item.pack;
      const mode = req.item.kind === 'plan' ? 'subscription' : 'payment';
      const base: Stripe.Checkout.SessionCreateParams = {
        line_items: [{ price: priceOf(item, req.currency), quantity: 1 }],
        // In won the Korean methods (enabled in the Dashboard) filter Stripe's dynamically eligible set
        // (`allowed_payment_method_types`, this API version's replacement of `payment_method_types`),
        // on a page in the customer's language; in dollars Stripe's dynamic payment methods apply as
        // they are, and the page follows the browser's language (Stripe's default `auto`).
        ...(req.currency === 'krw' ? { allowed_payment_method_types: krwMethods(mode), locale: req.locale } : {}),
        client_reference_id: userId,
        customer_email: req.email,
        metadata: { checkout_id: req.checkoutId, user_id: userId, kind: req.item.kind, item },
        success_url: req.successUrl,
        cancel_url: req.cancelUrl,
      };
      const params: Stripe.Checkout.SessionCreateParams = req.item.kind === 'plan'
        ? { ...base, mode: 'subscription', subscription_data: { metadata: { user_id: userId, checkout_id: req.checkoutId } } }
        : { ...base, mode: 'payment', payment_intent_data: { metadata: { checkout_id: req.checkoutId, user_id: userId, item } } };
      const session = await call('create checkout session', () => stripe.checkout.sessions.create(params, { idempotencyKey: `dewy-checkout-${req.checkoutId}` }));
      if (!session.url) throw new PaymentProviderError(`Stripe checkout session ${session.id} has no url`);
      return { url: session.url, providerCheckoutId: session.id };
    },

    /**
     * `timing: 'now'` (upgrade): releases a pending schedule, then swaps the item's price with
     * `proration_behavior: always_invoice` and `cancel_at_period_end: false`
     * (https://docs.stripe.com/billing/subscriptions/upgrade-downgrade).
     * `timing: 'next_cycle'` (downgrade): clears a scheduled cancel, then creates (or reuses) a
     * subscription schedule `from_subscription` with two phases: the current price until the current
     * period end, then `plan`'s price for one interval, `end_behavior: release`
     * (https://docs.stripe.com/billing/subscriptions/subscription-schedules). Asking for the plan already
     * billed drops a pending downgrade instead. @returns the subscription re-read after the change.
     */
    async changePlan(subscriptionId, plan, timing) {
      const sub = await retrieveSubscription(subscriptionId);
      // A plan change stays in the subscription's currency (fixed at its checkout).
      const price = priceOf(plan, currencyOf(sub.currency, `subscription ${sub.id}`));
      const item = firstItem(sub);
      let scheduleId = idOf(sub.schedule);

      if (timing === 'now') {
        if (scheduleId) await releaseSchedule(scheduleId);
        await updateSubscription(subscriptionId, {
          items: [{ id: item.id, price }],
          proration_behavior: 'always_invoice',
          cancel_at_period_end: false,
        });
        return getSubscription(subscriptionId);
      }

      if (sub.cancel_at_period_end || sub.cancel_at !== null) {
        // A schedule-managed subscription refuses cancellation updates: release it first.
        if (scheduleId) {
          await releaseSchedule(scheduleId);
          scheduleId = null;
        }
        await updateSubscription(subscriptionId, sub.cancel_at_period_end ? { cancel_at_period_end: false } : { cancel_at: '' });
      }

      if (price === item.price.id) {
        if (scheduleId) await releaseSchedule(scheduleId);
        return getSubscription(subscriptionId);
      }

      const schedule = scheduleId
        ? await scheduleOf(sub)
        : await call('create subscription schedule', () => stripe.subscriptionSchedules.create({ from_subscription: subscriptionId }));
      if (!schedule) throw new PaymentProviderError(`Stripe subscription ${subscriptionId} lost its schedule`);
      const currentStart = schedule.current_phase?.start_date ?? schedule.phases[0]?.start_date ?? item.current_period_start;
      const recurring = item.price.recurring;
      const metadata = { ...sub.metadata };
      await call('update subscription schedule', () => stripe.subscriptionSchedules.update(schedule.id, {
        end_behavior: 'release',
        proration_behavior: 'none',
        phases: [
          { items: [{ price: item.price.id, quantity: item.quantity ?? 1 }], start_date: currentStart, end_date: item.current_period_end, metadata },
          {
            items: [{ price, quantity: 1 }],
            duration: { interval: recurring?.interval ?? 'month', interval_count: recurring?.interval_count ?? 1 },
            proration_behavior: 'none',
            metadata,
          },
        ],
      }));
      return getSubscription(subscriptionId);
    },

    /**
     * Withdraws a scheduled downgrade: releases the subscription schedule that carries it
     * (https://docs.stripe.com/api/subscription_schedules/release), so the subscription keeps its
     * current price and renews on it; nothing is charged or prorated. No schedule: nothing to do.
     * `currentPlan` is not needed here (the item still bills it). @returns the subscription re-read.
     */
    async withdrawScheduledChange(subscriptionId) {
      const sub = await retrieveSubscription(subscriptionId);
      const schedule = await scheduleOf(sub);
      if (schedule && isLive(schedule)) await releaseSchedule(schedule.id);
      return getSubscription(subscriptionId);
    },

    /**
     * The hosted page of the subscription's open latest invoice (`hosted_invoice_url`,
     * https://docs.stripe.com/invoicing/hosted-invoice-page), where the customer pays it with another
     * card; null when the latest invoice is not open (nothing to fix). A billing-portal session would
     * need a portal configuration in the dashboard; the invoice page needs none (decision 030).
     */
    async updatePaymentUrl(subscriptionId) {
      const sub = await call('retrieve subscription', () => stripe.subscriptions.retrieve(subscriptionId));
      const invoiceId = idOf(sub.latest_invoice);
      if (!invoiceId) return null;
      const inv = await call('retrieve invoice', () => stripe.invoices.retrieve(invoiceId));
      return inv.status === 'open' && inv.hosted_invoice_url ? inv.hosted_invoice_url : null;
    },

    /**
     * Schedules the cancellation at the period end (`cancel_at_period_end: true`,
     * https://docs.stripe.com/billing/subscriptions/cancel). A subscription driven by a schedule refuses
     * that, so a pending schedule (a scheduled downgrade) is released first: nothing renews anyway.
     */
    async cancel(subscriptionId) {
      const sub = await retrieveSubscription(subscriptionId);
      const scheduleId = idOf(sub.schedule);
      if (scheduleId) await releaseSchedule(scheduleId);
      await updateSubscription(subscriptionId, { cancel_at_period_end: true });
      return getSubscription(subscriptionId);
    },

    /**
     * Removes a scheduled cancellation: `cancel_at_period_end: false` (or clears `cancel_at` when that is
     * what was set). A schedule set to end by cancelling is switched to `end_behavior: release` instead,
     * since Stripe refuses cancellation updates on a schedule-driven subscription.
     */
    async resume(subscriptionId) {
      const sub = await retrieveSubscription(subscriptionId);
      const schedule = await scheduleOf(sub);
      if (schedule && isLive(schedule) && schedule.end_behavior === 'cancel') {
        await call('update subscription schedule', () => stripe.subscriptionSchedules.update(schedule.id, { end_behavior: 'release' }));
        return getSubscription(subscriptionId);
      }
      const cancelSet = sub.cancel_at_period_end || sub.cancel_at !== null;
      if (schedule && isLive(schedule)) {
        if (!cancelSet) return getSubscription(subscriptionId);
        await releaseSchedule(schedule.id);
      }
      await updateSubscription(subscriptionId, !sub.cancel_at_period_end && sub.cancel_at !== null ? { cancel_at: '' } : { cancel_at_period_end: false });
      return getSubscription(subscriptionId);
    },

    /**
     * Cancels a subscription at once (`DELETE /v1/subscriptions/{id}`,
     * https://docs.stripe.com/api/subscriptions/cancel; no proration invoice: `invoice_now` and
     * `prorate` left unset). A no-op when it has already ended (`canceled`, `incomplete_expired`).
     */
    async cancelNow(subscriptionId) {
      const sub = await retrieveSubscription(subscriptionId);
      if (sub.status === 'canceled' || sub.status === 'incomplete_expired') return;
      await call('cancel subscription', () => stripe.subscriptions.cancel(subscriptionId, {}, { idempotencyKey: `dewy-cancel-now-${subscriptionId}` }));
    },

    /**
     * Refunds what is left of each paid payment of an invoice: `POST /v1/refunds {payment_intent}`
     * (https://docs.stripe.com/api/refunds/create; without an amount Stripe refunds the rest of the
     * charge), idempotent per invoice and payment intent. A no-op for an invoice that is not paid or
     * whose payments are refunded in full. Its `charge.refunded` webhook follows.
     */
    async refundInvoice(invoiceId) {
      const inv = await call('retrieve invoice', () => stripe.invoices.retrieve(invoiceId, { expand: ['payments'] }));
      if (inv.status !== 'paid') return;
      const payments = inv.payments?.data ?? (await call('list invoice payments', () => stripe.invoicePayments.list({ invoice: inv.id, limit: 100 }))).data;
      for (const p of payments) {
        const intentRef = p.payment.payment_intent;
        if (p.status !== 'paid' || !intentRef) continue;
        const { intent, charge } = await chargeOfPaymentIntent(intentRef);
        if (!charge || charge.amount_refunded >= charge.amount) continue;
        await call('create refund', () => stripe.refunds.create({ payment_intent: intent.id, metadata: { invoice_id: invoiceId, reason: 'duplicate_subscription' } }, { idempotencyKey: `dewy-refund-${invoiceId}-${intent.id}` }));
      }
    },

    /**
     * Reads a subscription (https://docs.stripe.com/api/subscriptions/retrieve, schedule expanded):
     * plan from the first item's price (a price that is not one of our plans throws
     * PaymentProviderError), `canceled` → `expired`, period bounds from the item, `nextPlan` from the
     * schedule's next phase, `userId` from `metadata.user_id`.
     */
    getSubscription,

    /**
     * Reads an invoice of a subscription (https://docs.stripe.com/api/invoices/retrieve, payments
     * expanded): `paid` (or `refunded` when its charge was refunded in part or whole, `refundedMinor`),
     * `open` (`failed` once a payment attempt was declined), `uncollectible` → `failed`, `void`; the reason
     * from `billing_reason`; plan and period from the positive plan line; the subscription and user from
     * `parent.subscription_details`; for an upgrade, its proration (`prorationOf`).
     * @throws PaymentProviderError for an invoice of no subscription.
     */
    async getInvoice(id) {
      const inv = await call('retrieve invoice', () => stripe.invoices.retrieve(id, { expand: ['payments'] }));
      const details = inv.parent?.subscription_details ?? null;
      const subscriptionId = idOf(details?.subscription);
      if (!subscriptionId) throw new PaymentProviderError(`Stripe invoice ${inv.id} is not of a subscription`);
      const { line, plan } = planLine(inv);
      const { refundedMinor, attemptFailed, method } = await invoicePaymentsState(inv);

      let status: ProviderInvoice['status'];
      switch (inv.status) {
        case 'paid': status = refundedMinor > 0 ? 'refunded' : 'paid'; break;
        case 'open': case 'draft': status = attemptFailed ? 'failed' : 'open'; break;
        case 'uncollectible': status = 'failed'; break;
        case 'void': status = 'void'; break;
        default: throw new PaymentProviderError(`unknown Stripe invoice status ${String(inv.status)}`);
      }

      let subscription: Stripe.Subscription | null = objectOf(details?.subscription);
      const readSubscription = async () => (subscription ??= await call('retrieve subscription', () => stripe.subscriptions.retrieve(subscriptionId)));
      let userId = parseUserId(details?.metadata?.user_id);
      if (userId === null) userId = parseUserId((await readSubscription()).metadata?.user_id);
      const reason = INVOICE_REASON[inv.billing_reason ?? ''] ?? 'other';
      return {
        id: inv.id,
        subscriptionId,
        userId,
        status,
        reason,
        plan,
        periodStart: toDate(line.period.start),
        periodEnd: toDate(line.period.end),
        amountMinor: inv.amount_due,
        refundedMinor,
        createdAt: toDate(inv.created),
        proration: reason === 'upgrade' ? await prorationOf(inv, line, readSubscription) : null,
        currency: currencyOf(inv.currency, `invoice ${inv.id}`),
        method,
        // Stripe's hosted invoice page carries the invoice and, once paid, its receipt.
        receiptUrl: inv.hosted_invoice_url ?? null,
      };
    },

    /**
     * Reads a pack purchase: the Checkout Session `id` (https://docs.stripe.com/api/checkout/sessions/retrieve,
     * payment intent → latest charge and line items expanded). `paid` once `payment_status` is paid,
     * `refunded` when the charge has `amount_refunded` > 0, `failed` when the session expired or its
     * (async) payment was declined, else `pending`. @throws PaymentProviderError for a session that is
     * not a one-time payment or bills no pack of ours.
     */
    async getOrder(id) {
      const s = await call('retrieve checkout session', () => stripe.checkout.sessions.retrieve(id, { expand: ['payment_intent.latest_charge', 'line_items'] }));
      if (s.mode !== 'payment') throw new PaymentProviderError(`Stripe checkout session ${s.id} is not a one-time payment`);
      const pack = packOf(s.metadata?.item) ?? packOf(s.line_items?.data[0]?.price?.id);
      if (!pack) throw new PaymentProviderError(`Stripe checkout session ${s.id} bills none of our packs`);
      const paid = s.payment_intent ? await chargeOfPaymentIntent(s.payment_intent) : null;
      const refundedMinor = paid?.charge?.amount_refunded ?? 0;
      const intentStatus = paid?.intent.status;

      let status: ProviderOrder['status'];
      if (refundedMinor > 0) status = 'refunded';
      else if (s.payment_status === 'paid' || s.payment_status === 'no_payment_required') status = 'paid';
      else if (s.status === 'expired' || intentStatus === 'canceled') status = 'failed';
      else if (s.status === 'complete' && intentStatus === 'requires_payment_method') status = 'failed';
      else status = 'pending';

      return {
        id: s.id,
        userId: parseUserId(s.client_reference_id) ?? parseUserId(s.metadata?.user_id),
        pack,
        status,
        amountMinor: s.amount_total ?? 0,
        refundedMinor,
        createdAt: toDate(s.created),
        currency: currencyOf(s.currency, `checkout session ${s.id}`),
        method: methodOf(paid?.charge ?? null),
        receiptUrl: paid?.charge?.receipt_url ?? null,
      };
    },

    /**
     * Verifies `Stripe-Signature` over the exact raw bytes with the SDK
     * (https://docs.stripe.com/webhooks#verify-events; default tolerance 300 s) and names the object to
     * re-read: Checkout Sessions → the order (payment) or the subscription (subscription mode); invoice
     * events → the invoice; customer.subscription.* → the subscription; charge.refunded → the order or
     * invoice its payment intent belongs to (looked up at Stripe). Other events → object null.
     * @throws WebhookSignatureError for a missing, wrong or stale signature; PaymentProviderError for a
     *   body that is not an event, or when the refund lookup fails.
     */
    async parseWebhook(rawBody, headers) {
      const signature = rawHeader(headers, 'stripe-signature');
      if (!signature) throw new WebhookSignatureError('missing Stripe-Signature header');
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, webhookSecret);
      } catch (e) {
        if (e instanceof Stripe.errors.StripeSignatureVerificationError) throw new WebhookSignatureError();
        throw new PaymentProviderError(redact(`stripe webhook body not understood: ${e instanceof Error ? e.message : String(e)}`, secretKey));
      }
      if (!event || typeof event.id !== 'string' || typeof event.type !== 'string' || !event.data?.object) {
        throw new PaymentProviderError('stripe webhook body is not an event');
      }

      let object: WebhookObjectRef | null = null;
      let meta: { userId: number | null; checkoutId: string | null } = { userId: null, checkoutId: null };
      switch (event.type) {
        case 'checkout.session.completed':
        case 'checkout.session.async_payment_succeeded':
        case 'checkout.session.async_payment_failed': {
          const s = event.data.object;
          meta = metaOf(s.metadata, s.client_reference_id);
          if (s.mode === 'payment') object = { kind: 'order', id: s.id };
          else if (s.mode === 'subscription') {
            const sub = idOf(s.subscription);
            object = sub ? { kind: 'subscription', id: sub } : null;
          }
          break;
        }
        case 'invoice.paid':
        case 'invoice.payment_succeeded':
        case 'invoice.payment_failed':
        case 'invoice.voided':
        case 'invoice.marked_uncollectible': {
          const inv = event.data.object;
          meta = metaOf(inv.parent?.subscription_details?.metadata);
          object = { kind: 'invoice', id: inv.id };
          break;
        }
        case 'customer.subscription.created':
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted':
        case 'customer.subscription.paused':
        case 'customer.subscription.resumed': {
          const sub = event.data.object;
          meta = metaOf(sub.metadata);
          object = { kind: 'subscription', id: sub.id };
          break;
        }
        case 'charge.refunded': {
          const charge = event.data.object;
          const target = await refundTarget(charge);
          object = target.ref;
          const fromCharge = metaOf(charge.metadata);
          const fromTarget = metaOf(target.metadata);
          meta = { userId: fromCharge.userId ?? fromTarget.userId, checkoutId: fromCharge.checkoutId ?? fromTarget.checkoutId };
          break;
        }
        default:
          break;
      }
      const parsed: WebhookEvent = { key: event.id, type: event.type, object, userId: meta.userId, checkoutId: meta.checkoutId };
      return parsed;
    },
  };
}
