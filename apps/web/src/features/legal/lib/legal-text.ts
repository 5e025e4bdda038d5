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
