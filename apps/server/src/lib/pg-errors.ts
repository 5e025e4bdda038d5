/**
 * The string `code`s found on `err` and on the errors it wraps in `cause` (DrizzleQueryError → pg /
 * PGlite error carrying the PostgreSQL SQLSTATE), at most three levels deep, outermost first.
 */
export function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  let e: unknown = err;
  for (let i = 0; i < 3 && e; i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
    e = (e as { cause?: unknown }).cause;
  }
  return codes;
}

/** True when `err` (or the driver error drizzle wraps in `cause`) is a PostgreSQL unique violation (23505). */
export function isUniqueViolation(err: unknown): boolean {
  return errorCodes(err).includes('23505');
}

/**
 * SQLSTATEs PostgreSQL raises for text it cannot store: 22021 character_not_in_repertoire ("invalid
 * byte sequence for encoding UTF8: 0x00", a NUL in `text`) and 22P05 untranslatable_character
 * (`\u0000` in `jsonb`). The contracts refuse control characters first; these are the net behind them.
 */
const INVALID_TEXT_CODES = new Set(['22021', '22P05']);

/** True when `err` is PostgreSQL refusing a character of the input (see INVALID_TEXT_CODES): a 400, not a 500. */
export function isInvalidTextError(err: unknown): boolean {
  return errorCodes(err).some((c) => INVALID_TEXT_CODES.has(c));
}
