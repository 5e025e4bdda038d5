import type { Locale } from '@dewy/contracts';
import { privacyEn } from './privacy.en';
import { privacyKo } from './privacy.ko';
import { refundEn } from './refund.en';
import { refundKo } from './refund.ko';
import { termsEn } from './terms.en';
import { termsKo } from './terms.ko';
import type { LegalDocId, LegalDocument } from './types';

const DOCUMENTS: Record<LegalDocId, Record<Locale, LegalDocument>> = {
  terms: { ko: termsKo, en: termsEn },
  privacy: { ko: privacyKo, en: privacyEn },
  refund: { ko: refundKo, en: refundEn },
};

/** The text of a legal document in a language. */
export function legalDocument(doc: LegalDocId, locale: Locale): LegalDocument {
  return DOCUMENTS[doc][locale];
}

export type { LegalBlock, LegalDocId, LegalDocument, LegalSection } from './types';
export { LEGAL } from './constants';
