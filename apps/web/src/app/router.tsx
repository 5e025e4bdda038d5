import { createBrowserRouter, type RouteObject } from 'react-router';
import { LoginPage } from '../features/auth/components/login-page';
import { SignupPage } from '../features/auth/components/signup-page';
import { LandingPage } from '../features/landing/components/landing-page';
import { PaymentFailedPage } from '../features/payment/components/payment-failed-page';
import { PaymentReturnPage } from '../features/payment/components/payment-return-page';
import { PaymentSuccessPage } from '../features/payment/components/payment-success-page';
import { PricingPage } from '../features/pricing/components/pricing-page';
import { lazyPage } from '../lib/lazy-page';
import { ComingSoonPage, NotFoundPage } from './coming-soon-page';
import { RouteErrorScreen } from './error-boundary';
import { Layout } from './layout';
import { ConsistencyRedirect, ImageGenerationGate, RequireAuth } from './route-guards';

const soon = (titleKey: string) => <ComingSoonPage titleKey={titleKey} />;

// The workspace (Radix controls, upload and polling code) loads only for signed-in visitors.
const UpscalePage = lazyPage(() => import('../features/upscale/components/upscale-page').then((m) => ({ default: m.UpscalePage })));
const MyPage = lazyPage(() => import('../features/mypage/components/mypage').then((m) => ({ default: m.MyPage })));
const FaceEditPage = lazyPage(() => import('../features/face-edit/components/face-edit-page').then((m) => ({ default: m.FaceEditPage })));
// The notice board (DOMPurify) and the legal texts load with their pages.
const NoticeListPage = lazyPage(() => import('../features/notices/components/notice-list-page').then((m) => ({ default: m.NoticeListPage })));
const NoticeDetailPage = lazyPage(() => import('../features/notices/components/notice-detail-page').then((m) => ({ default: m.NoticeDetailPage })));
const NoticeEditorPage = lazyPage(() => import('../features/notices/components/notice-editor-page').then((m) => ({ default: m.NoticeEditorPage })));
const LegalPage = lazyPage(() => import('../features/legal/components/legal-page').then((m) => ({ default: m.LegalPage })));

/** Every page; each path also answers under /en (spec 000 §2) through the optional `en?` segment below. */
function pageRoutes(): RouteObject[] {
  return [
    { index: true, element: <LandingPage /> },
    { path: 'pricing', element: <PricingPage /> },
    // The fixed-language variants (000 §2): /pricing/en is English even on a Korean path.
    { path: 'pricing/kr', element: <PricingPage contentLocale="ko" /> },
    { path: 'pricing/en', element: <PricingPage contentLocale="en" /> },
    { path: 'login', element: <LoginPage /> },
    { path: 'signup', element: <SignupPage /> },
    {
      path: 'upscale',
      element: (
        <RequireAuth messageKey="upscale.error.loginRequired">
          <UpscalePage />
        </RequireAuth>
      ),
    },
    { path: 'image-edit', element: soon('tools.imageEdit.name') },
    {
      path: 'face-edit',
      element: (
        <RequireAuth messageKey="faceEdit.error.loginRequired">
          <FaceEditPage />
        </RequireAuth>
      ),
    },
    { path: 'chat', element: soon('pages.chat') },
    {
      path: 'mypage',
      element: (
        <RequireAuth>
          <MyPage />
        </RequireAuth>
      ),
    },
    { path: 'notice', element: <NoticeListPage /> },
    { path: 'notice/write', element: <NoticeEditorPage /> },
    { path: 'notice/:id', element: <NoticeDetailPage /> },
    { path: 'notice/:id/edit', element: <NoticeEditorPage /> },
    // The path decides the document's language (002 §2): /terms/en is English even in a Korean session.
    { path: 'terms', element: <LegalPage /> },
    { path: 'terms/kr', element: <LegalPage /> },
    { path: 'terms/en', element: <LegalPage /> },
    { path: 'privacy', element: <LegalPage /> },
    { path: 'privacy/kr', element: <LegalPage /> },
    { path: 'privacy/en', element: <LegalPage /> },
    { path: 'refund', element: <LegalPage /> },
    { path: 'refund/kr', element: <LegalPage /> },
    { path: 'refund/en', element: <LegalPage /> },
    { path: 'image-generation', element: <ImageGenerationGate>{soon('tools.imageGeneration.name')}</ImageGenerationGate> },
    { path: 'consistency', element: <ConsistencyRedirect /> },
    { path: 'payment/success', element: <PaymentSuccessPage /> },
    { path: 'payment/failed', element: <PaymentFailedPage /> },
    { path: 'payment/:plan', element: <PaymentReturnPage /> },
    { path: '*', element: <NotFoundPage /> },
  ];
}

export const router = createBrowserRouter([
  {
    path: '/',
    element: <Layout />,
    errorElement: <RouteErrorScreen />,
    // One route tree for both languages: /upscale and /en/upscale are the same route, so switching
    // language re-renders a page in place instead of remounting it (a shown result or upload stays).
    children: [{ path: 'en?', children: pageRoutes() }],
  },
]);
