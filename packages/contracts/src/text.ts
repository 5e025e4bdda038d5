import { z } from 'zod';

/**
 * Input rules for free text (issue 7 item 3). A NUL reached PostgreSQL, which refuses it in `text`
 * (22021) and in `jsonb` (22P05): the request died as a 500 after the password was already hashed.
 * Every string a request carries is therefore checked here, at the contract, before any work is done.
 *
 * Refused everywhere: C0 controls (U+0000–U+001F), DEL (U+007F), C1 controls (U+0080–U+009F) and
 * lone UTF-16 surrogates (they cannot be encoded as UTF-8 and would silently become U+FFFD).
 * Fields that are multi-line by nature (a prompt) may keep TAB, LF and CR.
 */

// Matching control characters is the point here, hence the two lint exceptions.
// eslint-disable-next-line no-control-regex
const SINGLE_LINE_FORBIDDEN = new RegExp('[\\u0000-\\u001F\\u007F-\\u009F]|\\p{Cs}', 'u');
// eslint-disable-next-line no-control-regex
const MULTI_LINE_FORBIDDEN = new RegExp('[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]|\\p{Cs}', 'u');

/** The message of the zod issue raised for a refused character (the error body names the field). */
export const CONTROL_CHARACTER_MESSAGE = 'control characters are not allowed';

export interface SafeTextOptions {
  /** Allow TAB, LF and CR (multi-line text such as a prompt). Default false. */
  multiline?: boolean;
}

/**
 * True when `value` holds a character a request string may not carry: a C0 control (TAB/LF/CR allowed
 * only with `multiline`), DEL, a C1 control, or a lone surrogate.
 */
export function hasForbiddenCharacters(value: string, opts: SafeTextOptions = {}): boolean {
  return (opts.multiline ? MULTI_LINE_FORBIDDEN : SINGLE_LINE_FORBIDDEN).test(value);
}

/**
 * A zod string that refuses control characters and lone surrogates (see `hasForbiddenCharacters`).
 * Use it for every string of a request schema (body, querystring, params, headers) instead of
 * `z.string()`; chain the usual checks after it: `safeText().trim().min(1).max(50)`.
 * @param opts `multiline: true` keeps TAB/LF/CR for multi-line fields.
 */
export function safeText(opts: SafeTextOptions = {}) {
  return z.string().refine((v) => !hasForbiddenCharacters(v, opts), { message: CONTROL_CHARACTER_MESSAGE });
}
