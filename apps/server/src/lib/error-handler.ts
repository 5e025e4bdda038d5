import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ERROR_HTTP_STATUS, apiErrorBody, errorMessage, type ErrorCode, type ValidationIssueDetail } from '@dewy/contracts';
import { AppError } from './app-error';
import { requestLocale } from './locale';
import { safeErrorMessage } from './log-redaction';
import { isInvalidTextError } from './pg-errors';

/** Maps Fastify's own errors (body parsing, limits) to our codes. */
function codeForFastifyError(err: FastifyError): ErrorCode | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'MALFORMED_JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
      return 'PAYLOAD_TOO_LARGE';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return 'VALIDATION_FAILED';
    default:
      break;
  }
  if (err instanceof SyntaxError && err.statusCode === 400) return 'MALFORMED_JSON';
  if (err.statusCode === 429) return 'RATE_LIMITED';
  if (err.statusCode === 404) return 'NOT_FOUND';
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) return 'VALIDATION_FAILED';
  return undefined;
}

/**
 * One schema failure as the page reads it (contracts' ValidationIssueDetail): the field's dotted path,
 * the zod issue code as `rule`, the limit that was broken (length or size bounds as numbers, the string
 * format) and zod's own English text for logs and API clients.
 */
function issueDetail(v: { instancePath: string; keyword: string; message?: string; params: Record<string, unknown> }): ValidationIssueDetail {
  const detail: ValidationIssueDetail = { field: v.instancePath.replace(/^\//, '').replaceAll('/', '.'), rule: v.keyword, message: v.message ?? '' };
  const { minimum, maximum, format } = v.params;
  if (typeof minimum === 'number' || typeof minimum === 'bigint') detail.minimum = Number(minimum);
  if (typeof maximum === 'number' || typeof maximum === 'bigint') detail.maximum = Number(maximum);
  if (typeof format === 'string') detail.format = format;
  return detail;
}

/**
 * The one place where errors become HTTP answers: `{success:false, code, error, message}` (contracts'
 * apiErrorBody: `error` is the code where the spec shows one, 001 §8, else the text; `maintenance: true`
 * on a 503 for maintenance) with the status from contracts' ERROR_HTTP_STATUS and the message in the
 * caller's language. Schema failures
 * answer VALIDATION_FAILED with `details[]` naming the field (`input.prompt`) and the rule (`too_small`,
 * `minimum: 8`; see {@link issueDetail}), which the page turns into a sentence per field; PostgreSQL refusing
 * a character (22021, 22P05) is VALIDATION_FAILED too. Unexpected errors are logged with the request id
 * (without SQL parameters, see lib/log-redaction.ts) and answered as INTERNAL without internals.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req, reply) => {
    let code: ErrorCode;
    let details: unknown;
    if (err instanceof AppError) {
      code = err.code;
      details = err.details;
    } else if (hasZodFastifySchemaValidationErrors(err)) {
      code = 'VALIDATION_FAILED';
      details = err.validation.map((v) => issueDetail(v as unknown as Parameters<typeof issueDetail>[0]));
    } else if (isInvalidTextError(err)) {
      // A character PostgreSQL cannot store (NUL) that slipped past a contract: the input is wrong, not the server.
      code = 'VALIDATION_FAILED';
    } else {
      code = codeForFastifyError(err) ?? 'INTERNAL';
    }
    const status = ERROR_HTTP_STATUS[code];
    // The `err` serializer (lib/log-redaction.ts) keeps SQL text but never its parameters; the refused
    // line carries only a cleaned message for the same reason.
    if (status >= 500) req.log.error({ err }, 'request failed');
    else req.log.info({ code, detail: safeErrorMessage(err) }, 'request refused');
    const locale = requestLocale(req.headers, req.cookies);
    // The page shows catalogue text in the caller's language; an AppError's own message is for logs.
    return reply.code(status).send(apiErrorBody(code, errorMessage(code, locale), details));
  });
}
