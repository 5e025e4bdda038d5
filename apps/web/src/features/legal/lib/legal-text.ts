/** The tokens a legal text may carry (see content/types.ts), filled in at render. */
export type LegalToken = 'supportEmail' | 'companyName' | 'ceo';

export type LegalPiece = { text: string } | { token: LegalToken };

const TOKEN = /\{(supportEmail|companyName|ceo)\}/g;

/** Splits a legal text into plain pieces and tokens, in order ('Mail {supportEmail}.' → text, token, text). */
export function splitLegalText(text: string): LegalPiece[] {
  const out: LegalPiece[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    const at = m.index ?? 0;
    if (at > last) out.push({ text: text.slice(last, at) });
    out.push({ token: m[1] as LegalToken });
    last = at + m[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** What stands in for the operator's company name while it is unset: the service's name (issue 25: no "to be filled in"). */
export const COMPANY_NAME_FALLBACK = 'Dewy';

/**
 * Whether a text names an operator detail that is unset and has no stand-in (`{ceo}`, the privacy
 * officer): such a paragraph or list item is left out rather than shown with a gap.
 */
export function namesUnsetDetail(text: string, details: { ceo: string | null }): boolean {
  return !details.ceo && splitLegalText(text).some((piece) => 'token' in piece && piece.token === 'ceo');
}
