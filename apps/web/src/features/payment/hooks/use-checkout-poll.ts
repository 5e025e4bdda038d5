import { useCallback, useEffect, useState } from 'react';
import { fetchCheckoutStatus } from '../../../lib/billing-api';
import { abortableSleep, pollCheckout, type CheckoutPollOutcome } from '../lib/checkout-poll';

/**
 * Polls checkout `id` (or `latest`) while `enabled`, on the payment pages' schedule; `outcome` is null
 * while it runs. `retry` polls once more (the "check again" button).
 */
export function useCheckoutPoll(id: string, enabled: boolean): { outcome: CheckoutPollOutcome | null; retry: () => void } {
  const [result, setResult] = useState<{ key: string; outcome: CheckoutPollOutcome } | null>(null);
  const [round, setRound] = useState(0);
  const key = `${id}#${round}`;

  useEffect(() => {
    if (!enabled) return;
    const ac = new AbortController();
    pollCheckout(id, { fetchStatus: fetchCheckoutStatus, sleep: abortableSleep, now: () => Date.now(), signal: ac.signal })
      .then((outcome) => setResult({ key, outcome }))
      .catch((err: unknown) => {
        if (!(err instanceof DOMException && err.name === 'AbortError')) setResult({ key, outcome: { kind: 'error', error: err } });
      });
    return () => ac.abort();
  }, [id, enabled, key]);

  const retry = useCallback(() => setRound((r) => r + 1), []);
  return { outcome: result?.key === key ? result.outcome : null, retry };
}
