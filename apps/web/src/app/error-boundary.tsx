import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';
import { currentLocale } from '../lib/i18n';
import { Icon } from '../components/ui/icons';

/** The global error screen of spec 000 §2: unexpected error, refresh and home buttons. */
export function ErrorScreen() {
  const { t } = useTranslation();
  const home = currentLocale() === 'en' ? '/en' : '/';
  return (
    <div className="center-screen" role="alert" data-testid="error-screen">
      <div className="emoji emoji-icon">
        <Icon name="warning" size={40} />
      </div>
      <h1>{t('errorScreen.title')}</h1>
      <p>{t('errorScreen.body')}</p>
      <div style={{ display: 'flex', gap: 10, flexWrap: 'wrap', justifyContent: 'center' }}>
        <button type="button" className="btn btn-primary" onClick={() => window.location.reload()}>
          {t('errorScreen.refresh')}
        </button>
        <button type="button" className="btn btn-secondary" onClick={() => window.location.assign(home)}>
          {t('errorScreen.home')}
        </button>
      </div>
    </div>
  );
}

/** errorElement of the route tree. */
export function RouteErrorScreen() {
  const error = useRouteError();
  console.error('[route error]', error);
  return <ErrorScreen />;
}

interface State {
  failed: boolean;
}

/** Catches render errors outside the router. */
export class AppErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { failed: false };

  static getDerivedStateFromError(): State {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('[app error]', error, info.componentStack);
  }

  override render() {
    return this.state.failed ? <ErrorScreen /> : this.props.children;
  }
}
