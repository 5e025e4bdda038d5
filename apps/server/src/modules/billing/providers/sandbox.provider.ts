import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { and, desc, eq, sql } from 'drizzle-orm';
import { DEFAULT_PRICES, itemCredits, KRW_ONE_TIME_METHODS, KRW_SUBSCRIPTION_METHODS, SUBSCRIPTION_PLANS, type Currency, type PackId, type PaidPlan, type PaymentMethod, type PriceTable } from '@dewy/contracts';
import type { Database } from '../../../db/client';
import { sandboxObjects } from '../../../db/schema';
import {
  PaymentProviderError,
  WebhookSignatureError,
  type InvoiceReason,
  type PaymentsProvider,
  type ProviderInvoice,
  type ProviderOrder,
  type ProviderSubscription,
  type ProviderSubscriptionStatus,
  type WebhookEvent,
  type WebhookObjectRef,
} from '../payments-provider';

/**
 * The `sandbox` payments provider (GUIDE §1, decision 012): a pretend card processor living in our own
 * server and database (table `sandbox_objects`, apart from our billing tables, as a real provider's
 * store would be). It serves a hosted-checkout page (/sandbox/checkout/{id}), keeps subscriptions,
 * invoices and orders, and sends signed webhooks to the same route the real providers use
 * (`POST /api/payment/webhook`). Operators drive the lifecycle by hand (renew, failed renewal, refund,
 * expiry) with `npm run billing -- <action> <email>`; tests call the same methods.
 *
 * Test clock (decision 028), as Stripe's test clocks: every subscription keeps its own clock offset
 * (`clockOffsetMs` in its stored object). `advance` moves it forward; crossing the period end renews it
 * (or ends it when its cancel was scheduled) with the usual signed webhooks, and everything later done
 * to that subscription (proration of an upgrade, renewals, expiry) reads the advanced clock. Webhook
 * signatures stay on real time, as a provider's deliveries do.
 *
 * Signature: header `x-sandbox-signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`,
 * accepted within 300 s (Stripe's scheme). Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is
 * declined; anything else is refused as invalid.
 *
 * Currencies and methods (issue 25): a checkout is in dollars or won, charged from the price table in
 * force (`prices`). In dollars the page takes a card; in won it also offers the Korean methods Stripe
 * offers (`KRW_ONE_TIME_METHODS`; a subscription only `KRW_SUBSCRIPTION_METHODS`), each approved by a
 * press of its button as a wallet's own page would. The method is recorded on the order or invoice and
 * a subscription renews with the method it was bought with, in its own currency.
 */

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';
const TOLERANCE_S = 300;
const PERIOD_MS = 30 * 86_400_000;
export const SANDBOX_CARD_OK = '4242424242424242';
export const SANDBOX_CARD_DECLINED = '4000000000000002';

type Item = { kind: 'plan'; plan: PaidPlan } | { kind: 'pack'; pack: PackId };

interface CheckoutData {
  checkoutId: string;
  userId: number;
  email: string;
  item: Item;
  /** Absent on records older than issue 25: dollars. */
  currency?: Currency;
  successUrl: string;
  cancelUrl: string;
  failedUrl: string;
  status: 'open' | 'paid' | 'declined' | 'cancelled';
  resultId: string | null;
}
interface SubscriptionData {
  userId: number;
  checkoutId: string | null;
  plan: PaidPlan;
  nextPlan: PaidPlan | null;
  status: ProviderSubscriptionStatus;
  periodStart: string;
  periodEnd: string;
  cancelAtPeriodEnd: boolean;
  endedAt: string | null;
  createdAt: string;
  /** The renewal invoice whose payment failed and is still open (decision 030), else absent/null. */
  openInvoiceId?: string | null;
  /** Test clock: how far this subscription's time runs ahead of real time (absent = 0). */
  clockOffsetMs?: number;
  /** Its currency and the method it was bought with (absent on older records: dollars, card). */
  currency?: Currency;
  method?: PaymentMethod;
}
interface InvoiceData {
  subscriptionId: string;
  userId: number;
  status: ProviderInvoice['status'];
  reason: InvoiceReason;
  plan: PaidPlan;
  periodStart: string;
  periodEnd: string;
  amountMinor: number;
  refundedMinor: number;
  createdAt: string;
  /** Upgrade invoices: the share of the period the difference was charged for (absent on old records). */
  prorationFraction?: number;
  currency?: Currency;
  method?: PaymentMethod;
}
interface OrderData {
  userId: number;
  checkoutId: string | null;
  pack: PackId;
  status: ProviderOrder['status'];
  amountMinor: number;
  refundedMinor: number;
  createdAt: string;
  currency?: Currency;
  method?: PaymentMethod;
}
type Kind = 'checkout' | 'subscription' | 'invoice' | 'order';

