import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useImageGenerationEnabled } from '../lib/feature-flags';
import { isEnglishPath, signedInDestination } from '../lib/locale-path';
import { useSession } from '../lib/session';
import { notify } from '../lib/toast';
import { useLocale } from '../lib/use-locale';

function Loading() {
  return (
    <div className="center-screen" aria-busy="true">
      <div className="spinner" />
    </div>
  );
}

/** Signed-in only: signed-out visitors go to /login (an optional toast says why). */
export function RequireAuth({ children, messageKey }: { children: ReactNode; messageKey?: string }) {
  const { user, status, expired } = useSession();
  const { lp } = useLocale();
  const { t } = useTranslation();
  const told = useRef(false);
  // The session-expired modal already explains an expiry; the toast is for visitors who never signed in.
  const redirect = !user && status !== 'loading' && !expired.open;
  useEffect(() => {
    if (redirect && messageKey && !told.current) {
      told.current = true;
      notify.info(t(messageKey));
    }
  }, [redirect, messageKey, t]);
  if (!user && status === 'loading') return <Loading />;
  if (!user) return <Navigate to={lp('/login')} replace />;
  return <>{children}</>;
}

/**
 * /login and /signup for signed-in visitors (issue 17): no form, they are sent on — to `?next=` when it
 * is a same-site path (lib/locale-path.ts safeNextPath: no other origin, no `//`, no backslash), else to
 * /upscale — in the page's language, replacing the history entry. Signed-out visitors see the form.
 */
export function RedirectIfSignedIn({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const { lp } = useLocale();
  const [params] = useSearchParams();
  if (user) return <Navigate to={lp(signedInDestination(params.get('next')))} replace />;
  return <>{children}</>;
}

/** /image-generation: only when the flag is on, else home (/en for English paths). */
export function ImageGenerationGate({ children }: { children: ReactNode }) {
  const { enabled, ready } = useImageGenerationEnabled();
  const { pathname } = useLocation();
  if (!ready) return <Loading />;
  if (!enabled) return <Navigate to={isEnglishPath(pathname) ? '/en' : '/'} replace />;
  return <>{children}</>;
}

/** /consistency → /image-generation when the flag is on, else home. */
export function ConsistencyRedirect() {
  const { enabled, ready } = useImageGenerationEnabled();
  const { pathname } = useLocation();
  const en = isEnglishPath(pathname);
  if (!ready) return <Loading />;
  return <Navigate to={enabled ? (en ? '/en/image-generation' : '/image-generation') : en ? '/en' : '/'} replace />;
}
