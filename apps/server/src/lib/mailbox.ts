/** Google's consumer mail domains: one mailbox answers at both. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The canonical mailbox of an e-mail address: one string per inbox, whatever alias of it was typed
 * (issue 21 point 3, decision 031). It is the key of every "once per person" rule that an address
 * stands for: the welcome credits (`grantWelcomeCreditsOnce`, once per mailbox ever) and the
 * affiliate programme's self-referral check (the referred address reaches the sharer's inbox).
 * It is NOT an account key: sign-up's uniqueness stays on the plain normalised address
 * (`normalizeEmail`), so a customer's `x+shop@gmail.com` account keeps working as typed.
 *
 * Rules (only what the provider documents, so two different people are never merged):
 * - everywhere: trimmed, lower-cased (as sign-up normalises), and a `+tag` removed from the local part
 *   (sub-addressing, RFC 5233, honoured by Gmail, Outlook/Hotmail, iCloud, Fastmail, Proton, Naver and
 *   most hosts). At a rare host where `+` is an ordinary character, two people whose names differ only
 *   after a `+` share a key: the second gets no welcome credits — accepted, it costs 300 credits, never
 *   an account. A local part that starts with `+` is kept as it is;
 * - Gmail (`gmail.com`, and `googlemail.com`, the same mailboxes under Google's other domain): dots in
 *   the local part are removed (Google: "Gmail doesn't recognize dots as characters within usernames").
 * Not applied, deliberately: dots anywhere else (significant at Outlook, Naver, Daum, Yahoo…); Yahoo's
 * `-keyword` disposable addresses (a hyphen is a legal character of ordinary Yahoo names);
 * Google Workspace domains (their dots rule cannot be told from the domain); `hanmail.net` ↔ `daum.net`
 * and `proton.me` ↔ `protonmail.com` ↔ `pm.me` (one account may own both, but not every address at one
 * is an address at the other).
 * @param email an address as typed (any case, surrounding spaces allowed)
 * @returns `local@domain`, lower case; for a string without `@`, the trimmed lower-cased string
 */
export function canonicalMailbox(email: string): string {
  const lower = email.trim().toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at === -1) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    domain = 'gmail.com';
    local = local.replace(/\./g, '') || local;
  }
  return `${local}@${domain}`;
}

