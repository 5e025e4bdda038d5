import type { DestinationStream, LoggerOptions } from 'pino';

/**
 * What the logs may never hold (issue 7 item 3, GUIDE §3a): SQL parameters, password hashes, session
 * tokens and signed URLs. One place, used by the API logger (app.ts) and by any other process that logs
 * (the worker: `createLogger` options from `loggerOptions`). Three layers:
 *
 * 1. serializers: `err` (and `error`) keep the SQL text of a failed drizzle query but never its
 *    parameters, and only the code / name fields of the driver error (its `detail` can quote the row);
 *    `req` logs the URL with secret query values replaced.
 * 2. redact paths: cookie, authorization and set-cookie headers, and password / hash / token fields,
 *    wherever a log call puts them.
 * 3. a last scrub of every written line: an argon2 hash, our session cookie's value, a secret query
 *    value (plain or percent-encoded once, as in `/api/image/download?url=…`) and a drizzle `params:`
 *    tail are replaced, whatever path they took into the line.
 */

/** What a removed value is replaced with. */
export const REDACTED = '[redacted]';

/** Query parameters whose values are secrets (our signed URLs' `sig`, S3 presigned URLs, tokens); case-insensitive. */
export const SECRET_QUERY_PARAMS = ['sig', 'signature', 'token', 'X-Amz-Signature', 'X-Amz-Credential', 'X-Amz-Security-Token'] as const;

/** Name of the session cookie (modules/auth/session.service.ts SESSION_COOKIE; a test keeps them equal). */
export const SESSION_COOKIE_NAME = 'dewy_sid';

const paramNames = SECRET_QUERY_PARAMS.map((p) => p.replace(/-/g, '\\-')).join('|');
// `name=value` after `?`/`&`, or percent-encoded once (`%3F`/`%26` … `%3D`) inside another URL's query.
// The value ends at `&`, `%26`, `#`, whitespace, a quote or a backslash (the line is JSON).
const SECRET_PARAM_RE = new RegExp(`((?:[?&]|%3F|%26)(?:${paramNames})(?:=|%3D))(?:(?!%26)[^&#\\s"'\\\\])+`, 'gi');
const ARGON2_RE = /\$argon2(?:id|i|d)\$[A-Za-z0-9$=,+/.-]*/g;
/** The login device cookie (modules/auth/device-cookie.ts): a credential too, scrubbed like the session. */
export const DEVICE_COOKIE_NAME = 'dewy_device';
const SECRET_COOKIES = `(?:${SESSION_COOKIE_NAME}|${DEVICE_COOKIE_NAME})`;
const COOKIE_VALUE_RE = new RegExp(`(${SECRET_COOKIES}=)[^;\\s"'\\\\,]+`, 'g');
const COOKIE_JSON_RE = new RegExp(`("${SECRET_COOKIES}"\\s*:\\s*")(?:[^"\\\\]|\\\\.)*`, 'g');
// In a written JSON line: a drizzle "params: …" tail inside a string, up to the string's end or a stack frame.
const PARAMS_JSON_RE = /(\\nparams: )(?:[^"\\]|\\(?!n {4}at )[^])*/g;
// In a plain message or stack: "\nparams: …" up to the first stack frame, or to the end.
const PARAMS_TEXT_RE = /\nparams: [\s\S]*?(?=\n {4}at |$)/g;

/**
 * `url` (absolute, or a path with a query) with the values of SECRET_QUERY_PARAMS replaced by
 * `[redacted]`, also where a whole URL travels percent-encoded in another URL's query. Never throws.
 */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAM_RE, `$1${REDACTED}`);
}

/**
 * The last scrub of a log line (or any text): argon2 hashes, the session cookie's value, secret query
 * values and drizzle `params:` tails are replaced. Idempotent; safe on JSON text (stops at quotes).
 */
export function scrubSecrets(text: string): string {
  return text
    .replace(PARAMS_JSON_RE, `$1${REDACTED}`)
    .replace(ARGON2_RE, REDACTED)
    .replace(COOKIE_VALUE_RE, `$1${REDACTED}`)
    .replace(COOKIE_JSON_RE, `$1${REDACTED}`)
    .replace(SECRET_PARAM_RE, `$1${REDACTED}`);
}

/** drizzle's DrizzleQueryError shape: the SQL text, its parameters (never logged) and the driver error. */
interface QueryErrorLike {
  query: string;
  params: unknown[];
}

function isQueryError(e: object): e is QueryErrorLike {
  return typeof (e as { query?: unknown }).query === 'string' && Array.isArray((e as { params?: unknown }).params);
}

