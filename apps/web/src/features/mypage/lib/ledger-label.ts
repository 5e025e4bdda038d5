import { parseLedgerReason, type CreditHistoryEntry, type LedgerReason, type PackId, type PaidPlan } from '@dewy/contracts';

/**
 * What a credit-history row says (issue 10): each ledger entry's kind and its reason code with typed
 * parameters (`reason_code` + `reason_params`, declared in packages/contracts ledger.ts; decision 036) mapped
 * to a label the page translates from its catalogues (`mypage.ledger.label.*`). Nothing here reads the
 * English `reason` words. A code or parameter the page does not know (a newer server, a pack that no longer
 * exists) falls back to a plain label per kind, never to raw text. Pure, for unit tests.
 */

/** The tool a spend paid for, as the page names tools (`tools.<tool>.name`). */
export type LedgerTool = 'upscale' | 'faceEdit' | 'imageEdit' | 'imageGeneration' | 'chat' | null;

export type LedgerLabel =
  | { key: 'welcome' }
  | { key: 'pack'; pack: PackId }
  | { key: 'planInitial' | 'planRenewal' | 'planPeriod'; plan: PaidPlan }
  | { key: 'upgrade'; from: PaidPlan; to: PaidPlan }
  | { key: 'affiliateReward' }
  | { key: 'spend'; tool: LedgerTool }
  | { key: 'refund'; tool: LedgerTool }
  | { key: 'expirePeriod' | 'expireEnded' }
  | { key: 'reclaimPack'; pack: PackId }
  | { key: 'reclaimSubscription' }
  | { key: 'affiliateReversed' }
  | { key: 'debtSettlement' }
  | { key: 'otherGrant' | 'otherSpend' | 'otherRefund' | 'otherExpire' | 'otherReclaim' };

/** The tool of a history `source` (the job the entry points at, or the source its reason names). */
export function toolOfSource(source: string | null | undefined): LedgerTool {
  switch (source) {
    case 'upscale':
      return 'upscale';
    case 'face_edit':
      return 'faceEdit';
    case 'seedream':
      return 'imageEdit';
    case 'kling':
    case 'consistency':
      return 'imageGeneration';
    case 'chat':
      return 'chat';
    default:
      return null;
  }
}

function grantLabel(r: LedgerReason | null): LedgerLabel {
  switch (r?.code) {
    case 'welcome':
      return { key: 'welcome' };
    case 'affiliate_reward':
      return { key: 'affiliateReward' };
    case 'pack_purchase':
      return { key: 'pack', pack: r.pack };
    case 'plan_upgrade':
      return { key: 'upgrade', from: r.from, to: r.to };
    case 'plan_period':
      return { key: r.invoice === 'initial' ? 'planInitial' : r.invoice === 'renewal' ? 'planRenewal' : 'planPeriod', plan: r.plan };
    default:
      return { key: 'otherGrant' };
  }
}

function reclaimLabel(r: LedgerReason | null): LedgerLabel {
  switch (r?.code) {
    case 'debt_settlement':
      return { key: 'debtSettlement' };
    case 'affiliate_reward_reversed':
      return { key: 'affiliateReversed' };
    case 'pack_refunded':
      return { key: 'reclaimPack', pack: r.pack };
    case 'invoice_refunded':
      return { key: 'reclaimSubscription' };
    default:
      return { key: 'otherReclaim' };
  }
}

/** The job source a reason names (a tool job's spend or refund), if any. */
function sourceOf(r: LedgerReason | null): string | undefined {
  return r && (r.code === 'tool_job' || r.code === 'job_refund' || r.code === 'job_partial_refund') ? r.source : undefined;
}

/** The label of one ledger entry. */
export function ledgerLabel(entry: Pick<CreditHistoryEntry, 'kind' | 'reason_code' | 'reason_params' | 'job'>): LedgerLabel {
  const reason = parseLedgerReason(entry.reason_code, entry.reason_params);
  const source = entry.job?.source ?? sourceOf(reason);
  switch (entry.kind) {
    case 'grant':
      return grantLabel(reason);
    case 'spend': {
      const tool = toolOfSource(source);
      return tool || entry.job ? { key: 'spend', tool } : { key: 'otherSpend' };
    }
    case 'refund': {
      const jobRefund = reason?.code === 'job_refund' || (reason?.code === 'job_partial_refund' && source !== undefined);
      return jobRefund || entry.job ? { key: 'refund', tool: toolOfSource(source) } : { key: 'otherRefund' };
    }
    case 'expire':
      if (reason?.code === 'period_expired') return { key: 'expirePeriod' };
      if (reason?.code === 'subscription_ended') return { key: 'expireEnded' };
      return { key: 'otherExpire' };
    case 'reclaim':
      return reclaimLabel(reason);
    default:
      return { key: 'otherGrant' };
  }
}
