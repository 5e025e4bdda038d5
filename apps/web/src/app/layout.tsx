import { Outlet, ScrollRestoration } from 'react-router';
import { AffiliateClickTracker } from './affiliate-click';
import { CommunityButton } from './community-button';
import { DocumentTitle } from './document-title';
import { Footer } from './footer';
import { Header } from './header/header';
import { LocaleSync } from './locale-sync';
import { SessionExpiredModal } from './session-expired-modal';
import { VerifyEmailBanner } from '../shared/account/verify-email-banner';
import './styles/layout.css';

/** The shell: header, page, footer, floating community button, session-expired modal, share-link arrivals. */
export function Layout() {
  return (
    <div className="app-shell">
      <LocaleSync />
      <AffiliateClickTracker />
      <DocumentTitle />
      <Header />
      <VerifyEmailBanner />
      <main className="app-main" id="main">
        <Outlet />
      </main>
      <Footer />
      <CommunityButton />
      <SessionExpiredModal />
      <ScrollRestoration />
    </div>
  );
}