/** The body of a sandbox webhook. */
export interface SandboxEventBody {
  id: string;
  type: string;
  created: number;
  object: WebhookObjectRef | null;
  user_id: number | null;
  checkout_id: string | null;
}

/** Sends one signed webhook to our webhook route. @returns the HTTP status it answered. */
export type WebhookDeliverer = (body: Buffer, headers: Record<string, string>) => Promise<number>;

export interface SandboxProvider extends PaymentsProvider {
  readonly name: 'sandbox';
  /** The hosted checkout as the page shows it; null when unknown. */
  checkoutView(id: string): Promise<{
    id: string;
    email: string;
    item: Item;
    amountMinor: number;
    currency: Currency;
    /** The methods this checkout offers, card first. */
    methods: readonly PaymentMethod[];
    credits: number;
    status: CheckoutData['status'];
    cancelUrl: string;
  } | null>;
  /**
   * The customer submits the hosted checkout: a card number with `method` `card`, or one of the
   * checkout's other methods (a wallet approves at once; `card` is then ignored). @returns where the
   * browser goes next (success, failed or back to the form with `error`; `invalid_method` for a method
   * this checkout does not offer).
   */
  pay(id: string, card: string, method?: string): Promise<{ redirect: string } | { error: 'invalid_card' | 'invalid_method' | 'not_open' }>;
  /** The customer leaves the hosted checkout. @returns the cancel URL. */
  abandon(id: string): Promise<string | null>;
  /** Starts the next period of a subscription (or ends it when a cancel was scheduled). */
  renew(subscriptionId: string): Promise<{ invoiceId: string | null; status: ProviderSubscriptionStatus }>;
  /** The next period's charge fails: an unpaid invoice and status past_due. */
  failRenewal(subscriptionId: string): Promise<{ invoiceId: string }>;
  /** A failed renewal invoice as its retry page (`/sandbox/invoice/{id}`) shows it; null when unknown. */
  invoiceView(id: string): Promise<{ id: string; plan: PaidPlan; amountMinor: number; currency: Currency; credits: number; open: boolean } | null>;
  /**
   * The customer retries a failed renewal on the sandbox's update-payment page: with the approved card
   * the invoice is paid, the subscription active again in the invoice's period (invoice.paid and
   * subscription.updated are sent); the declined card leaves it past due.
   */
  payInvoice(id: string, card: string): Promise<{ paid: true } | { error: 'invalid_card' | 'declined' | 'not_open' }>;
  /** Refunds an order or invoice in full. */
  refund(objectId: string): Promise<void>;
  /** Ends a subscription now. */
  expire(subscriptionId: string): Promise<void>;
  /**
   * Test clock: moves the subscription's time forward by `ms` (> 0). Each period end crossed renews it
   * (paid `renewal` invoice at the plan that takes over, `invoice.paid` + `subscription.updated`), or ends
   * it there when a cancel was scheduled (`subscription.deleted`); a `past_due` subscription is left for
   * the operator (renew / expire). @returns the subscription's clock after the move, the renewal
   * invoices raised and its status. @throws PaymentProviderError (409) for an ended subscription.
   */
  advance(subscriptionId: string, ms: number): Promise<{ clock: string; invoiceIds: string[]; status: ProviderSubscriptionStatus }>;
  /** The latest subscription and latest paid order/invoice of a user (for the operator CLI). */
  latestOf(userId: number): Promise<{ subscriptionId: string | null; paymentId: string | null }>;
  /** Where webhooks go (set once the server listens). */
  setDeliverer(deliver: WebhookDeliverer): void;
  /** Resolves when every webhook sent so far was delivered or given up. */
  idle(): Promise<void>;
  /** Signs a body as the sandbox does (tests forge and replay with it). */
  sign(body: Buffer, atSeconds?: number): Record<string, string>;
}

