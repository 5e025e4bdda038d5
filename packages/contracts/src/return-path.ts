/**
 * The one rule for every `next` (where to go after a sign-in, a sign-up, a social start/callback/link/
 * reauth, an error redirect, and the web app's own `?next=`): issue 21 point 8, decision 031.
 * Used by the server (redirect `Location`s) and by the web app (client-side navigation), so the two
 * can never disagree.
 */

/** The longest `next` accepted (characters, before decoding). */
export const RETURN_PATH_MAX = 200;

/** An origin that cannot exist, to let the WHATWG URL parser resolve a path without ever leaving it. */
const PROBE_ORIGIN = 'http://return-path.invalid';

/**
 * Characters refused anywhere in a `next` (in its raw and in its once-decoded form): C0 and C1
 * controls, DEL, backslash (browsers read `\` as `/`), and every Unicode space or line/paragraph
 * separator (a tab or newline is dropped by the URL parser, so `/\t/evil` would become `//evil`).
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u0020\u007f-\u00a0\\\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u2064\u3000\ufeff]/u;

/** `/en/x` → `/x`, `/en` or `/en/` → `/`, `/en?q` → `/?q`; anything else unchanged. */
function stripLocalePrefix(value: string): string {
  const m = /^\/en(?=$|[/?#])/.exec(value);
  if (!m) return value;
  const rest = value.slice(3);
  if (rest === '' || rest === '/') return '/';
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/** A path form that a browser resolves on our own origin: one leading `/`, not `//` or `/\`, nothing forbidden. */
function looksSameOrigin(value: string): boolean {
  return value.startsWith('/') && !value.startsWith('//') && !FORBIDDEN.test(value);
}

/** `decodeURIComponent` once; null when the value holds a malformed escape. */
function decodeOnce(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * A same-origin path to return to (`/mypage`, `/pricing?tab=credits`), in its Korean form (the `/en`
 * locale prefix removed, so the caller adds the page language's prefix), or null when `value` is not one.
 *
 * Normalise first, then validate (the old order — validate, then strip `/en` — let `/en//evil.example`
 * become `//evil.example`):
 * 1. a string of 1–RETURN_PATH_MAX characters;
 * 2. the raw value and its once-decoded form (`%2F` → `/`, `%5C` → `\`; a malformed escape refuses),
 *    each with its locale prefix stripped, must both start with exactly one `/` and hold no control,
 *    space or backslash character (so `/%2F%2Fevil`, `/en/%5Cevil`, `/en/%2F/evil`, `/\evil`,
 *    `/\t/evil`, `https:`, `javascript:`, `data:` are refused);
 * 3. the stripped raw value is resolved by the WHATWG URL parser against a probe origin — which also
 *    resolves `.`/`..` segments, percent-encodes non-ASCII and unifies look-alike slashes in the way
 *    a browser will — and must stay on that origin with a path that still does not start with `//`
 *    (`/.//evil` resolves to `//evil`: refused).
 * The result is `pathname + search + hash` of that resolution: ASCII only, safe for a `Location`
 * header, and idempotent (`safeReturnPath(safeReturnPath(x)) === safeReturnPath(x)`).
 * Double encoding (`%252F`) passes as the literal same-origin path it is; nothing decodes it twice.
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > RETURN_PATH_MAX) return null;
  const raw = stripLocalePrefix(value);
  const decoded = decodeOnce(value);
  if (decoded === null) return null;
  if (!looksSameOrigin(raw) || !looksSameOrigin(stripLocalePrefix(decoded))) return null;
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN || url.username || url.password) return null;
  const out = `${url.pathname}${url.search}${url.hash}`;
  return looksSameOrigin(out) && looksSameOrigin(stripLocalePrefix(decodeOnce(out) ?? '//')) ? stripLocalePrefix(out) : null;
}
