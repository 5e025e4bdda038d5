import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { recordAffiliateClick } from '../lib/affiliate-api';
import { readAffiliateParams, withoutAffiliateParams } from '../lib/affiliate-params';

/**
 * Share-link arrivals (spec 001 §7, 002 §7), on every page: when the address carries `aff` (and
 * optionally `campaign`), record the click — the server sets the attribution cookie; errors are
 * ignored — and then remove both parameters from the address (replacing the history entry; other
 * parameters and the hash kept). One arrival is recorded once, even when the address changes while the
 * call runs (the /en rewrite of LocaleSync) and under StrictMode's double effects.
 */
export function useAffiliateClick(): void {
  const { search } = useLocation();
  const navigate = useNavigate();
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const params = readAffiliateParams(search);
    if (!params) return;
    const key = `${params.aff}|${params.campaign ?? ''}`;
    if (handled.current === key) return;
    handled.current = key;
    void recordAffiliateClick(params.aff, params.campaign)
      .catch((err: unknown) => console.warn('[affiliate] click not recorded', err))
      .finally(() => {
        // Clean the address the visitor is on now (it may have been rewritten meanwhile).
        const now = window.location;
        if (!readAffiliateParams(now.search)) return;
        void navigate(`${now.pathname}${withoutAffiliateParams(now.search)}${now.hash}`, { replace: true, preventScrollReset: true });
      });
  }, [search, navigate]);
}

/** Renders nothing; runs {@link useAffiliateClick} inside the router. */
export function AffiliateClickTracker() {
  useAffiliateClick();
  return null;
}
