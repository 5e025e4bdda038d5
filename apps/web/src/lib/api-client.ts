/**
 * The one HTTP client of the web app (spec 000 §7, GUIDE §2): same-origin `/api` paths, cookie session
 * (`credentials: 'include'`), no caching, JSON in and out. Every call is typed from the API contract
 * (decision 038): {@link api} takes the path, method, path/query/header parameters, body and answer
 * types from `paths` in `api-schema.d.ts`, which `npm run openapi` generates from the server's routes,
 * so a renamed path or field fails `tsc -b`. Failures throw {@link ApiError}; any 401 or 419 raises the
 * window event `auth:invalid` carrying the server's message; EMAIL_NOT_VERIFIED raises
 * `account:email-not-verified`.
 */
import type { paths } from './api-schema';

export const AUTH_INVALID_EVENT = 'auth:invalid';
/**
 * Raised when a call answers EMAIL_NOT_VERIFIED (decision 032: vendor calls and uploads need a verified
 * e-mail). The verify-e-mail banner listens and draws attention to its resend link.
 */
export const EMAIL_NOT_VERIFIED_EVENT = 'account:email-not-verified';

export interface AuthInvalidDetail {
  /** The server's `message` (or `error`) field, already in the user's language; undefined when absent. */
  message?: string;
  /** The server's error code (`SESSION_EXPIRED`, `UNAUTHENTICATED`, …); undefined when absent. */
  code?: string;
}

/** An API failure: HTTP status (0 for a network failure), the contract error code and the message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The server's `error` field, when it sent one. */
  readonly serverError: string | undefined;
  readonly body: unknown;
  /**
   * True when this answer ended the session (a 401/419 that raised `auth:invalid`): the session-expired
   * modal already tells the user, so callers show no message of their own (issue 17: one message).
   */
  readonly sessionEnded: boolean;

  constructor(status: number, code: string | undefined, message: string, serverError: string | undefined, body: unknown, sessionEnded = false) {
    super(message);
    this.sessionEnded = sessionEnded;
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.serverError = serverError;
    this.body = body;
  }

  get isNetwork(): boolean {
    return this.status === 0;
  }
}

/** What every call may add beside its parameters and body. */
export interface ApiCallOptions {
  signal?: AbortSignal;
  /** Calls whose 401 is an expected answer (wrong password) do not raise `auth:invalid`. */
  skipAuthEvent?: boolean;
}

interface SendOptions extends ApiCallOptions {
  method: Uppercase<HttpMethod>;
  /** A plain object is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  headers?: Record<string, string>;
}

interface ErrorShape {
  success?: boolean;
  code?: string;
  error?: string;
  message?: string;
  maintenance?: boolean;
}

function asErrorShape(data: unknown): ErrorShape {
  return data !== null && typeof data === 'object' ? (data as ErrorShape) : {};
}

/** Raise `auth:invalid` (spec 000 §7) with the server's message and code. */
export function dispatchAuthInvalid(message?: string, code?: string): void {
  window.dispatchEvent(new CustomEvent<AuthInvalidDetail>(AUTH_INVALID_EVENT, { detail: { message, code } }));
}

/**
 * Sends one request and parses its JSON answer (the transport under {@link api}).
 * @param url an absolute path under `/api`, parameters already filled in
 * @throws ApiError on a network failure, a non-2xx status or a body with `success: false`
 */
async function send(url: string, options: SendOptions): Promise<unknown> {
  const { method, body, signal, skipAuthEvent = false } = options;
  const headers: Record<string, string> = { Accept: 'application/json', 'Cache-Control': 'no-store', ...options.headers };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let res: Response;
  try {
    res = await fetch(url, { method, headers, body: payload, signal, credentials: 'include', cache: 'no-store' });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', err instanceof Error ? err.message : String(err), undefined, null);
  }

  const text = await res.text();
  let data: unknown = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }

  const shape = asErrorShape(data);
  if (!res.ok || shape.success === false) {
    const serverMessage = shape.message ?? shape.error;
    const code = shape.code ?? (shape.maintenance ? 'MAINTENANCE' : undefined);
    const sessionEnded = (res.status === 401 || res.status === 419) && !skipAuthEvent;
    if (sessionEnded) dispatchAuthInvalid(serverMessage, code);
    if (code === 'EMAIL_NOT_VERIFIED') window.dispatchEvent(new Event(EMAIL_NOT_VERIFIED_EVENT));
    throw new ApiError(res.status, code, serverMessage ?? `HTTP ${res.status}`, shape.error, data, sessionEnded);
  }
  return data;
}

// ---------------------------------------------------------------------------------------------------
// Types from the contract (api-schema.d.ts, generated; decision 038)

/** The HTTP methods of the API, lower-case as the contract writes them. */
export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The paths of the contract that answer `M` (e.g. `'/api/image/status/{jobId}'` for `'get'`). */
export type ApiPath<M extends HttpMethod> = { [P in keyof paths]: paths[P] extends { [K in M]: object } ? P : never }[keyof paths];

/** The contract's operation for `M` on `P`. */
export type ApiOperation<M extends HttpMethod, P extends ApiPath<M>> = NonNullable<paths[P][M]>;

