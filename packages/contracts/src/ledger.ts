import { z } from 'zod';
import { PackIdSchema, PaidPlanSchema } from './billing';
import { HISTORY_SOURCES } from './images';

/**
 * Ledger reasons as codes with typed parameters (issue 23 point 2, decision 036). Every credit ledger row
 * stores one of these — `credit_ledger.reason_code` and `reason_params` (the parameters without `code`) —
 * and the credit history answers them as `reason_code` / `reason_params`. The page renders each from its
 * catalogues (`mypage.ledger.label.*`); nothing parses a sentence. `ledgerReasonText` gives the English
 * words for logs, support and the history's `reason` field (the sentences the ledger stored before).
 */

/** The inline metered operations (decision 036): model calls run inside the request, charged by the kernel. */
export const METERED_OPERATIONS = ['chat', 'rewrite', 'auto_prompt', 'extract_prompt'] as const;
export type MeteredOperationName = (typeof METERED_OPERATIONS)[number];
export const MeteredOperationSchema = z.enum(METERED_OPERATIONS);

/** The invoice kinds a subscription grant or reclaim names (the payment provider's billing reason). */
export const INVOICE_KINDS = ['initial', 'renewal', 'upgrade', 'other'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];
const InvoiceKindSchema = z.enum(INVOICE_KINDS);
const SourceSchema = z.enum(HISTORY_SOURCES);

// ---- grants ----
const Welcome = z.object({ code: z.literal('welcome') });
/** A credit pack bought (one-time credits). */
const PackPurchase = z.object({ code: z.literal('pack_purchase'), pack: PackIdSchema });
/** A subscription period's credits: the invoice that paid it (initial, renewal, other) and its plan. */
const PlanPeriod = z.object({ code: z.literal('plan_period'), invoice: InvoiceKindSchema, plan: PaidPlanSchema });
/** The prorated difference an upgrade grants (decision 028). */
const PlanUpgrade = z.object({ code: z.literal('plan_upgrade'), from: PaidPlanSchema, to: PaidPlanSchema });
/** The bonus credits a share link earns (decision 013). */
const AffiliateReward = z.object({ code: z.literal('affiliate_reward') });

// ---- spends ----
/** A queued tool's job (its history source). */
const ToolJob = z.object({ code: z.literal('tool_job'), source: SourceSchema });
/** An inline metered call (chat, rewrite, auto prompt…). */
const AiCall = z.object({ code: z.literal('ai_call'), operation: MeteredOperationSchema });

// ---- refunds ----
/** A failed job's refund; `source` is absent on rows older than migration 0021. */
const JobRefund = z.object({ code: z.literal('job_refund'), source: SourceSchema.optional() });
/** What a multi-image job paid for but did not deliver (decision 024). */
const JobPartialRefund = z.object({ code: z.literal('job_partial_refund'), source: SourceSchema.optional() });
/**
 * An inline call's refund: its error code (AI_UNAVAILABLE, AI_TIMEOUT — also a call a dead process left
 * pending —, NOTHING_TO_CHARGE for a rewrite the page never applied). `operation` may be absent on old rows.
 */
const AiCallRefund = z.object({ code: z.literal('ai_call_refund'), operation: MeteredOperationSchema.optional(), error: z.string().max(64) });

// ---- expiries ----
/** The previous period's subscription credits, at a renewal. */
const PeriodExpired = z.object({ code: z.literal('period_expired') });
/** The subscription's credits at its end. */
const SubscriptionEnded = z.object({ code: z.literal('subscription_ended') });

// ---- reclaims ----
const PackRefunded = z.object({ code: z.literal('pack_refunded'), pack: PackIdSchema });
const InvoiceRefunded = z.object({ code: z.literal('invoice_refunded'), invoice: InvoiceKindSchema });
const AffiliateRewardReversed = z.object({ code: z.literal('affiliate_reward_reversed') });
/** A grant taking back what an earlier refund could not (decision 012): written by the ledger itself. */
const DebtSettlement = z.object({ code: z.literal('debt_settlement') });

const ENDED_PERIOD_OF = [Welcome, PackPurchase, PlanPeriod, PlanUpgrade, AffiliateReward, JobRefund, JobPartialRefund, AiCallRefund] as const;
/**
 * Credits granted into, or refunded to, a subscription period that has already ended expire at once
 * (decisions 029, issue 21 point 5): written by the ledger itself, `of` is the grant's or refund's reason.
 */
