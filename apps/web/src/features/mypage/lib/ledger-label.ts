import { PACK_IDS, PAID_PLANS, type CreditHistoryEntry, type PackId, type PaidPlan } from '@dewy/contracts';

/**
 * What a credit-history row says (issue 10): each ledger entry's kind and the server's `reason` (see
 * apps/server: auth.service welcome grant, billing.webhooks, tool-jobs.service, affiliate.service,
 * credits.service) mapped to a label the page translates. Reasons the page does not know fall back
 * to a plain label per kind, never to the raw text. Pure, for unit tests.
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

const isPack = (v: string | undefined): v is PackId => (PACK_IDS as readonly string[]).includes(v ?? '');
const isPlan = (v: string | undefined): v is PaidPlan => (PAID_PLANS as readonly string[]).includes(v ?? '');

/** The tool of a history `source` (the spend's reason, or the job the entry points at). */
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

function grantLabel(reason: string): LedgerLabel {
  if (reason === 'welcome') return { key: 'welcome' };
  if (reason === 'affiliate reward') return { key: 'affiliateReward' };
  let m = /^pack (\S+)$/.exec(reason);
  if (m && isPack(m[1])) return { key: 'pack', pack: m[1] };
  m = /^upgrade (\S+)\s*(?:→|->)\s*(\S+)$/.exec(reason);
  if (m && isPlan(m[1]) && isPlan(m[2])) return { key: 'upgrade', from: m[1], to: m[2] };
  m = /^(initial|renewal|upgrade|other) (\S+)$/.exec(reason);
  if (m && isPlan(m[2])) return { key: m[1] === 'initial' ? 'planInitial' : m[1] === 'renewal' ? 'planRenewal' : 'planPeriod', plan: m[2] };
  return { key: 'otherGrant' };
}

function reclaimLabel(reason: string): LedgerLabel {
  if (reason === 'debt settlement') return { key: 'debtSettlement' };
  if (reason.startsWith('affiliate reward reversed')) return { key: 'affiliateReversed' };
  let m = /^refund of pack (\S+)$/.exec(reason);
  if (m && isPack(m[1])) return { key: 'reclaimPack', pack: m[1] };
  m = /^refund of (\S+) invoice$/.exec(reason);
  if (m) return { key: 'reclaimSubscription' };
  return { key: 'otherReclaim' };
}

/** The label of one ledger entry. */
export function ledgerLabel(entry: Pick<CreditHistoryEntry, 'kind' | 'reason' | 'job'>): LedgerLabel {
  const reason = entry.reason.trim();
  switch (entry.kind) {
    case 'grant':
      return grantLabel(reason);
    case 'spend': {
      const tool = toolOfSource(entry.job?.source ?? reason);
      return tool || entry.job ? { key: 'spend', tool } : { key: 'otherSpend' };
    }
    case 'refund':
      return reason === 'job failed' || entry.job ? { key: 'refund', tool: toolOfSource(entry.job?.source) } : { key: 'otherRefund' };
    case 'expire':
      if (reason === 'new subscription period') return { key: 'expirePeriod' };
      if (reason === 'subscription ended') return { key: 'expireEnded' };
      return { key: 'otherExpire' };
    case 'reclaim':
      return reclaimLabel(reason);
    default:
      return { key: 'otherGrant' };
  }
}
