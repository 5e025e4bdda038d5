import type { Currency, PackId, PaidPlan, PriceTable, SubscriptionStatus } from '@dewy/contracts';

/**
 * The payments interface, shaped by what Dewy does with money (GUIDE §3a): start a hosted checkout for
 * a plan or a pack, change / cancel / resume a subscription, read the provider's objects back, and
 * verify + parse a webhook. Adapters: `sandbox` (our own hosted checkout, the embedded default),
 * `lemonsqueezy`, `stripe`, `paddle`. The billing service never sees a provider's raw shapes: every adapter maps
 * its objects onto the normalised ones below.
 *
 * Webhook rule (docs/decisions/012-billing.md): an event only names which object changed; the billing
 * service re-reads that object with `getOrder` / `getInvoice` / `getSubscription` and acts on what the
 * provider says now, so a replayed, duplicated or out-of-order event can never grant anything extra.
 */

export type ProviderName = 'sandbox' | 'lemonsqueezy' | 'stripe' | 'paddle';

/**
 * Normalised subscription statuses: the contracts' SUBSCRIPTION_STATUSES (declared once there) but
 * `cancelled`, which a provider says with `cancelAtPeriodEnd`. `expired` = the subscription has ended
 * (Stripe `canceled`, LS `expired`).
 */
export type ProviderSubscriptionStatus = Exclude<SubscriptionStatus, 'cancelled'>;

/** A subscription as the provider holds it now. */
export interface ProviderSubscription {
  /** Provider's subscription id. */
  id: string;
  /** Our user id carried by the checkout (custom data / client_reference_id / metadata); null if absent. */
  userId: number | null;
  /** Plan billed in the current period (mapped from the price / variant id). */
  plan: PaidPlan;
  /** Plan that takes over at the next renewal (a scheduled downgrade); null when none. */
  nextPlan: PaidPlan | null;
  status: ProviderSubscriptionStatus;
  currentPeriodStart: Date;
  /** Next renewal, or the end when a cancel is scheduled. */
  currentPeriodEnd: Date;
  /** A cancellation is scheduled at `currentPeriodEnd` (LS `cancelled`, Stripe `cancel_at_period_end`). */
  cancelAtPeriodEnd: boolean;
  /** When it ended (status `expired`), else null. */
  endedAt: Date | null;
  createdAt: Date;
  /** The currency it bills in (fixed at its checkout). */
  currency: Currency;
}

/**
 * What a receipt needs from a paid object, in the provider's words (issue 25): how it was paid
 * (`card`, `kr_card`, `kakao_pay`, `naver_pay`, `payco`, `samsung_pay` …; null when it does not say)
 * and the provider's own receipt or invoice page (null: the billing history links our receipt page).
 */
export interface PaymentDetails {
  currency: Currency;
  method: string | null;
  receiptUrl: string | null;
}

/** Why an invoice of a subscription was raised. */
export type InvoiceReason = 'initial' | 'renewal' | 'upgrade' | 'other';

/**
 * What an upgrade invoice says about its proration (decision 028), in the terms the provider's own
 * invoice shape allows:
 * - `fraction`: the share of the billing period the price difference was charged for, in [0, 1]
 *   (sandbox: recorded at the change; Stripe: the proration line's `period` over the subscription
 *   period it falls in);
 * - `chargedMinor`: only the amount charged (minor units) for the difference before tax and discount is known
 *   (Lemon Squeezy: its invoice has no period), to be set against the list prices of the two plans by
 *   {@link chargedFraction}.
 */
export type ProrationBasis = { fraction: number } | { chargedMinor: number };

/** One billed period (or proration) of a subscription. */
export interface ProviderInvoice extends PaymentDetails {
  id: string;
  subscriptionId: string;
  userId: number | null;
  /** `refunded` covers full and partial refunds (`refundedMinor` says how much). */
  status: 'paid' | 'open' | 'failed' | 'refunded' | 'void';
  reason: InvoiceReason;
  /** The plan this invoice bills (after an upgrade: the new plan). */
  plan: PaidPlan;
  periodStart: Date;
  periodEnd: Date;
  amountMinor: number;
  refundedMinor: number;
  createdAt: Date;
  /** `reason: 'upgrade'`: what the invoice says about its proration; null for every other invoice. */
  proration: ProrationBasis | null;
}

