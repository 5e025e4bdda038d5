/**
 * The hosted checkout address from a checkout answer, if the browser may go there: an absolute or
 * same-site http(s) URL. Anything else (missing, `javascript:`, `data:`) counts as "no URL received".
 */
export function safeCheckoutUrl(value: unknown, base: string): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  try {
    const url = new URL(value, base);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}
