import { z } from 'zod';
import { CREDIT_PACKS, SUBSCRIPTION_PLANS } from './constants';

/**
 * Billing contracts (spec 000 §3/§4/§7/§8, 001 §3/§4/§7): the paid plans, the packs, the requests of
 * the payment calls and the shapes they answer. The server and the page both import these.
 */

/** Paid monthly plans in ascending order (spec 000 §4: basic < deluxe < premium). */
export const PAID_PLANS = ['basic', 'deluxe', 'premium'] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];

/** One-time credit packs. */
export const PACK_IDS = ['package1', 'package2', 'package3', 'package4', 'package5'] as const;
export type PackId = (typeof PACK_IDS)[number];

/** Position of a paid plan in the order basic < deluxe < premium (0-based). */
export function planRank(plan: PaidPlan): number {
  return PAID_PLANS.indexOf(plan);
}

/** Monthly credits of a paid plan. */
export function planCredits(plan: PaidPlan): number {
  return SUBSCRIPTION_PLANS[plan].credits;
}

/** Credits a pack grants. */
export function packCredits(pack: PackId): number {
  return CREDIT_PACKS[pack].credits;
}

export const PaidPlanSchema = z.enum(PAID_PLANS);
export const PackIdSchema = z.enum(PACK_IDS);

/** POST /api/payment/change-plan (a plan change stays in the subscription's currency). */
export const PlanRequestSchema = z.object({ plan: PaidPlanSchema }).strict();
/**
 * POST /api/payment/checkout. `currency` (ours, issue 25) is the currency the customer chose on the
 * pricing page; absent, the server picks the language's (won in Korean, dollars in English) when the
 * provider takes it. A subscription keeps it for its whole life.
 */
export const PlanCheckoutRequestSchema = z.object({ plan: PaidPlanSchema, currency: z.enum(['usd', 'krw']).optional() }).strict();
/** POST /api/payment/credit-checkout, with the same optional `currency`. */
export const PackRequestSchema = z.object({ package: PackIdSchema, currency: z.enum(['usd', 'krw']).optional() }).strict();

/**
 * The answers of the payment calls are zod schemas, declared on their routes (`response`), so that the
 * OpenAPI document and the page's types carry them (decision 038); the types are inferred from them.
 */

/** Answer of the two checkout calls: the browser navigates to `checkout_url`. */
export const CheckoutResponseSchema = z.object({
  success: z.literal(true),
  checkout_url: z.string(),
  /** Our checkout id: the return and success pages ask `GET /api/payment/checkout/{id}` for the truth. */
  checkoutId: z.string(),
});
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

/** State of one checkout as our server knows it (not as the return URL claims). */
export const CHECKOUT_STATES = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type CheckoutState = (typeof CHECKOUT_STATES)[number];

/** GET /api/payment/checkout/{id} (own checkouts only). */
export const CheckoutStatusResponseSchema = z.object({
  success: z.literal(true),
  checkoutId: z.string(),
  status: z.enum(CHECKOUT_STATES),
  kind: z.enum(['plan', 'pack']),
  plan: PaidPlanSchema.nullable(),
  package: PackIdSchema.nullable(),
  /** Credits the purchase granted (0 until completed). */
  creditsGranted: z.number(),
});
export type CheckoutStatusResponse = z.infer<typeof CheckoutStatusResponseSchema>;

/** POST /api/payment/change-plan */
export const ChangePlanResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** `upgrade`: applied now, prorated, difference in credits granted; `downgrade`: from the next cycle. */
  change: z.enum(['upgrade', 'downgrade']),
  plan: PaidPlanSchema,
  nextPlan: PaidPlanSchema.nullable(),
  /** True when the change removed a scheduled cancellation (spec 000 §2 plan-change modal). */
  cancelScheduleRemoved: z.boolean(),
});
export type ChangePlanResponse = z.infer<typeof ChangePlanResponseSchema>;

/**
 * Provider subscription statuses as the page shows them (001 §4 list 4), plus `cancelled` (a cancel is
 * scheduled, still running until `ends_at`) and `expired` (ended).
 */