/** Most periods one `advance` may cross (a year of monthly periods and a little more). */
export const SANDBOX_MAX_ADVANCE_PERIODS = 13;
/** The subscription's own "now" on its test clock. */
const clockOf = (d: SubscriptionData) => new Date(Date.now() + (d.clockOffsetMs ?? 0));

const itemId = (item: Item) => (item.kind === 'plan' ? item.plan : item.pack);
const creditsOf = (item: Item) => itemCredits(itemId(item));

/** The methods a checkout in `currency` for `item` offers: a card in dollars; the Korean methods in won. */
export function sandboxMethods(currency: Currency, item: Item): readonly PaymentMethod[] {
  if (currency === 'usd') return ['card'];
  return item.kind === 'plan' ? KRW_SUBSCRIPTION_METHODS : KRW_ONE_TIME_METHODS;
}

/**
 * Creates the sandbox provider on our database. `secret` signs its webhooks; a declined card sends the
 * browser to the request's `failedUrl`; webhooks go through `setDeliverer` (until one is set they wait
 * in memory).
 */
export function createSandboxProvider(opts: {
  database: Database;
  secret: string;
  log?: { warn(obj: object, msg: string): void };
  /** The price table it charges (minor units); contracts' DEFAULT_PRICES when absent. */
  prices?: PriceTable;
}): SandboxProvider {
  const db = opts.database.db;
  const prices = opts.prices ?? DEFAULT_PRICES;
  const priceOf = (item: Item, currency: Currency) => prices[itemId(item)][currency];
  const planPrice = (plan: PaidPlan, currency: Currency | undefined) => prices[plan][currency ?? 'usd'];
  let deliver: WebhookDeliverer | null = null;
  const queued: Buffer[] = [];
  const inFlight = new Set<Promise<void>>();

  async function put<T>(kind: Kind, id: string, data: T) {
    await db
      .insert(sandboxObjects)
      .values({ id, kind, data })
      .onConflictDoUpdate({ target: sandboxObjects.id, set: { data, updatedAt: new Date() } });
  }
  async function get<T>(kind: Kind, id: string): Promise<T> {
    const rows = await db.select().from(sandboxObjects).where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.kind, kind)));
    if (!rows[0]) throw new PaymentProviderError(`sandbox: no ${kind} ${id}`, 404);
    return rows[0].data as T;
  }

  function sign(body: Buffer, atSeconds = Math.floor(Date.now() / 1000)): Record<string, string> {
    const v1 = createHmac('sha256', opts.secret).update(`${atSeconds}.`).update(body).digest('hex');
    return { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: `t=${atSeconds},v1=${v1}` };
  }

  async function sendOne(body: Buffer) {
    for (const waitMs of [0, 250, 1000, 3000]) {
      if (waitMs) await new Promise((r) => setTimeout(r, waitMs));
      try {
        // Signed at each attempt, as a provider does, so a retry is never outside the tolerance.
        const status = await deliver!(body, sign(body));
        if (status >= 200 && status < 300) return;
      } catch (err) {
        opts.log?.warn({ err }, 'sandbox webhook delivery failed');
      }
    }
    opts.log?.warn({}, 'sandbox webhook given up after retries');
  }
  function send(type: string, object: WebhookObjectRef | null, userId: number | null, checkoutId: string | null) {
    const body: SandboxEventBody = { id: `evt_${randomUUID()}`, type, created: Math.floor(Date.now() / 1000), object, user_id: userId, checkout_id: checkoutId };
    const raw = Buffer.from(JSON.stringify(body));
    if (!deliver) {
      queued.push(raw);
      return;
    }
    const p = sendOne(raw).finally(() => inFlight.delete(p));
    inFlight.add(p);
  }

  const toSubscription = (id: string, d: SubscriptionData): ProviderSubscription => ({
    id,
    userId: d.userId,
    plan: d.plan,
    nextPlan: d.nextPlan,
    status: d.status,
    currentPeriodStart: new Date(d.periodStart),
    currentPeriodEnd: new Date(d.periodEnd),
    cancelAtPeriodEnd: d.cancelAtPeriodEnd,
    endedAt: d.endedAt ? new Date(d.endedAt) : null,
    createdAt: new Date(d.createdAt),
    currency: d.currency ?? 'usd',
  });

  async function newInvoice(subscriptionId: string, sub: SubscriptionData, reason: InvoiceReason, status: InvoiceData['status'], amountMinor: number, prorationFraction?: number) {
    const id = `sbx_in_${randomUUID()}`;
    const inv: InvoiceData = {
      subscriptionId, userId: sub.userId, status, reason, plan: sub.plan,
      periodStart: sub.periodStart, periodEnd: sub.periodEnd, amountMinor, refundedMinor: 0, createdAt: clockOf(sub).toISOString(),
      currency: sub.currency ?? 'usd', method: sub.method ?? 'card',
      ...(prorationFraction === undefined ? {} : { prorationFraction }),
    };
    await put('invoice', id, inv);
    return id;
  }

  async function mutateSubscription(id: string, fn: (d: SubscriptionData) => void, event = 'subscription.updated') {
    const d = await get<SubscriptionData>('subscription', id);
    if (d.status === 'expired') throw new PaymentProviderError(`sandbox: subscription ${id} has ended`, 409);
    fn(d);
    await put('subscription', id, d);
    send(event, { kind: 'subscription', id }, d.userId, d.checkoutId);
    return toSubscription(id, d);
  }

  /**
   * Moves `d` (stored as `id`) into its next period starting at `start`, or ends it there when its cancel
   * was scheduled, and sends the webhooks. Mutates `d`. @returns the renewal invoice id, or null when ended.
   */
  async function startNextPeriod(id: string, d: SubscriptionData, start: Date): Promise<string | null> {
    if (d.cancelAtPeriodEnd) {
      d.status = 'expired';
      d.endedAt = start.toISOString();
      await put('subscription', id, d);
      send('subscription.deleted', { kind: 'subscription', id }, d.userId, d.checkoutId);
      return null;
    }
    d.plan = d.nextPlan ?? d.plan;
    d.nextPlan = null;
    d.status = 'active';
    d.openInvoiceId = null;
    d.periodStart = start.toISOString();
    d.periodEnd = new Date(start.getTime() + PERIOD_MS).toISOString();
    await put('subscription', id, d);
    const invoiceId = await newInvoice(id, d, 'renewal', 'paid', planPrice(d.plan, d.currency));
    send('invoice.paid', { kind: 'invoice', id: invoiceId }, d.userId, d.checkoutId);
    send('subscription.updated', { kind: 'subscription', id }, d.userId, d.checkoutId);
    return invoiceId;
  }

  return {
    name: 'sandbox',
    currencies: ['usd', 'krw'],

    async createCheckout(req) {
      const id = `sbx_co_${randomUUID()}`;
      const data: CheckoutData = {
        checkoutId: req.checkoutId, userId: req.userId, email: req.email, item: req.item, currency: req.currency,
        successUrl: req.successUrl, cancelUrl: req.cancelUrl, failedUrl: req.failedUrl ?? req.cancelUrl, status: 'open', resultId: null,
      };
      await put('checkout', id, data);
      return { url: `/sandbox/checkout/${id}`, providerCheckoutId: id };
    },

    async checkoutView(id) {
      const d = await get<CheckoutData>('checkout', id).catch(() => null);
      if (!d) return null;
      const currency = d.currency ?? 'usd';
      return { id, email: d.email, item: d.item, amountMinor: priceOf(d.item, currency), currency, methods: sandboxMethods(currency, d.item), credits: creditsOf(d.item), status: d.status, cancelUrl: d.cancelUrl };
    },

    async pay(id, cardInput, methodInput = 'card') {
      const card = cardInput.replace(/[\s-]/g, '');
      const open = await get<CheckoutData>('checkout', id).catch(() => null);
      if (!open) return { error: 'not_open' };
      const method = sandboxMethods(open.currency ?? 'usd', open.item).find((m) => m === methodInput);
      if (!method) return { error: 'invalid_method' };
      if (method === 'card' && card !== SANDBOX_CARD_OK && card !== SANDBOX_CARD_DECLINED) return { error: 'invalid_card' };
      if (method === 'card' && card === SANDBOX_CARD_DECLINED) {
        // As at Stripe, a declined card leaves the checkout open for another card (decision 029: the
        // same plan's open checkout is handed back to a second request).
        if (open.status !== 'open') return { error: 'not_open' };
        return { redirect: open.failedUrl };
      }
      // One transition out of `open`, even when Pay is pressed twice at once.
      const claimed = await db
        .update(sandboxObjects)
        .set({ data: sql`jsonb_set(${sandboxObjects.data}, '{status}', '"paid"'::jsonb)`, updatedAt: new Date() })
        .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.kind, 'checkout'), sql`${sandboxObjects.data}->>'status' = 'open'`))
        .returning();
      if (!claimed[0]) return { error: 'not_open' };
      const co = claimed[0].data as CheckoutData;
      const currency = co.currency ?? 'usd';
      const now = new Date();
      if (co.item.kind === 'pack') {
        const orderId = `sbx_or_${randomUUID()}`;
        await put<OrderData>('order', orderId, {
          userId: co.userId, checkoutId: co.checkoutId, pack: co.item.pack, status: 'paid', amountMinor: priceOf(co.item, currency), refundedMinor: 0, createdAt: now.toISOString(), currency, method,
        });
        await put('checkout', id, { ...co, resultId: orderId });
        send('order.paid', { kind: 'order', id: orderId }, co.userId, co.checkoutId);
      } else {
        const subId = `sbx_sub_${randomUUID()}`;
        const sub: SubscriptionData = {
          userId: co.userId, checkoutId: co.checkoutId, plan: co.item.plan, nextPlan: null, status: 'active',
          periodStart: now.toISOString(), periodEnd: new Date(now.getTime() + PERIOD_MS).toISOString(), cancelAtPeriodEnd: false, endedAt: null, createdAt: now.toISOString(),
          currency, method,
        };
        await put('subscription', subId, sub);
        const invoiceId = await newInvoice(subId, sub, 'initial', 'paid', priceOf(co.item, currency));
        await put('checkout', id, { ...co, resultId: subId });
        send('subscription.created', { kind: 'subscription', id: subId }, co.userId, co.checkoutId);
        send('invoice.paid', { kind: 'invoice', id: invoiceId }, co.userId, co.checkoutId);
      }
      return { redirect: co.successUrl };
    },

    async abandon(id) {
      const d = await get<CheckoutData>('checkout', id).catch(() => null);
      if (!d) return null;
      // Leaving the page does not close the checkout (as at Stripe): it can still be paid until it is stale.
      return d.cancelUrl;
    },

    async changePlan(id, plan, timing) {
      const before = await get<SubscriptionData>('subscription', id);
      if (timing === 'next_cycle') {
        return mutateSubscription(id, (d) => {
          d.nextPlan = plan === d.plan ? null : plan;
          d.cancelAtPeriodEnd = false;
        });
      }
      if (before.status === 'expired') throw new PaymentProviderError(`sandbox: subscription ${id} has ended`, 409);
      // Already billing this plan (as at Stripe, swapping to the same price prorates nothing).
      if (plan === before.plan) return mutateSubscription(id, (d) => { d.nextPlan = null; d.cancelAtPeriodEnd = false; });
      // Upgrade now: charge the price difference for the unused part of the period, on its test clock.
      const start = new Date(before.periodStart).getTime();
      const end = new Date(before.periodEnd).getTime();
      const left = Math.max(0, Math.min(1, (end - clockOf(before).getTime()) / (end - start)));
      const diffMinor = Math.max(0, Math.round((planPrice(plan, before.currency) - planPrice(before.plan, before.currency)) * left));
      // One switch away from the plan read, even when the change is requested many times at once: the
      // losers find the plan already switched and charge nothing (a provider serialises changes to one
      // subscription the same way).
      const switched = await db
        .update(sandboxObjects)
        .set({ data: sql`${sandboxObjects.data} || jsonb_build_object('plan', ${plan}::text, 'nextPlan', null, 'cancelAtPeriodEnd', false)`, updatedAt: new Date() })
        .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.kind, 'subscription'), sql`${sandboxObjects.data}->>'plan' = ${before.plan}`, sql`${sandboxObjects.data}->>'status' <> 'expired'`))
        .returning();
      if (!switched[0]) return toSubscription(id, await get<SubscriptionData>('subscription', id));
      const after = switched[0].data as SubscriptionData;
      send('subscription.updated', { kind: 'subscription', id }, after.userId, after.checkoutId);
      const invoiceId = await newInvoice(id, after, 'upgrade', 'paid', diffMinor, left);
      send('invoice.paid', { kind: 'invoice', id: invoiceId }, after.userId, after.checkoutId);
      return toSubscription(id, after);
    },

    async cancelNow(id) {
      const d = await get<SubscriptionData>('subscription', id);
      if (d.status === 'expired') return;
      await mutateSubscription(id, (x) => {
        x.status = 'expired';
        x.endedAt = clockOf(x).toISOString();
        x.cancelAtPeriodEnd = false;
      }, 'subscription.deleted');
    },

    async refundInvoice(id) {
      const d = await get<InvoiceData>('invoice', id);
      if (d.status !== 'paid' || d.amountMinor <= d.refundedMinor) return;
      await put('invoice', id, { ...d, status: 'refunded', refundedMinor: d.amountMinor });
      send('invoice.refunded', { kind: 'invoice', id }, d.userId, null);
    },

    // The sandbox keeps the downgrade as `nextPlan` beside the billed plan: clearing it is the withdrawal.
    withdrawScheduledChange: (id) => mutateSubscription(id, (d) => { d.nextPlan = null; }),

    async updatePaymentUrl(id) {
      const d = await get<SubscriptionData>('subscription', id);
      return d.status !== 'expired' && d.openInvoiceId ? `/sandbox/invoice/${d.openInvoiceId}` : null;
    },

    async invoiceView(id) {
      const inv = await get<InvoiceData>('invoice', id).catch(() => null);
      if (!inv) return null;
      return { id, plan: inv.plan, amountMinor: inv.amountMinor, currency: inv.currency ?? 'usd', credits: SUBSCRIPTION_PLANS[inv.plan].credits, open: inv.status === 'failed' || inv.status === 'open' };
    },

    async payInvoice(id, cardInput) {
      const card = cardInput.replace(/[\s-]/g, '');
      if (card !== SANDBOX_CARD_OK && card !== SANDBOX_CARD_DECLINED) return { error: 'invalid_card' };
      const inv = await get<InvoiceData>('invoice', id).catch(() => null);
      if (!inv || (inv.status !== 'failed' && inv.status !== 'open')) return { error: 'not_open' };
      if (card === SANDBOX_CARD_DECLINED) return { error: 'declined' };
      // One transition out of failed/open, even when Pay is pressed twice at once.
      const claimed = await db
        .update(sandboxObjects)
        .set({ data: sql`jsonb_set(${sandboxObjects.data}, '{status}', '"paid"'::jsonb)`, updatedAt: new Date() })
        .where(and(eq(sandboxObjects.id, id), eq(sandboxObjects.kind, 'invoice'), sql`${sandboxObjects.data}->>'status' in ('failed', 'open')`))
        .returning();
      if (!claimed[0]) return { error: 'not_open' };
      const sub = await get<SubscriptionData>('subscription', inv.subscriptionId);
      if (sub.status !== 'expired') {
        sub.plan = inv.plan;
        sub.nextPlan = null;
        sub.status = 'active';
        sub.periodStart = inv.periodStart;
        sub.periodEnd = inv.periodEnd;
        sub.openInvoiceId = null;
        await put('subscription', inv.subscriptionId, sub);
      }
      send('invoice.paid', { kind: 'invoice', id }, inv.userId, sub.checkoutId);
      send('subscription.updated', { kind: 'subscription', id: inv.subscriptionId }, inv.userId, sub.checkoutId);
      return { paid: true };
    },

    cancel: (id) => mutateSubscription(id, (d) => { d.cancelAtPeriodEnd = true; }),
    resume: (id) => mutateSubscription(id, (d) => { d.cancelAtPeriodEnd = false; }),

    async getSubscription(id) {
      return toSubscription(id, await get<SubscriptionData>('subscription', id));
    },
    async getInvoice(id) {
      const d = await get<InvoiceData>('invoice', id);
      return {
        id, subscriptionId: d.subscriptionId, userId: d.userId, status: d.status, reason: d.reason, plan: d.plan,
        periodStart: new Date(d.periodStart), periodEnd: new Date(d.periodEnd), amountMinor: d.amountMinor, refundedMinor: d.refundedMinor, createdAt: new Date(d.createdAt),
        // The sandbox records the share of the period it charged; an older record without it falls
        // back to its amount against the list-price difference.
        proration: d.reason !== 'upgrade' ? null : d.prorationFraction !== undefined ? { fraction: d.prorationFraction } : { chargedMinor: d.amountMinor },
        currency: d.currency ?? 'usd', method: d.method ?? 'card', receiptUrl: null,
      };
    },
    async getOrder(id) {
      const d = await get<OrderData>('order', id);
      return {
        id, userId: d.userId, pack: d.pack, status: d.status, amountMinor: d.amountMinor, refundedMinor: d.refundedMinor, createdAt: new Date(d.createdAt),
        currency: d.currency ?? 'usd', method: d.method ?? 'card', receiptUrl: null,
      };
    },

    async parseWebhook(raw, headers) {
      const header = headers[SANDBOX_SIGNATURE_HEADER];
      const value = Array.isArray(header) ? header[0] : header;
      const m = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(value ?? '');
      if (!m) throw new WebhookSignatureError('missing or malformed sandbox signature');
      const t = Number(m[1]);
      if (Math.abs(Date.now() / 1000 - t) > TOLERANCE_S) throw new WebhookSignatureError('sandbox signature outside the tolerance');
      const expected = createHmac('sha256', opts.secret).update(`${t}.`).update(raw).digest();
      if (!timingSafeEqual(expected, Buffer.from(m[2]!, 'hex'))) throw new WebhookSignatureError();
      let body: SandboxEventBody;
      try {
        body = JSON.parse(raw.toString('utf8')) as SandboxEventBody;
      } catch {
        throw new PaymentProviderError('sandbox: webhook body is not JSON', 400);
      }
      if (typeof body.id !== 'string' || typeof body.type !== 'string') throw new PaymentProviderError('sandbox: webhook body lacks id/type', 400);
      const ev: WebhookEvent = {
        key: body.id,
        type: body.type,
        object: body.object && ['order', 'invoice', 'subscription'].includes(body.object.kind) && typeof body.object.id === 'string' ? body.object : null,
        userId: Number.isSafeInteger(body.user_id) && (body.user_id as number) > 0 ? body.user_id : null,
        checkoutId: typeof body.checkout_id === 'string' ? body.checkout_id : null,
      };
      return ev;
    },

    async renew(id) {
      const d = await get<SubscriptionData>('subscription', id);
      if (d.status === 'expired') throw new PaymentProviderError(`sandbox: subscription ${id} has ended`, 409);
      // By hand the next period starts now (on the subscription's clock), ahead of its period end.
      const invoiceId = await startNextPeriod(id, d, clockOf(d));
      return { invoiceId, status: d.status };
    },

    async advance(id, ms) {
      if (!Number.isSafeInteger(ms) || ms <= 0) throw new PaymentProviderError('sandbox: the clock only moves forward', 400);
      const d = await get<SubscriptionData>('subscription', id);
      if (d.status === 'expired') throw new PaymentProviderError(`sandbox: subscription ${id} has ended`, 409);
      d.clockOffsetMs = (d.clockOffsetMs ?? 0) + ms;
      await put('subscription', id, d);
      const invoiceIds: string[] = [];
      // Each period end the clock passed, in order: the next period starts exactly there.
      for (let i = 0; i < SANDBOX_MAX_ADVANCE_PERIODS && d.status === 'active' && new Date(d.periodEnd) <= clockOf(d); i++) {
        const invoiceId = await startNextPeriod(id, d, new Date(d.periodEnd));
        if (invoiceId) invoiceIds.push(invoiceId);
      }
      return { clock: clockOf(d).toISOString(), invoiceIds, status: d.status };
    },

    async failRenewal(id) {
      const d = await get<SubscriptionData>('subscription', id);
      if (d.status === 'expired') throw new PaymentProviderError(`sandbox: subscription ${id} has ended`, 409);
      const now = clockOf(d);
      const next = { ...d, plan: d.nextPlan ?? d.plan, periodStart: now.toISOString(), periodEnd: new Date(now.getTime() + PERIOD_MS).toISOString() };
      const invoiceId = await newInvoice(id, next, 'renewal', 'failed', planPrice(next.plan, next.currency));
      d.status = 'past_due';
      d.openInvoiceId = invoiceId;
      await put('subscription', id, d);
      send('invoice.payment_failed', { kind: 'invoice', id: invoiceId }, d.userId, d.checkoutId);
      send('subscription.updated', { kind: 'subscription', id }, d.userId, d.checkoutId);
      return { invoiceId };
    },

    async refund(objectId) {
      if (objectId.startsWith('sbx_or_')) {
        const d = await get<OrderData>('order', objectId);
        if (d.status !== 'paid') throw new PaymentProviderError(`sandbox: order ${objectId} is ${d.status}`, 409);
        await put('order', objectId, { ...d, status: 'refunded', refundedMinor: d.amountMinor });
        send('order.refunded', { kind: 'order', id: objectId }, d.userId, d.checkoutId);
      } else {
        const d = await get<InvoiceData>('invoice', objectId);
        if (d.status !== 'paid') throw new PaymentProviderError(`sandbox: invoice ${objectId} is ${d.status}`, 409);
        await put('invoice', objectId, { ...d, status: 'refunded', refundedMinor: d.amountMinor });
        send('invoice.refunded', { kind: 'invoice', id: objectId }, d.userId, null);
      }
    },

    async expire(id) {
      await mutateSubscription(id, (d) => {
        d.status = 'expired';
        d.endedAt = clockOf(d).toISOString();
        d.cancelAtPeriodEnd = false;
      }, 'subscription.deleted');
    },

    async latestOf(userId) {
      const rows = await db
        .select({ id: sandboxObjects.id, kind: sandboxObjects.kind, data: sandboxObjects.data })
        .from(sandboxObjects)
        .where(sql`${sandboxObjects.data}->>'userId' = ${String(userId)} and ${sandboxObjects.kind} in ('subscription','order','invoice')`)
        .orderBy(desc(sandboxObjects.createdAt), desc(sandboxObjects.id));
      const sub = rows.find((r) => r.kind === 'subscription');
      const paid = rows.find((r) => (r.kind === 'order' || r.kind === 'invoice') && (r.data as { status: string }).status === 'paid' && (r.data as { amountMinor: number }).amountMinor > 0);
      return { subscriptionId: sub?.id ?? null, paymentId: paid?.id ?? null };
    },

    setDeliverer(fn) {
      deliver = fn;
      for (const raw of queued.splice(0)) {
        const p = sendOne(raw).finally(() => inFlight.delete(p));
        inFlight.add(p);
      }
    },
    async idle() {
      while (inFlight.size) await Promise.allSettled([...inFlight]);
    },
    sign,
  };
}
