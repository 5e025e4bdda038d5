/**
 * The one HTTP client of the web app (spec 000 §7, GUIDE §2): same-origin `/api` paths, cookie session
 * (`credentials: 'include'`), no caching, JSON in and out. Failures throw {@link ApiError}; any 401 or
 * 419 raises the window event `auth:invalid` carrying the server's message; EMAIL_NOT_VERIFIED raises
 * `account:email-not-verified`.
 */

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

export interface ApiRequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** A plain object is sent as JSON; FormData is sent as multipart. */
  body?: unknown;
  signal?: AbortSignal;
  /** Calls whose 401 is an expected answer (wrong password) do not raise `auth:invalid`. */
  skipAuthEvent?: boolean;
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
 * Call the API and parse its JSON answer.
 * @param path an absolute path under `/api`
 * @throws ApiError on a network failure, a non-2xx status or a body with `success: false`
 */
export async function apiRequest<T>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, skipAuthEvent = false } = options;
  const headers: Record<string, string> = { Accept: 'application/json', 'Cache-Control': 'no-store' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) {
    payload = body;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }

  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: payload, signal, credentials: 'include', cache: 'no-store' });
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
  return data as T;
}