/**
 * The fraction of the billing period an upgrade invoice charged the plan difference for, clamped to
 * [0, 1] (decision 028): the basis's `fraction` as is, or for an amount basis the amount charged over
 * the list-price difference `fromPlan` → `toPlan` in the invoice's currency (minor units, the price
 * table in force, contracts' `DEFAULT_PRICES` unless configured). An invoice without a basis (an old
 * record) falls back to its `amountMinor` on that same difference. A non-positive list difference, or a
 * value that is not a finite number, gives 0: nothing is granted.
 */
export function chargedFraction(
  inv: Pick<ProviderInvoice, 'proration' | 'amountMinor' | 'currency'>,
  fromPlan: PaidPlan,
  toPlan: PaidPlan,
  prices: PriceTable,
): number {
  const basis = inv.proration ?? { chargedMinor: inv.amountMinor };
  let f: number;
  if ('fraction' in basis) f = basis.fraction;
  else {
    const diff = prices[toPlan][inv.currency] - prices[fromPlan][inv.currency];
    f = diff > 0 ? basis.chargedMinor / diff : 0;
  }
  return Number.isFinite(f) ? Math.min(1, Math.max(0, f)) : 0;
}

/** A one-time purchase (credit pack). */
export interface ProviderOrder extends PaymentDetails {
  id: string;
  userId: number | null;
  pack: PackId;
  status: 'pending' | 'paid' | 'failed' | 'refunded';
  amountMinor: number;
  refundedMinor: number;
  createdAt: Date;
}

/** Which object a verified webhook event is about. */
export type WebhookObjectRef =
  | { kind: 'order'; id: string }
  | { kind: 'invoice'; id: string }
  | { kind: 'subscription'; id: string };

/** A verified, parsed webhook event. */
export interface WebhookEvent {
  /**
   * Unique key of this delivery's event, recorded under a unique constraint with its effect: the
   * provider's event id (Stripe `evt_…`, sandbox), or for Lemon Squeezy (no event id) the event name +
   * object id + the object's own `updated_at` / invoice id.
   */
  key: string;
  /** Provider's event name (e.g. `invoice.paid`, `subscription_payment_success`). */
  type: string;
  /** The object to re-read, or null for events we do not act on (recorded and acknowledged). */
  object: WebhookObjectRef | null;
  /** Our user id from the signed payload (LS `meta.custom_data.user_id`), used when the object lacks it. */
  userId: number | null;
  /** Checkout this event completes, when the payload says (our checkout id from custom data / metadata). */
  checkoutId: string | null;
}

export interface CheckoutRequest {
  /** Our checkout id (recorded before the provider is called); carried as custom data / metadata. */
  checkoutId: string;
  userId: number;
  email: string;
  item: { kind: 'plan'; plan: PaidPlan } | { kind: 'pack'; pack: PackId };
  /** The currency the customer chose; one of the provider's `currencies`. */
  currency: Currency;
  /** The customer's language, for the hosted page where the provider takes one. */
  locale: 'ko' | 'en';
  /** Absolute URLs the hosted checkout returns to. */
  successUrl: string;
  cancelUrl: string;
  /** Where a declined payment sends the browser, for providers that leave their page on a decline. */
  failedUrl?: string;
}

