import type { Locale } from '@dewy/contracts';

/** The three legal documents (spec 002 §2). */
export type LegalDocId = 'terms' | 'privacy' | 'refund';

/**
 * A piece of running text. Tokens filled in at render: `{supportEmail}` (a mailto link),
 * `{companyName}` and `{ceo}` (the operator's details). While unset, the service's name stands in for
 * `{companyName}`, and a text naming `{ceo}` is left out (legal-text.ts namesUnsetDetail).
 */
export type LegalText = string;

/** One block of a section: a paragraph, a list, a table, or the operator's business details. */
export type LegalBlock =
  | { kind: 'p'; text: LegalText }
  | { kind: 'list'; items: LegalText[]; ordered?: boolean }
  | { kind: 'table'; head: LegalText[]; rows: LegalText[][] }
  | { kind: 'company' };

/** A numbered article or section of a document. */
export interface LegalSection {
  /** Anchor id (stable across languages, so a link to #refund-window works in both). */
  id: string;
  heading: string;
  blocks: LegalBlock[];
}

/** One legal document in one language. */
export interface LegalDocument {
  doc: LegalDocId;
  locale: Locale;
  title: string;
  /** A one-paragraph summary shown under the title. */
  summary: LegalText;
  /** The day this text was last changed (YYYY-MM-DD, a calendar day in Asia/Seoul). */
  lastUpdated: string;
  sections: LegalSection[];
}

/** Shorthands for writing documents. */
export const p = (text: LegalText): LegalBlock => ({ kind: 'p', text });
export const ul = (...items: LegalText[]): LegalBlock => ({ kind: 'list', items });
export const ol = (...items: LegalText[]): LegalBlock => ({ kind: 'list', items, ordered: true });
export const table = (head: LegalText[], rows: LegalText[][]): LegalBlock => ({ kind: 'table', head, rows });
export const COMPANY: LegalBlock = { kind: 'company' };
