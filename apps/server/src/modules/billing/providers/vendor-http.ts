import { PaymentProviderError } from '../payments-provider';

/**
 * Small pieces the payment adapters' HTTP clients and webhook parsers share (Lemon Squeezy, Paddle,
 * Stripe): one header of a request, and one call to a vendor's JSON API with a timeout, no redirects and
 * the vendor's body read once.
 */

/**
 * One request header by name (case-insensitive), as Node gives them; a header sent more than once is
 * treated as absent (a signature header must be one value). @returns its value or undefined.
 */
export function singleHeader(headers: Record<string, string | string[] | undefined>, name: string): string | undefined {
  for (const [k, v] of Object.entries(headers)) {
    if (k.toLowerCase() !== name) continue;
    if (Array.isArray(v)) return v.length === 1 ? v[0] : undefined;
    return v;
  }
  return undefined;
}

/**
 * Sends one request to a vendor's JSON API (`redirect: 'error'`, aborted after `timeoutMs`) and reads
 * its body once. @returns the response, the parsed JSON (null for an empty body) and whether the body
 * was JSON or empty. @throws PaymentProviderError "<vendor> <where> timed out after N ms | could not be
 * reached" when no answer came.
 */
export async function fetchVendorJson(
  vendor: string,
  where: string,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: unknown; timeoutMs: number },
): Promise<{ res: Response; json: unknown; parsed: boolean }> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: init.method,
      headers: init.headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(init.timeoutMs),
      redirect: 'error',
    });
  } catch (e) {
    const reason = e instanceof Error && e.name === 'TimeoutError' ? `timed out after ${init.timeoutMs} ms` : 'could not be reached';
    throw new PaymentProviderError(`${vendor} ${where} ${reason}`);
  }
  const text = await res.text().catch(() => '');
  if (text.trim() === '') return { res, json: null, parsed: true };
  try {
    return { res, json: JSON.parse(text) as unknown, parsed: true };
  } catch {
    return { res, json: null, parsed: false };
  }
}