function isErrorLike(e: unknown): e is Error & Record<string, unknown> {
  return typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string';
}

/** Fields of an error (ours, Fastify's, pg's, PGlite's) that name things without quoting data. */
const SAFE_ERROR_FIELDS = ['code', 'statusCode', 'severity', 'routine', 'constraint', 'table', 'column', 'schema', 'dataType'] as const;

function cleanText(text: string): string {
  return scrubSecrets(text.replace(PARAMS_TEXT_RE, ''));
}

/**
 * The message of `err` fit for a log: a failed drizzle query gives `Failed query: <SQL>` without its
 * parameters; any other message loses a `params:` tail and secrets (see scrubSecrets).
 */
export function safeErrorMessage(err: unknown): string {
  if (!isErrorLike(err)) return cleanText(String(err));
  if (isQueryError(err)) return cleanText(`Failed query: ${err.query}`);
  return cleanText(err.message);
}

/**
 * pino serializer for errors: `{type, message, stack, code…, query?, details?, cause?}` where a failed
 * drizzle query keeps its SQL text (`query`, with `$1` placeholders) and never its `params`, the
 * driver error in `cause` keeps only its code and name fields (its `detail` can quote the failing row,
 * password hash included), and every text goes through `scrubSecrets`. Non-errors pass unchanged.
 */
export function serializeError(err: unknown, depth = 0): unknown {
  if (!isErrorLike(err)) return err;
  const out: Record<string, unknown> = {
    type: typeof err.constructor === 'function' && err.constructor.name !== 'Object' ? err.constructor.name : err.name,
    message: safeErrorMessage(err),
  };
  if (typeof err.stack === 'string') {
    // The stack starts with "<name>: <message>": replace the raw message before anything else.
    const message = safeErrorMessage(err);
    out.stack = cleanText(err.stack.replace(err.message, () => message));
  }
  for (const key of SAFE_ERROR_FIELDS) {
    const v = err[key];
    if (typeof v === 'string' || typeof v === 'number') out[key] = v;
  }
  if (isQueryError(err)) out.query = cleanText(err.query);
  // AppError details (header names, expected sizes, zod issues); scrubbed as text in case one quotes a secret.
  if (err.details !== undefined) out.details = JSON.parse(scrubSecrets(JSON.stringify(err.details) ?? 'null')) as unknown;
  if (err.cause !== undefined && depth < 4) out.cause = serializeError(err.cause, depth + 1);
  return out;
}

/**
 * pino serializer for Fastify's request: method, URL with secret query values redacted (see
 * redactUrl), host and remote address; never headers or body.
 */
export function serializeRequest(req: { method?: string; url?: string; host?: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }): Record<string, unknown> {
  return {
    method: req.method,
    url: typeof req.url === 'string' ? redactUrl(req.url) : req.url,
    host: req.host ?? req.hostname,
    remoteAddress: req.ip,
    remotePort: req.socket?.remotePort,
  };
}

/** Paths pino removes wherever a log call puts them (objects logged as `req`, `res`, `headers` or at the top). */
const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-amz-security-token"]',
  'res.headers["set-cookie"]',
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  'cookie',
  'cookies',
  'authorization',
  'password',
  'passwordHash',
  'password_hash',
  'token',
  'sessionToken',
  '*.password',
  '*.passwordHash',
  '*.password_hash',
  '*.token',
  '*.sessionToken',
  '*.cookie',
  '*.cookies',
  '*.authorization',
  '*.headers.cookie',
  '*.headers.authorization',
  '*.headers["set-cookie"]',
];

export interface RedactingLoggerOptions {
  level: string;
  /** Where lines go (tests: an in-memory stream); default stdout. */
  stream?: DestinationStream;
}

/**
 * pino options with every redaction layer of this module: serializers (err, error, req), redact
 * paths and the line scrub (`hooks.streamWrite`). Pass to Fastify as `logger` (it adds its own `res`
 * serializer), or to `pino(loggerOptions(...), stream)` in a process without Fastify (the worker).
 * @param opts.level pino level (`info`, `debug`, …); opts.stream optional destination.
 */
export function loggerOptions(opts: RedactingLoggerOptions): LoggerOptions & { stream?: DestinationStream } {
  return {
    level: opts.level,
    serializers: { err: serializeError, error: serializeError, req: serializeRequest },
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    hooks: { streamWrite: scrubSecrets },
    ...(opts.stream ? { stream: opts.stream } : {}),
  };
}
