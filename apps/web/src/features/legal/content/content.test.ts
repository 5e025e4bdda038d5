import { describe, expect, it } from 'vitest';
import { namesUnsetDetail } from '../lib/legal-text';
import { LEGAL, legalDocument, type LegalBlock, type LegalDocId, type LegalDocument } from './index';

const DOCS: LegalDocId[] = ['terms', 'privacy', 'refund'];

function texts(block: LegalBlock): string[] {
  if (block.kind === 'p') return [block.text];
  if (block.kind === 'list') return block.items;
  if (block.kind === 'table') return [...block.head, ...block.rows.flat()];
  return [];
}

/** Everything a reader of the document sees, as one string. */
function fullText(d: LegalDocument): string {
  return [d.title, d.summary, ...d.sections.flatMap((s) => [s.heading, ...s.blocks.flatMap(texts)])].join('\n');
}

describe('legal texts', () => {
  it('have the same sections, blocks and company details in Korean and English', () => {
    for (const doc of DOCS) {
      const ko = legalDocument(doc, 'ko');
      const en = legalDocument(doc, 'en');
      expect(ko.locale).toBe('ko');
      expect(en.locale).toBe('en');
      expect(en.sections.map((s) => s.id), doc).toEqual(ko.sections.map((s) => s.id));
      ko.sections.forEach((s, i) => {
        const e = en.sections[i]!;
        expect(e.blocks.map((b) => b.kind), `${doc}#${s.id}`).toEqual(s.blocks.map((b) => b.kind));
        s.blocks.forEach((b, j) => {
          const eb = e.blocks[j]!;
          if (b.kind === 'list' && eb.kind === 'list') expect(eb.items.length, `${doc}#${s.id} list`).toBe(b.items.length);
          if (b.kind === 'table' && eb.kind === 'table') expect(eb.rows.length, `${doc}#${s.id} table`).toBe(b.rows.length);
        });
      });
      expect(ko.sections.some((s) => s.blocks.some((b) => b.kind === 'company')), `${doc} shows the company`).toBe(true);
      expect(ko.lastUpdated).toBe(LEGAL.lastUpdated);
      expect(en.lastUpdated).toBe(LEGAL.lastUpdated);
    }
  });

  it('use only the tokens the page fills in', () => {
    for (const doc of DOCS) {
      for (const locale of ['ko', 'en'] as const) {
        const braces = fullText(legalDocument(doc, locale)).match(/\{[^}]*\}/g) ?? [];
        expect(braces.filter((b) => !['{supportEmail}', '{companyName}', '{ceo}'].includes(b)), `${doc}/${locale}`).toEqual([]);
      }
    }
  });

  it('say the constants of 002 §9 in both languages', () => {
    const must: Record<LegalDocId, string[]> = {
      terms: ['{supportEmail}', `${LEGAL.refundWindowDays}`, `${LEGAL.takedownDecisionHours}`, `${LEGAL.takedownRestoreDays}`, `${LEGAL.liabilityCapUsd}`, `${LEGAL.liabilityCapMonths}`, `${LEGAL.minimumAge}`, `${LEGAL.serviceStartDelayHours}`, `${LEGAL.retention.uploadedContentDays}`, `${LEGAL.deletionGraceDays}`, 'Asia/Seoul'],
      privacy: [`${LEGAL.retention.uploadedContentDays}`, `${LEGAL.retention.billingYearsAfterFiscalYear}`, `${LEGAL.retention.analyticsMonths}`, `${LEGAL.retention.backupCycleDays}`, `${LEGAL.deletionGraceDays}`, `${LEGAL.requestAnswerDays}`, `${LEGAL.minimumAge}`, 'dewy_sid', 'dewy_device', 'locale', 'dewy_aff', 'Asia/Seoul'],
      refund: [`${LEGAL.refundWindowDays}`, `${LEGAL.refundPayoutDays[0]}`, `${LEGAL.refundPayoutDays[1]}`, `${LEGAL.outageCompensationHours}`, LEGAL.supportHours, '{supportEmail}', 'Asia/Seoul'],
    };
    for (const doc of DOCS) {
      for (const locale of ['ko', 'en'] as const) {
        const text = fullText(legalDocument(doc, locale));
        for (const m of must[doc]) expect(text, `${doc}/${locale} says ${m}`).toContain(m);
      }
    }
  });

  it('name the renewal reminders 7, 3 and 1 day before in the terms and the refund policy', () => {
    expect(fullText(legalDocument('terms', 'ko'))).toContain('7일, 3일, 1일 전');
    expect(fullText(legalDocument('refund', 'ko'))).toContain('7일, 3일, 1일 전');
    expect(fullText(legalDocument('terms', 'en'))).toContain('7, 3 and 1 day before');
    expect(fullText(legalDocument('refund', 'en'))).toContain('7, 3 and 1 day before');
  });

  it('keep one-time credits permanent (decision 012): no text gives them a 365-day validity', () => {
    for (const doc of DOCS) {
      for (const locale of ['ko', 'en'] as const) expect(fullText(legalDocument(doc, locale)), `${doc}/${locale}`).not.toMatch(/365/);
    }
    expect(fullText(legalDocument('terms', 'ko'))).toContain('유효기간 없이 영구히 보관');
    expect(fullText(legalDocument('terms', 'en'))).toContain('never expire');
  });

  it('state that no analytics or marketing cookies are set', () => {
    expect(fullText(legalDocument('privacy', 'ko'))).toContain('분석 쿠키나 마케팅·광고 쿠키를 설정하지 않으며');
    expect(fullText(legalDocument('privacy', 'en'))).toContain('sets no analytics cookies and no marketing or advertising cookies');
  });
});

describe('legal texts with the operator’s details unset (issue 25: nothing "to be filled in")', () => {
  it('name the privacy officer in a paragraph of its own, which the page leaves out while unset', () => {
    for (const locale of ['ko', 'en'] as const) {
      const paragraphs = legalDocument('privacy', locale).sections.flatMap((s) => s.blocks.flatMap((b) => (b.kind === 'p' ? [b.text] : [])));
      const officer = paragraphs.filter((t) => t.includes('{ceo}'));
      expect(officer, locale).toHaveLength(1);
      expect(officer[0]!.replace('{ceo}', '').includes('{'), `${locale}: nothing else in the officer's paragraph`).toBe(false);
      expect(namesUnsetDetail(officer[0]!, { ceo: null })).toBe(true);
      expect(namesUnsetDetail(officer[0]!, { ceo: '홍길동' })).toBe(false);
      // The contact line stays whatever is set.
      expect(paragraphs.some((t) => t.includes('{supportEmail}') && !namesUnsetDetail(t, { ceo: null })), locale).toBe(true);
    }
  });

  it('name {ceo} nowhere but that paragraph (a list item or table cell would leave a gap)', () => {
    for (const doc of DOCS) {
      for (const locale of ['ko', 'en'] as const) {
        const others = legalDocument(doc, locale).sections.flatMap((s) => s.blocks.filter((b) => b.kind !== 'p').flatMap(texts));
        expect(others.filter((t) => t.includes('{ceo}')), `${doc}/${locale}`).toEqual([]);
      }
    }
  });
});
