import { useEffect, useRef, useState } from 'react';

/** The parts of Google Identity Services (https://accounts.google.com/gsi/client) we call. */
interface GoogleAccountsId {
  initialize(config: { client_id: string; callback: (response: { credential?: string }) => void; ux_mode?: 'popup'; context?: 'signin' | 'signup' | 'use' }): void;
  renderButton(parent: HTMLElement, options: { type?: 'standard'; theme?: 'outline'; size?: 'large'; text?: 'continue_with' | 'signup_with' | 'signin_with'; shape?: 'rectangular'; width?: number; locale?: string; logo_alignment?: 'left' }): void;
}
declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleAccountsId } };
  }
}

const GSI_SRC = 'https://accounts.google.com/gsi/client';
let gsiLoading: Promise<GoogleAccountsId> | null = null;

/** Loads the GIS script once per page; rejects when it cannot be loaded (offline, blocked). */
function loadGsi(): Promise<GoogleAccountsId> {
  if (window.google?.accounts?.id) return Promise.resolve(window.google.accounts.id);
  gsiLoading ??= new Promise<GoogleAccountsId>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = GSI_SRC;
    s.async = true;
    s.onload = () => (window.google?.accounts?.id ? resolve(window.google.accounts.id) : reject(new Error('GIS missing')));
    s.onerror = () => {
      gsiLoading = null;
      s.remove();
      reject(new Error('GIS failed to load'));
    };
    document.head.appendChild(s);
  });
  return gsiLoading;
}

/**
 * The Google Identity Services button (spec 000 §2, §7): renders Google's own button for `clientId`
 * and hands its credential (an ID token) to `onCredential`; `onWidgetError` when the widget cannot load
 * or gives no credential (spec 000 §8: '구글 로그인 실패').
 */
export function GoogleSignInButton({
  clientId,
  text,
  locale,
  onCredential,
  onWidgetError,
}: {
  clientId: string;
  text: 'continue_with' | 'signup_with' | 'signin_with';
  locale: 'ko' | 'en';
  onCredential: (credential: string) => void;
  onWidgetError: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const handlers = useRef({ onCredential, onWidgetError });
  handlers.current = { onCredential, onWidgetError };
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let cancelled = false;
    loadGsi()
      .then((gsi) => {
        if (cancelled || !ref.current) return;
        gsi.initialize({
          client_id: clientId,
          ux_mode: 'popup',
          callback: (r) => (r.credential ? handlers.current.onCredential(r.credential) : handlers.current.onWidgetError()),
        });
        const width = Math.min(400, Math.max(200, Math.round(ref.current.getBoundingClientRect().width)));
        gsi.renderButton(ref.current, { type: 'standard', theme: 'outline', size: 'large', text, shape: 'rectangular', width, locale, logo_alignment: 'left' });
      })
      .catch(() => {
        if (!cancelled) setFailed(true);
      });
    return () => {
      cancelled = true;
    };
  }, [clientId, text, locale]);

  if (failed) {
    return (
      <button type="button" className="btn btn-block social-btn social-google" onClick={() => handlers.current.onWidgetError()} data-testid="social-google">
        <span className="social-mark" aria-hidden="true">
          G
        </span>
        Google
      </button>
    );
  }
  return <div ref={ref} className="gsi-button" data-testid="social-google-gsi" />;
}
