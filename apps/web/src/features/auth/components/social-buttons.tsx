import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/toast';

export type Provider = 'google' | 'naver' | 'kakao';

const STYLES: Record<Provider, string> = { google: 'social-google', naver: 'social-naver', kakao: 'social-kakao' };

/** Social sign-in buttons; providers are not configured yet, so each says so in a toast. */
export function SocialButtons({ providers, mode }: { providers: Provider[]; mode: 'login' | 'signup' }) {
  const { t } = useTranslation();
  return (
    <div className="social-buttons">
      {providers.map((p) => (
        <button key={p} type="button" className={`btn btn-block social-btn ${STYLES[p]}`} onClick={() => notify.info(t('auth.socialNotConfigured'))} data-testid={`social-${p}`}>
          <span className="social-mark" aria-hidden="true">
            {p === 'google' ? 'G' : p === 'naver' ? 'N' : 'K'}
          </span>
          {t(`auth.${mode === 'login' ? 'continueWith' : 'signupWith'}.${p}`)}
        </button>
      ))}
    </div>
  );
}
