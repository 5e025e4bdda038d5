import { SOCIAL_PROVIDERS, type SocialProvider } from '@dewy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { formatSeoulDate } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { deleteIdentity, fetchIdentities, GoogleSignInButton, postGoogleLink, SOCIAL_KEYS, socialStartUrl, useSocialProviders } from '../../../shared/social';
import { useSocialResultParam } from '../hooks/use-social-result-param';

/**
 * Account section of My Page (issue 14, decision 021): the account's ways to sign in — the password
 * (set or not) and each provider, linked (with its e-mail and date, and Unlink) or not (Link: Naver and
 * Kakao through their redirect with intent=link, Google with its own button). Unlink is refused by the
 * server for the last way to sign in; the button is disabled here for the same rule and the server's
 * refusal is shown in the user's language.
 */
export function AccountCard() {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const { user } = useSession();
  const queryClient = useQueryClient();
  const configured = useSocialProviders();
  const key = SOCIAL_KEYS.identities(user?.id ?? null);
  const identities = useQuery({ queryKey: key, queryFn: fetchIdentities, enabled: Boolean(user) });
  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: key }), [queryClient, key]);
  useSocialResultParam(refresh);

  const unlink = useMutation({
    mutationFn: (p: SocialProvider) => deleteIdentity(p),
    onSuccess: (data, p) => {
      queryClient.setQueryData(key, data);
      notify.success(t('mypage.account.unlinkedToast', { provider: t(`mypage.account.providers.${p}`) }));
    },
    onError: (err) => notify.error(err instanceof ApiError && !err.isNetwork && err.message ? err.message : t('auth.social.networkError')),
  });

  const linkGoogle = (credential: string) => {
    postGoogleLink({ credential, intent: 'link' })
      .then(() => {
        notify.success(t('mypage.account.linkedToast', { provider: 'Google' }));
        refresh();
      })
      .catch((err: unknown) => notify.error(err instanceof ApiError && !err.isNetwork && err.message ? err.message : t('auth.social.networkError')));
  };

  const data = identities.data;
  const methods = data ? (data.hasPassword ? 1 : 0) + data.identities.length : 0;
  return (
    <section className="card mypage-card mypage-account" aria-labelledby="mypage-account-title" data-testid="mypage-account">
      <h2 id="mypage-account-title">{t('mypage.account.title')}</h2>
      <p className="mypage-muted">{t('mypage.account.subtitle')}</p>
      {identities.isError ? <p className="mypage-field-error">{t('mypage.account.loadFailed')}</p> : null}
      {data ? (
        <ul className="account-methods">
          <li className="account-method" data-testid="account-password">
            <span className="account-mark account-mark-password" aria-hidden="true">
              *
            </span>
            <span className="account-name">{t('mypage.account.password')}</span>
            <span className="account-state">{data.hasPassword ? t('mypage.account.passwordSet') : t('mypage.account.passwordNone')}</span>
          </li>
          {SOCIAL_PROVIDERS.map((p) => {
            const linked = data.identities.find((i) => i.provider === p);
            const isConfigured = p === 'google' ? Boolean(configured.google) : configured[p];
            const last = Boolean(linked) && methods <= 1;
            return (
              <li key={p} className="account-method" data-testid={`account-${p}`} data-linked={linked ? 'true' : 'false'}>
                <span className={`account-mark account-mark-${p}`} aria-hidden="true">
                  {p === 'google' ? 'G' : p === 'naver' ? 'N' : 'K'}
                </span>
                <span className="account-name">{t(`mypage.account.providers.${p}`)}</span>
                <span className="account-state">
                  {linked ? (
                    <>
                      {linked.email ? (
                        <span className="account-email" title={linked.email}>
                          {linked.email}
                        </span>
                      ) : null}
                      <span>{t('mypage.account.linked', { date: formatSeoulDate(linked.createdAt, locale) })}</span>
                    </>
                  ) : isConfigured ? (
                    t('mypage.account.notLinked')
                  ) : (
                    t('mypage.account.notConfigured')
                  )}
                </span>
                <span className="account-action">
                  {linked ? (
                    <button
                      type="button"
                      className="btn btn-secondary btn-sm"
                      disabled={last || unlink.isPending}
                      title={last ? t('mypage.account.lastMethod') : undefined}
                      aria-describedby={last ? 'account-last-hint' : undefined}
                      onClick={() => unlink.mutate(p)}
                      data-testid={`account-unlink-${p}`}
                    >
                      {unlink.isPending && unlink.variables === p ? t('mypage.account.unlinking') : t('mypage.account.unlink')}
                    </button>
                  ) : p === 'google' && configured.google ? (
                    <GoogleSignInButton clientId={configured.google.clientId} text="continue_with" locale={locale} onCredential={linkGoogle} onWidgetError={() => notify.error(t('auth.social.googleWidgetFailed'))} />
                  ) : p !== 'google' && isConfigured ? (
                    <a className="btn btn-secondary btn-sm" href={socialStartUrl(p, { locale, intent: 'link', next: '/mypage' })} data-testid={`account-link-${p}`}>
                      {t('mypage.account.link')}
                    </a>
                  ) : null}
                </span>
              </li>
            );
          })}
        </ul>
      ) : null}
      {data && methods <= 1 && data.identities.length > 0 ? (
        <p className="mypage-muted account-hint" id="account-last-hint">
          {t('mypage.account.lastMethod')}
        </p>
      ) : null}
    </section>
  );
}
