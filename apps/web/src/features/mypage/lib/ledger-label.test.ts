import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import ko from '../../../locales/ko.json';
import { ledgerLabel, toolOfSource, type LedgerLabel } from './ledger-label';

const job = (source: string, status = 'completed') => ({ jobId: '0b0c6a4e-1111-4222-8333-444455556666', source, status });
/** A history entry with its reason code and parameters (`{ code, ...params }`, as the server answers them). */
const entry = (kind: 'grant' | 'spend' | 'refund' | 'expire' | 'reclaim', reason: { code: string } & Record<string, unknown>, j: ReturnType<typeof job> | null = null) => {
  const { code, ...params } = reason;
  return { kind, reason_code: code, reason_params: params, job: j };
};

describe('credit-history labels (issue 10)', () => {
  it('names every grant the server writes', () => {
    expect(ledgerLabel(entry('grant', { code: 'welcome' }))).toEqual({ key: 'welcome' });
    expect(ledgerLabel(entry('grant', { code: 'pack_purchase', pack: 'package1' }))).toEqual({ key: 'pack', pack: 'package1' });
    expect(ledgerLabel(entry('grant', { code: 'plan_period', invoice: 'initial', plan: 'basic' }))).toEqual({ key: 'planInitial', plan: 'basic' });
    expect(ledgerLabel(entry('grant', { code: 'plan_period', invoice: 'renewal', plan: 'premium' }))).toEqual({ key: 'planRenewal', plan: 'premium' });
    expect(ledgerLabel(entry('grant', { code: 'plan_period', invoice: 'other', plan: 'deluxe' }))).toEqual({ key: 'planPeriod', plan: 'deluxe' });
    expect(ledgerLabel(entry('grant', { code: 'plan_upgrade', from: 'basic', to: 'deluxe' }))).toEqual({ key: 'upgrade', from: 'basic', to: 'deluxe' });
    expect(ledgerLabel(entry('grant', { code: 'affiliate_reward' }))).toEqual({ key: 'affiliateReward' });
  });

  it('names spends by the tool and refunds of failed jobs', () => {
    expect(ledgerLabel(entry('spend', { code: 'tool_job', source: 'upscale' }, job('upscale')))).toEqual({ key: 'spend', tool: 'upscale' });
    expect(ledgerLabel(entry('spend', { code: 'tool_job', source: 'face_edit' }, job('face_edit')))).toEqual({ key: 'spend', tool: 'faceEdit' });
    // the job is gone (or never joined): the reason still names the tool
    expect(ledgerLabel(entry('spend', { code: 'tool_job', source: 'upscale' }))).toEqual({ key: 'spend', tool: 'upscale' });
    expect(ledgerLabel(entry('refund', { code: 'job_refund', source: 'upscale' }, job('upscale', 'failed')))).toEqual({ key: 'refund', tool: 'upscale' });
    expect(ledgerLabel(entry('refund', { code: 'job_refund' }))).toEqual({ key: 'refund', tool: null });
  });

  it('names expiries, reclaims of refunded payments, reversed rewards and debt settlement', () => {
    expect(ledgerLabel(entry('expire', { code: 'period_expired' }))).toEqual({ key: 'expirePeriod' });
    expect(ledgerLabel(entry('expire', { code: 'subscription_ended' }))).toEqual({ key: 'expireEnded' });
    expect(ledgerLabel(entry('reclaim', { code: 'pack_refunded', pack: 'package3' }))).toEqual({ key: 'reclaimPack', pack: 'package3' });
    expect(ledgerLabel(entry('reclaim', { code: 'invoice_refunded', invoice: 'renewal' }))).toEqual({ key: 'reclaimSubscription' });
    expect(ledgerLabel(entry('reclaim', { code: 'invoice_refunded', invoice: 'upgrade' }))).toEqual({ key: 'reclaimSubscription' });
    expect(ledgerLabel(entry('reclaim', { code: 'affiliate_reward_reversed' }))).toEqual({ key: 'affiliateReversed' });
    expect(ledgerLabel(entry('reclaim', { code: 'debt_settlement' }))).toEqual({ key: 'debtSettlement' });
  });

  it('falls back to a label per kind for reasons it does not know (never the raw text)', () => {
    expect(ledgerLabel(entry('grant', { code: 'pack_purchase', pack: 'package9' }))).toEqual({ key: 'otherGrant' });
    expect(ledgerLabel(entry('grant', { code: 'plan_period', invoice: 'initial', plan: 'gold' }))).toEqual({ key: 'otherGrant' });
    expect(ledgerLabel(entry('grant', { code: 'legacy', text: 'operator gift' }))).toEqual({ key: 'otherGrant' });
    expect(ledgerLabel(entry('spend', { code: 'legacy', text: 'mystery' }))).toEqual({ key: 'otherSpend' });
    expect(ledgerLabel(entry('refund', { code: 'legacy', text: 'goodwill' }))).toEqual({ key: 'otherRefund' });
    expect(ledgerLabel(entry('expire', { code: 'legacy', text: 'cleanup' }))).toEqual({ key: 'otherExpire' });
    expect(ledgerLabel(entry('reclaim', { code: 'legacy', text: 'chargeback' }))).toEqual({ key: 'otherReclaim' });
  });

  it('labels the rows the ledger writes on its own, inline AI calls and codes from a newer server as today', () => {
    // A partial result's refund (decision 024) reads as the job's refund; an AI call and its refund keep the plain labels.
    expect(ledgerLabel(entry('refund', { code: 'job_partial_refund', source: 'kling' }, job('kling')))).toEqual({ key: 'refund', tool: 'imageGeneration' });
    expect(ledgerLabel(entry('spend', { code: 'ai_call', operation: 'rewrite' }))).toEqual({ key: 'otherSpend' });
    expect(ledgerLabel(entry('refund', { code: 'ai_call_refund', operation: 'chat', error: 'AI_TIMEOUT' }))).toEqual({ key: 'otherRefund' });
    // Credits that landed in an ended subscription period expire at once.
    expect(ledgerLabel(entry('expire', { code: 'ended_period', of: { code: 'job_refund' } }))).toEqual({ key: 'otherExpire' });
    expect(ledgerLabel(entry('grant', { code: 'gift_card', card: 'x' }))).toEqual({ key: 'otherGrant' });
    expect(ledgerLabel(entry('spend', { code: 'api_call', key: 'k1' }, job('upscale')))).toEqual({ key: 'spend', tool: 'upscale' });
    // The English words are never read: a sentence in `reason` that contradicts the code changes nothing.
    expect(ledgerLabel({ ...entry('grant', { code: 'welcome' }), reason: 'pack package1' } as ReturnType<typeof entry>)).toEqual({ key: 'welcome' });
  });

  it('maps history sources to tools', () => {
    expect(toolOfSource('upscale')).toBe('upscale');
    expect(toolOfSource('seedream')).toBe('imageEdit');
    expect(toolOfSource('kling')).toBe('imageGeneration');
    expect(toolOfSource('consistency')).toBe('imageGeneration');
    expect(toolOfSource('product_try')).toBeNull();
    expect(toolOfSource(undefined)).toBeNull();
  });

  it('every label key has a message in both languages', () => {
    const keys: LedgerLabel['key'][] = [
      'welcome', 'pack', 'planInitial', 'planRenewal', 'planPeriod', 'upgrade', 'affiliateReward', 'spend', 'refund', 'expirePeriod', 'expireEnded',
      'reclaimPack', 'reclaimSubscription', 'affiliateReversed', 'debtSettlement', 'otherGrant', 'otherSpend', 'otherRefund', 'otherExpire', 'otherReclaim',
    ];
    for (const catalogue of [ko, en]) {
      const labels = (catalogue as { mypage: { ledger: { label: Record<string, string> } } }).mypage.ledger.label;
      for (const k of keys) expect(labels[k], k).toBeTruthy();
    }
  });
});
