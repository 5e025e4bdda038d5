import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/toast';
import { useLocale } from '../../../lib/use-locale';
import { GoogleSignInButton, socialStartUrl, useSocialProviders } from '../../../shared/social';

export type Provider = 'google' | 'naver' | 'kakao';

const STYLES: Record<Provider, string> = { google: 'social-google', naver: 'social-naver', kakao: 'social-kakao' };
const MARKS: Record<Provider, string> = { google: 'G', naver: 'N', kakao: 'K' };


/**
 * Social sign-in buttons (spec 000 §2; decision 021). A configured Google shows Google's own Identity
 * Services button, whose credential goes to `onGoogleCredential`; configured Naver and Kakao are links
 * to the server's redirect (`/api/auth/naver|kakao`), which comes back signed in or to
 * `/login?error=<code>`. A provider the server has not configured keeps its button, which says so.
 */
export function SocialButtons({
  providers,
  mode,
  next,
  onGoogleCredential,
}: {
  providers: Provider[];
  mode: 'login' | 'signup';
  /** Where a redirect sign-in returns (Korean-form path), e.g. `/pricing`. */
  next?: string | null;
  onGoogleCredential: (credential: string) => void;
}) {
  const { t } = useTranslation();
  const { locale } = useLocale();
  const configured = useSocialProviders();
  const label = (p: Provider) => t(`auth.${mode === 'login' ? 'continueWith' : 'signupWith'}.${p}`);
  const content = (p: Provider) => (
    <>
      <span className="social-mark" aria-hidden="true">
        {MARKS[p]}
      </span>
      {label(p)}
    </>
  );
  return (
    <div className="social-buttons">
      {providers.map((p) => {
        if (p === 'google' && configured.google) {
          return (
            <GoogleSignInButton
              key={p}
              clientId={configured.google.clientId}
              text={mode === 'login' ? 'continue_with' : 'signup_with'}
              locale={locale}
              onCredential={onGoogleCredential}
              onWidgetError={() => notify.error(t('auth.social.googleWidgetFailed'))}
            />
          );
        }
        if (p !== 'google' && configured[p]) {
          return (
            <a key={p} className={`btn btn-block social-btn ${STYLES[p]}`} href={socialStartUrl(p, { locale, next })} data-testid={`social-${p}`}>
              {content(p)}
            </a>
          );
        }
        return (
          <button key={p} type="button" className={`btn btn-block social-btn ${STYLES[p]}`} onClick={() => notify.info(t('auth.socialNotConfigured'))} data-testid={`social-${p}`}>
            {content(p)}
          </button>
        );
      })}
    </div>
  );
}
