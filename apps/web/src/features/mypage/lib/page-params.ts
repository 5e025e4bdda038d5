/**
 * My Page's address parameters (001 §2): `payment=success` shows the success banner; `refresh=<ts>`
 * asks for an immediate refresh of subscription and credits, after which the parameter is removed.
 * Pure, for unit tests.
 */
export function readPageParams(search: string): { paymentSuccess: boolean; refresh: string | null } {
  const q = new URLSearchParams(search);
  const refresh = q.get('refresh');
  return { paymentSuccess: q.get('payment') === 'success', refresh: refresh !== null ? refresh : null };
}

/** The query string without the named parameters, with its leading `?`, or '' when nothing is left. */
export function withoutParams(search: string, names: readonly string[]): string {
  const q = new URLSearchParams(search);
  for (const n of names) q.delete(n);
  const rest = q.toString();
  return rest ? `?${rest}` : '';
}
