import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import ko from '../../../locales/ko.json';
import { ledgerLabel, toolOfSource, type LedgerLabel } from './ledger-label';

const job = (source: string, status = 'completed') => ({ jobId: '0b0c6a4e-1111-4222-8333-444455556666', source, status });
const entry = (kind: 'grant' | 'spend' | 'refund' | 'expire' | 'reclaim', reason: string, j: ReturnType<typeof job> | null = null) => ({ kind, reason, job: j });

describe('credit-history labels (issue 10)', () => {
  it('names every grant the server writes', () => {
    expect(ledgerLabel(entry('grant', 'welcome'))).toEqual({ key: 'welcome' });
    expect(ledgerLabel(entry('grant', 'pack package1'))).toEqual({ key: 'pack', pack: 'package1' });
    expect(ledgerLabel(entry('grant', 'initial basic'))).toEqual({ key: 'planInitial', plan: 'basic' });
    expect(ledgerLabel(entry('grant', 'renewal premium'))).toEqual({ key: 'planRenewal', plan: 'premium' });
    expect(ledgerLabel(entry('grant', 'other deluxe'))).toEqual({ key: 'planPeriod', plan: 'deluxe' });
    expect(ledgerLabel(entry('grant', 'upgrade basic→deluxe'))).toEqual({ key: 'upgrade', from: 'basic', to: 'deluxe' });
    expect(ledgerLabel(entry('grant', 'affiliate reward'))).toEqual({ key: 'affiliateReward' });
  });

  it('names spends by the tool and refunds of failed jobs', () => {
    expect(ledgerLabel(entry('spend', 'upscale', job('upscale')))).toEqual({ key: 'spend', tool: 'upscale' });
    expect(ledgerLabel(entry('spend', 'face_edit', job('face_edit')))).toEqual({ key: 'spend', tool: 'faceEdit' });
    // the job is gone (or never joined): the reason still names the tool
    expect(ledgerLabel(entry('spend', 'upscale'))).toEqual({ key: 'spend', tool: 'upscale' });
    expect(ledgerLabel(entry('refund', 'job failed', job('upscale', 'failed')))).toEqual({ key: 'refund', tool: 'upscale' });
    expect(ledgerLabel(entry('refund', 'job failed'))).toEqual({ key: 'refund', tool: null });
  });

  it('names expiries, reclaims of refunded payments, reversed rewards and debt settlement', () => {
    expect(ledgerLabel(entry('expire', 'new subscription period'))).toEqual({ key: 'expirePeriod' });
    expect(ledgerLabel(entry('expire', 'subscription ended'))).toEqual({ key: 'expireEnded' });
    expect(ledgerLabel(entry('reclaim', 'refund of pack package3'))).toEqual({ key: 'reclaimPack', pack: 'package3' });
    expect(ledgerLabel(entry('reclaim', 'refund of renewal invoice'))).toEqual({ key: 'reclaimSubscription' });
    expect(ledgerLabel(entry('reclaim', 'refund of upgrade invoice'))).toEqual({ key: 'reclaimSubscription' });
    expect(ledgerLabel(entry('reclaim', 'affiliate reward reversed (refund)'))).toEqual({ key: 'affiliateReversed' });
    expect(ledgerLabel(entry('reclaim', 'debt settlement'))).toEqual({ key: 'debtSettlement' });
  });

  it('falls back to a label per kind for reasons it does not know (never the raw text)', () => {
    expect(ledgerLabel(entry('grant', 'pack package9'))).toEqual({ key: 'otherGrant' });
    expect(ledgerLabel(entry('grant', 'initial gold'))).toEqual({ key: 'otherGrant' });
    expect(ledgerLabel(entry('grant', 'operator gift'))).toEqual({ key: 'otherGrant' });
    expect(ledgerLabel(entry('spend', 'mystery'))).toEqual({ key: 'otherSpend' });
    expect(ledgerLabel(entry('refund', 'goodwill'))).toEqual({ key: 'otherRefund' });
    expect(ledgerLabel(entry('expire', 'cleanup'))).toEqual({ key: 'otherExpire' });
    expect(ledgerLabel(entry('reclaim', 'chargeback'))).toEqual({ key: 'otherReclaim' });
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
