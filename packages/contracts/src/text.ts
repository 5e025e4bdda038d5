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

/** The message of the zod issue raised for an image URL whose percent-escapes cannot be decoded (`/%zz`). */
export const MALFORMED_ESCAPE_MESSAGE = 'malformed percent-escape';

/**
 * `decodeURIComponent` that never throws (issue 21 point 9): the decoded text, or null when `value` holds
 * a malformed percent-escape (`%zz`, a lone `%`, `%E0%A4` cut short, an escaped lone surrogate). The one
 * decoder of image URLs, used by the request schemas ({@link imageUrlText}) and by the server's
 * `keyFromImageUrl`, so a malformed escape is a 400 naming the field, never a 500 from a URIError.
 */
export function safeDecodeURIComponent(value: string): string | null {
  try {
    return decodeURIComponent(value);
  } catch {
    return null;
  }
}

/**
 * An image URL of a request (every field that names one of the caller's images: upscale `input.image`,
 * face-edit `image`/`mask`, image-edit `images[]`/`mask`, auto-prompt `images[]`, presign-download,
 * the download proxy, result-to-upload): `safeText` of 1–`max` characters whose percent-escapes decode
 * (else VALIDATION_FAILED, MALFORMED_ESCAPE_MESSAGE) and whose decoded text holds no control character
 * either (`%00`, `%0a`: CONTROL_CHARACTER_MESSAGE). The server then resolves it to a key of the caller's own.
 */
export function imageUrlText(max = 4096) {
  return safeText()
    .min(1)
    .max(max)
    .refine((v) => safeDecodeURIComponent(v) !== null, { message: MALFORMED_ESCAPE_MESSAGE, abort: true })
    .refine((v) => !hasForbiddenCharacters(safeDecodeURIComponent(v) ?? ''), { message: CONTROL_CHARACTER_MESSAGE });
}