export interface PaymentsProvider {
  readonly name: ProviderName;
  /** The currencies a checkout can be opened in, first the default (Lemon Squeezy: USD only). */
  readonly currencies: readonly Currency[];
  /**
   * Creates a hosted checkout. @returns the URL the browser goes to and the provider's id of it.
   * @throws PaymentProviderError when the provider refuses or cannot be reached.
   */
  createCheckout(req: CheckoutRequest): Promise<{ url: string; providerCheckoutId: string }>;
  /**
   * Upgrade (`timing: 'now'`): switch the plan at once and invoice the prorated difference immediately
   * (Stripe `proration_behavior: 'always_invoice'`, LS `invoice_immediately: true`).
   * Downgrade (`timing: 'next_cycle'`): the current period keeps its plan; the next renewal bills `plan`
   * (Stripe subscription schedule phase, LS variant change without proration). Also clears a scheduled
   * cancellation when one is set. @returns the subscription after the change.
   */
  changePlan(subscriptionId: string, plan: PaidPlan, timing: 'now' | 'next_cycle'): Promise<ProviderSubscription>;
  /**
   * Withdraws a scheduled downgrade before the next cycle: the next renewal bills `currentPlan` (the
   * plan billed and credited this period) again, with no charge and no proration now (sandbox: the next
   * plan cleared; Stripe: the subscription schedule released; Lemon Squeezy: the variant switched back
   * with `disable_prorations`). A no-op at the provider when nothing is scheduled.
   * @returns the subscription after the change. @throws PaymentProviderError.
   */
  withdrawScheduledChange(subscriptionId: string, currentPlan: PaidPlan): Promise<ProviderSubscription>;
  /**
   * Where the customer fixes a failed payment of this subscription: Lemon Squeezy's subscription
   * `urls.update_payment_method`, Stripe's `hosted_invoice_url` of the open latest invoice, the
   * sandbox's own retry page for its open invoice (absolute, or a path on our site). Null when the
   * provider has none (nothing open). @throws PaymentProviderError.
   */
  updatePaymentUrl(subscriptionId: string): Promise<string | null>;
  /**
   * A fresh link to the provider's own receipt of a paid order or invoice, for providers whose links
   * expire and so cannot be stored with the payment (Paddle's invoice PDF: about an hour). Absent on
   * providers that give a lasting URL with the object (`receiptUrl`) or none.
   * @returns the URL, or null when the provider has none for it (not completed). @throws PaymentProviderError.
   */
  freshReceiptUrl?(kind: 'order' | 'invoice', id: string): Promise<string | null>;
  /** Schedules the cancellation at the period end (resumable until then). */
  cancel(subscriptionId: string): Promise<ProviderSubscription>;
  /** Removes a scheduled cancellation. */
  resume(subscriptionId: string): Promise<ProviderSubscription>;
  /**
   * Ends a subscription at once, for a duplicate the billing service refuses (decision 029): Stripe
   * cancels it now (`DELETE /v1/subscriptions/:id`), the sandbox ends it now; Lemon Squeezy has no
   * immediate end in its API, so its subscription is cancelled and runs out at its period end (it
   * never renews; its invoice is refunded with `refundInvoice`). A no-op on a subscription already
   * ended (LS: already cancelled). @throws PaymentProviderError when the provider refuses or cannot be reached.
   */
  cancelNow(subscriptionId: string): Promise<void>;
  /**
   * Refunds what is left of a paid subscription invoice, in full, at the provider (Stripe: a refund of
   * the invoice's payment intent; LS: `POST /v1/subscription-invoices/:id/refund`; sandbox: the
   * invoice refunded). Its refund webhook follows as for any refund. A no-op when nothing paid is left
   * to refund. @throws PaymentProviderError when the provider refuses or cannot be reached.
   */
  refundInvoice(invoiceId: string): Promise<void>;
  getSubscription(id: string): Promise<ProviderSubscription>;
  getInvoice(id: string): Promise<ProviderInvoice>;
  getOrder(id: string): Promise<ProviderOrder>;
  /**
   * Verifies the signature over the exact raw body and parses the event.
   * @throws WebhookSignatureError when the signature is missing, wrong or (where the scheme has a
   *   timestamp) outside the tolerance; PaymentProviderError when the payload is not understood.
   */
  parseWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<WebhookEvent>;
}

/** The provider refused, failed or could not be reached. The message is for logs, never for the page. */
export class PaymentProviderError extends Error {
  constructor(message: string, readonly status?: number) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}

/** A webhook's signature did not verify. */
export class WebhookSignatureError extends Error {
  constructor(message = 'invalid webhook signature') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}
