import type { CheckoutResponse } from '@dewy/contracts';
import type { TFunction } from 'i18next';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/toast';
import { safeCheckoutUrl } from '../lib/checkout-url';

/** How long a button stays busy after the browser was sent to the checkout, if the page did not leave. */
const LEAVE_TIMEOUT_MS = 20_000;

/** The text of a failed payment call: the server's message (in the caller's language), else a network hint. */
export function paymentErrorText(err: unknown, t: TFunction): string {
  if (err instanceof ApiError) return err.isNetwork ? t('pricing.networkError') : err.message;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Starting a hosted checkout from the pricing page: one at a time (a second click, on this button or
 * another, does nothing while one runs), the busy key for the button's spinner, the spec's messages
 * on failure (000 §8), and the browser sent to `checkout_url`. Going back from the checkout restores
 * the page from the back/forward cache with the buttons usable again.
 * @param onPaymentsOff called when the server answers PAYMENTS_NOT_CONFIGURED
 */
export function useCheckoutLauncher(t: TFunction, onPaymentsOff: () => void) {
  const [busyKey, setBusyKey] = useState<string | null>(null);
  const lock = useRef(false);
  const leaveTimer = useRef<number | undefined>(undefined);

  const release = useCallback(() => {
    window.clearTimeout(leaveTimer.current);
    lock.current = false;
    setBusyKey(null);
  }, []);

  useEffect(() => {
    const onPageShow = (e: PageTransitionEvent) => {
      if (e.persisted) release();
    };
    window.addEventListener('pageshow', onPageShow);
    return () => {
      window.removeEventListener('pageshow', onPageShow);
      window.clearTimeout(leaveTimer.current);
    };
  }, [release]);

  /** Try to take the one-at-a-time lock for `key`; false when something already runs. */
  const acquire = useCallback((key: string) => {
    if (lock.current) return false;
    lock.current = true;
    setBusyKey(key);
    return true;
  }, []);

  const launch = useCallback(
    async (key: string, call: () => Promise<CheckoutResponse>) => {
      if (!acquire(key)) return;
      try {
        const res = await call();
        const url = safeCheckoutUrl(res?.checkout_url, window.location.href);
        if (!url) {
          notify.error(t('pricing.noCheckoutUrl'));
          release();
          return;
        }
        // Stay busy while the browser leaves, so no second checkout starts.
        leaveTimer.current = window.setTimeout(release, LEAVE_TIMEOUT_MS);
        window.location.assign(url);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'PAYMENTS_NOT_CONFIGURED') onPaymentsOff();
        notify.error(t('pricing.checkoutFailed', { error: paymentErrorText(err, t) }));
        release();
      }
    },
    [acquire, release, t, onPaymentsOff],
  );

  return { busyKey, launch, acquire, release };
}