type Parameters_<O> = O extends { parameters: infer X } ? X : never;
type ParameterIn<O, K extends 'path' | 'query' | 'header'> = Parameters_<O> extends { [Q in K]?: infer X } ? Exclude<X, undefined> : never;
/** `{ [name]: T }` when the contract declares parameters of the kind, required when any of them is. */
type ParameterPart<Name extends string, X> = [X] extends [never] ? { [N in Name]?: never } : object extends X ? { [N in Name]?: X } : { [N in Name]: X };

/**
 * The body a call sends: the JSON body the contract declares (required or optional as declared);
 * where it declares none, an optional FormData — the multipart routes (uploads, notices, image
 * generation) read their parts themselves and declare no body schema.
 */
type BodyPart<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? { body?: B }
    : { body?: FormData };

/** The second argument of a call: path, query and header parameters, body, and the call options. */
export type ApiInit<O> = ParameterPart<'path', ParameterIn<O, 'path'>> &
  ParameterPart<'query', ParameterIn<O, 'query'>> &
  ParameterPart<'header', ParameterIn<O, 'header'>> &
  BodyPart<O> &
  ApiCallOptions;

/** The init argument, optional when nothing in it is required. */
type InitArgs<O> = object extends ApiInit<O> ? [init?: ApiInit<O>] : [init: ApiInit<O>];

type SuccessStatus = 200 | 201 | 202 | 204;
type JsonContent<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type DeclaredAnswer<O> = O extends { responses: infer Rs } ? JsonContent<Rs[Extract<keyof Rs, SuccessStatus>]> : never;

declare const UNDECLARED: unique symbol;
/**
 * The answer of a route that declares no response schema (so the contract cannot say its shape). Read it
 * through {@link undeclaredAnswer}; once the route declares its schema, the call's answer is typed and
 * `undeclaredAnswer` stops compiling there.
 */
export interface UndeclaredAnswer {
  readonly [UNDECLARED]: 'this route declares no response schema';
}

/** The JSON answer of a successful call as the contract declares it (2xx), or {@link UndeclaredAnswer}. */
export type ApiAnswer<O> = [DeclaredAnswer<O>] extends [never] ? UndeclaredAnswer : DeclaredAnswer<O>;

/**
 * Takes the answer of a route that declares no response schema as `T` (a shape from @dewy/contracts).
 * Accepts only such answers: when the route gains a response schema, the call is typed by the contract
 * and this wrapper must go. The routes that still need it are listed in decision 038.
 */
export function undeclaredAnswer<T>(answer: Promise<UndeclaredAnswer>): Promise<T> {
  return answer as unknown as Promise<T>;
}

/**
 * The URL of a call: `{name}` segments filled from `path` (URI-encoded) and `query` appended in the
 * order given (undefined and null left out). For requests that cannot go through {@link api} (the
 * chat's event stream, raw-byte uploads, file downloads, navigations), so that their path and
 * parameters are still checked against the contract.
 */
export function apiUrl<M extends HttpMethod, P extends ApiPath<M>>(_method: M, path: P, params: { path?: ParameterIn<ApiOperation<M, P>, 'path'>; query?: ParameterIn<ApiOperation<M, P>, 'query'> } = {}): string {
  const values = (params.path ?? {}) as Record<string, string | number>;
  const filled = path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (values[name] === undefined) throw new Error(`apiUrl: no value for {${name}} in ${path}`);
    return encodeURIComponent(String(values[name]));
  });
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries((params.query ?? {}) as Record<string, unknown>)) if (v !== undefined && v !== null) q.set(k, String(v));
  const query = q.toString();
  return query ? `${filled}?${query}` : filled;
}

function call(method: HttpMethod) {
  return (path: string, init: { path?: object; query?: object; header?: Record<string, string | undefined>; body?: unknown } & ApiCallOptions = {}) => {
    // Header parameters left undefined are not sent (fetch would send the text "undefined").
    const headers = Object.fromEntries(Object.entries(init.header ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
    return send(apiUrl(method, path as never, { path: init.path as never, query: init.query as never }), {
      method: method.toUpperCase() as Uppercase<HttpMethod>,
      body: init.body,
      headers,
      signal: init.signal,
      skipAuthEvent: init.skipAuthEvent,
    });
  };
}

type Caller<M extends HttpMethod> = <P extends ApiPath<M>>(path: P, ...init: InitArgs<ApiOperation<M, P>>) => Promise<ApiAnswer<ApiOperation<M, P>>>;

/**
 * The typed client: `api.get('/api/image/status/{jobId}', { path: { jobId }, query: { source } })`.
 * Path, parameters, body and answer come from the contract (decision 038); a path the server does not
 * serve, a missing parameter or a body of the wrong shape does not compile. At run time each call is
 * one `fetch` of `send` (JSON or multipart body, cookie session, no caching, ApiError on failure).
 */
export const api: { get: Caller<'get'>; post: Caller<'post'>; put: Caller<'put'>; patch: Caller<'patch'>; delete: Caller<'delete'> } = {
  get: call('get') as Caller<'get'>,
  post: call('post') as Caller<'post'>,
  put: call('put') as Caller<'put'>,
  patch: call('patch') as Caller<'patch'>,
  delete: call('delete') as Caller<'delete'>,
};
