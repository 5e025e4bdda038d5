import { parseSocialRedirectError, SOCIAL_PROVIDERS, type SocialProvider } from '@dewy/contracts';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { notify } from '../../../lib/toast';
import { withoutParams } from '../lib/page-params';

/**
 * The outcome of a Naver/Kakao link or re-authentication that came back to My Page (decision 021):
 * `?social=linked|reauth&provider=<p>` → a success toast, `?socialError=<code>` → the error in the page
 * language; the parameters are then removed from the address.
 */
export function useSocialResultParam(onLinked: () => void): void {
  const { t } = useTranslation();
  const { search, pathname, hash } = useLocation();
  const navigate = useNavigate();
  const handled = useRef<string | null>(null);

  useEffect(() => {
    const q = new URLSearchParams(search);
    const result = q.get('social');
    const error = parseSocialRedirectError(q.get('socialError'));
    if ((!result && !q.has('socialError')) || handled.current === search) return;
    handled.current = search;
    const p = q.get('provider');
    const provider = (SOCIAL_PROVIDERS as readonly string[]).includes(p ?? '') ? (p as SocialProvider) : null;
    const name = provider ? t(`mypage.account.providers.${provider}`) : '';
    if (error) notify.error(t(`auth.social.error.${error}`));
    else if (result === 'linked' && provider) notify.success(t('mypage.account.linkedToast', { provider: name }));
    else if (result === 'reauth' && provider) notify.success(t('mypage.account.reauthToast', { provider: name }));
    if (result === 'linked') onLinked();
    void navigate(`${pathname}${withoutParams(search, ['social', 'provider', 'socialError'])}${hash}`, { replace: true, preventScrollReset: true });
  }, [search, pathname, hash, navigate, t, onLinked]);
}