const EndedPeriod = z.object({ code: z.literal('ended_period'), of: z.discriminatedUnion('code', ENDED_PERIOD_OF) });
/** A row whose stored sentence (before migration 0021) matched no code: kept as it was. */
const Legacy = z.object({ code: z.literal('legacy'), text: z.string() });

/** Any ledger reason (what `reason_code` + `reason_params` hold), validated. */
export const LedgerReasonSchema = z.discriminatedUnion('code', [
  Welcome, PackPurchase, PlanPeriod, PlanUpgrade, AffiliateReward,
  ToolJob, AiCall,
  JobRefund, JobPartialRefund, AiCallRefund,
  PeriodExpired, SubscriptionEnded, EndedPeriod,
  PackRefunded, InvoiceRefunded, AffiliateRewardReversed, DebtSettlement,
  Legacy,
]);
export type LedgerReason = z.infer<typeof LedgerReasonSchema>;
export type LedgerReasonCode = LedgerReason['code'];

/** Reasons of each ledger kind, as the credits service's callers may write them. */
export type GrantReason = z.infer<typeof Welcome | typeof PackPurchase | typeof PlanPeriod | typeof PlanUpgrade | typeof AffiliateReward>;
export type SpendReason = z.infer<typeof ToolJob | typeof AiCall>;
export type RefundReason = z.infer<typeof JobRefund | typeof JobPartialRefund | typeof AiCallRefund>;
export type ExpireReason = z.infer<typeof PeriodExpired | typeof SubscriptionEnded>;
export type ReclaimReason = z.infer<typeof PackRefunded | typeof InvoiceRefunded | typeof AffiliateRewardReversed>;

/** Splits a reason into its stored columns: `code` and the parameters without it. */
export function ledgerReasonColumns(reason: LedgerReason): { reasonCode: LedgerReasonCode; reasonParams: Record<string, unknown> } {
  const { code, ...params } = reason;
  return { reasonCode: code, reasonParams: params };
}

/**
 * The typed reason of a stored row or history entry (`reason_code` + `reason_params`), or null when the
 * pair is not a reason this version knows (a newer server's code, a pack or plan that no longer exists):
 * the page then falls back to a label per ledger kind.
 */
export function parseLedgerReason(code: string, params: unknown): LedgerReason | null {
  const p = params && typeof params === 'object' && !Array.isArray(params) ? (params as Record<string, unknown>) : {};
  const r = LedgerReasonSchema.safeParse({ ...p, code });
  return r.success ? r.data : null;
}

/**
 * The reason in English words, as the ledger stored it before migration 0021 (`pack package1`,
 * `upgrade basic→deluxe`, `job failed`…): for logs, support and the history's `reason` field. Never
 * parsed; the page renders the code. Unknown pairs give the code itself.
 */
export function ledgerReasonText(code: string, params: unknown): string {
  const r = parseLedgerReason(code, params);
  if (!r) return code;
  switch (r.code) {
    case 'welcome':
      return 'welcome';
    case 'pack_purchase':
      return `pack ${r.pack}`;
    case 'plan_period':
      return `${r.invoice} ${r.plan}`;
    case 'plan_upgrade':
      return `upgrade ${r.from}→${r.to}`;
    case 'affiliate_reward':
      return 'affiliate reward';
    case 'tool_job':
      return r.source;
    case 'ai_call':
      return `ai ${r.operation}`;
    case 'job_refund':
      return 'job failed';
    case 'job_partial_refund':
      return 'partial result';
    case 'ai_call_refund':
      return r.error === 'NOTHING_TO_CHARGE' && r.operation === 'rewrite' ? 'ai rewrite never applied' : `ai failed: ${r.error}`;
    case 'period_expired':
      return 'new subscription period';
    case 'subscription_ended':
      return 'subscription ended';
    case 'ended_period': {
      const { code: ofCode, ...ofParams } = r.of;
      return `${ledgerReasonText(ofCode, ofParams)} (its subscription period has ended)`;
    }
    case 'pack_refunded':
      return `refund of pack ${r.pack}`;
    case 'invoice_refunded':
      return `refund of ${r.invoice} invoice`;
    case 'affiliate_reward_reversed':
      return 'affiliate reward reversed (refund)';
    case 'debt_settlement':
      return 'debt settlement';
    case 'legacy':
      return r.text;
  }
}