export const SUBSCRIPTION_STATUSES = ['active', 'past_due', 'paused', 'trialing', 'incomplete', 'incomplete_expired', 'unpaid', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * Statuses in which a payment of the subscription failed and the customer has to act (update the card
 * or pay the open invoice): the page shows the payment banner and the provider's update-payment link,
 * and the server mails the customer once per failed invoice (decision 030). Declared once, here.
 */
export const PAYMENT_ISSUE_STATUSES = ['past_due', 'unpaid', 'incomplete'] as const satisfies readonly SubscriptionStatus[];
export type PaymentIssueStatus = (typeof PAYMENT_ISSUE_STATUSES)[number];

/** Whether a subscription status means a failed payment the customer has to fix. */
export function isPaymentIssueStatus(status: SubscriptionStatus | null | undefined): status is PaymentIssueStatus {
  return (PAYMENT_ISSUE_STATUSES as readonly string[]).includes(status ?? '');
}

const PlanOrFreeSchema = z.union([z.literal('free'), PaidPlanSchema]);

/** The subscription-related user fields (spec 000 §3, 001 §3). Dates are ISO strings. */
export const SubscriptionUserFieldsSchema = z.object({
  plan: PlanOrFreeSchema,
  cancelled_at: z.string().nullable(),
  subscription_end_date: z.string().nullable(),
  next_renewal_date: z.string().nullable(),
  subscriptionId: z.string().nullable(),
});
export type SubscriptionUserFields = z.infer<typeof SubscriptionUserFieldsSchema>;

/** GET /api/payment/subscription-status (000 §3/§7, 001 §3). */
export const SubscriptionStatusResponseSchema = z.object({
  success: z.literal(true),
  hasSubscription: z.boolean(),
  plan: PlanOrFreeSchema,
  /** Total spendable credits. */
  credits: z.number(),
  /** Plan that applies from the next cycle (a scheduled downgrade), else null. */
  nextPlan: PaidPlanSchema.nullable(),
  subscription: z
    .object({
      data: z.object({
        attributes: z.object({
          status: z.enum(SUBSCRIPTION_STATUSES),
          created_at: z.string(),
          renews_at: z.string().nullable(),
          ends_at: z.string().nullable(),
          /**
           * Lemon Squeezy's subscription `urls` shape: `update_payment_method` is where the customer fixes a
           * failed payment (LS's signed page, Stripe's hosted invoice page of the open invoice, the
           * sandbox's retry page), given only while the status is a payment issue
           * (PAYMENT_ISSUE_STATUSES) and the provider has one; else null.
           */
          urls: z.object({ update_payment_method: z.string().nullable() }),
          /** Ours (issue 25): the currency it bills in, fixed at its checkout (plan changes are priced in it). */
          currency: z.enum(['usd', 'krw']),
        }),
        /** `action: 'cancel'` means a cancellation is scheduled (000 §3). */
        scheduled_change: z.object({ action: z.enum(['cancel', 'downgrade']), effective_at: z.string(), plan: PaidPlanSchema.optional() }).nullable(),
      }),
    })
    .nullable(),
  user: SubscriptionUserFieldsSchema,
  /** Which provider bills; `configured: false` means buying is off and the page says so. */
  provider: z.object({ name: z.string(), configured: z.boolean() }),
});
export type SubscriptionStatusResponse = z.infer<typeof SubscriptionStatusResponseSchema>;

/**
 * POST /api/payment/withdraw-downgrade (decision 030): the scheduled downgrade is removed at the
 * provider; the next renewal bills the current plan again.
 */
export const WithdrawDowngradeResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  /** The plan that stays (and that the next renewal bills). */
  plan: PaidPlanSchema,
  nextPlan: z.null(),
});
export type WithdrawDowngradeResponse = z.infer<typeof WithdrawDowngradeResponseSchema>;

/** POST /api/payment/cancel-subscription (001 §7). */
export const CancelSubscriptionResponseSchema = z.object({
  success: z.literal(true),
  /** The cancellation was already scheduled; nothing changed. */
  alreadyScheduled: z.boolean(),
  scheduled: z.boolean(),
  /** When the subscription ends (ISO). */
  ends_at: z.string(),
});
export type CancelSubscriptionResponse = z.infer<typeof CancelSubscriptionResponseSchema>;

/** POST /api/payment/resume-subscription (001 §7). */
export const ResumeSubscriptionResponseSchema = z.object({
  success: z.literal(true),
  plan: PaidPlanSchema,
  next_renewal_date: z.string().nullable(),
});
export type ResumeSubscriptionResponse = z.infer<typeof ResumeSubscriptionResponseSchema>;

/** Success messages of the plan-change call, in the caller's language. */
export const PLAN_CHANGE_MESSAGES = {
  upgraded: { ko: '플랜이 업그레이드되었습니다. 일할 계산된 차액이 결제되고, 같은 비율의 크레딧 차이가 바로 지급됩니다.', en: 'Your plan was upgraded. The prorated difference is charged and the same share of the extra monthly credits is added now.' },
  downgradeScheduled: { ko: '다음 결제 주기부터 새 플랜이 적용됩니다.', en: 'The new plan applies from your next billing cycle.' },
  downgradeWithdrawn: { ko: '예약된 플랜 변경이 취소되었습니다.', en: 'The scheduled plan change was withdrawn.' },
} as const;

/** One ledger entry of GET /api/credits/history (issue 10): newest first, with the balance after it. */
export const CreditHistoryEntrySchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  /** grant (welcome, purchase, period, affiliate reward), spend, refund (failed job), expire, reclaim (refunded payment, debt settlement). */
  kind: z.enum(['grant', 'spend', 'refund', 'expire', 'reclaim']),
  bucket: z.enum(['one_time', 'bonus', 'subscription']),
  /** Signed credits. */
  delta: z.number().int(),
  /**
   * Why, in English words (the sentence the ledger stored before migration 0021, rebuilt from the code):
   * for support and logs. The page renders `reason_code` / `reason_params`, never this.
   */
  reason: z.string(),
  /** Why, as a code (packages/contracts ledger.ts `LedgerReasonSchema`; decision 036). */
  reason_code: z.string(),
  /**
   * The code's typed parameters (pack, plan, source, operation…); `parseLedgerReason` validates the pair.
   * Declared open (every key kept): a reason's parameters vary by code, and a newer code's must still reach the page.
   */
  reason_params: z.record(z.string(), z.unknown()),
  reference: z.string().nullable(),
  /** The customer's total balance right after this entry (the running sum of the ledger). */
  balance_after: z.number().int(),
  /** The job a spend paid for or a refund returned, when there is one. */
  job: z.object({ jobId: z.string(), source: z.string(), status: z.string() }).nullable(),
});
export type CreditHistoryEntry = z.infer<typeof CreditHistoryEntrySchema>;

/** GET /api/credits/history?limit=&offset= (issue 10), declared on its route (decision 038). */
export const CreditHistoryResponseSchema = z.object({
  success: z.literal(true),
  items: z.array(CreditHistoryEntrySchema),
  pagination: z.object({ hasMore: z.boolean(), nextOffset: z.number().int().nullable() }),
});
export type CreditHistoryResponse = z.infer<typeof CreditHistoryResponseSchema>;

/** Page sizes of the credit history. */
export const CREDIT_HISTORY_PAGE = { default: 25, max: 100 } as const;
