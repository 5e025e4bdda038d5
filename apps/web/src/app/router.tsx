import { createBrowserRouter, type RouteObject } from 'react-router';
import { lazyPage } from '../lib/lazy-page';
import { RouteErrorScreen } from './error-boundary';
import { Layout } from './layout';
import { ConsistencyRedirect, ImageGenerationGate, RedirectIfSignedIn, RequireAuth } from './route-guards';

/*
 * Every page is code-split (decision 025): declare it here with `lazyPage(() => import(...))`, never with
 * a static import — ESLint rejects a static page import in this file, and the bundle-budget test fails
 * when the landing route's first load passes 150 kB of gzipped JavaScript.
 *
 * A tool page (upscale, face-edit, image-edit, image-generation) runs on its client definition
 * `features/<tool>/tool.ts` (history kind, polling schedule from shared/tool-job/lib/polling.ts, error
 * code → message map, cost rule) and the shared workspace (shared/tool-job, decision 037); messages such as
 * the insufficient-credits text live once in locales/{ko,en}.json (`toolJob.error.*`).
 */
// The landing page uses no React Query: its first load stays without the library.
const LandingPage = lazyPage(() => import('../features/landing/components/landing-page').then((m) => ({ default: m.LandingPage })), { reactQuery: false });
const LoginPage = lazyPage(() => import('../features/auth/components/login-page').then((m) => ({ default: m.LoginPage })));
const SignupPage = lazyPage(() => import('../features/auth/components/signup-page').then((m) => ({ default: m.SignupPage })));
const VerifyEmailPage = lazyPage(() => import('../features/auth/components/verify-email-page').then((m) => ({ default: m.VerifyEmailPage })));
const ForgotPasswordPage = lazyPage(() => import('../features/auth/components/forgot-password-page').then((m) => ({ default: m.ForgotPasswordPage })));
const ResetPasswordPage = lazyPage(() => import('../features/auth/components/reset-password-page').then((m) => ({ default: m.ResetPasswordPage })));
const PricingPage = lazyPage(() => import('../features/pricing/components/pricing-page').then((m) => ({ default: m.PricingPage })));
const PaymentSuccessPage = lazyPage(() => import('../features/payment/components/payment-success-page').then((m) => ({ default: m.PaymentSuccessPage })));
const PaymentFailedPage = lazyPage(() => import('../features/payment/components/payment-failed-page').then((m) => ({ default: m.PaymentFailedPage })));
const PaymentReturnPage = lazyPage(() => import('../features/payment/components/payment-return-page').then((m) => ({ default: m.PaymentReturnPage })));
const NotFoundPage = lazyPage(() => import('./coming-soon-page').then((m) => ({ default: m.NotFoundPage })));
// The workspace (Radix controls, upload and polling code) loads only for signed-in visitors.
const UpscalePage = lazyPage(() => import('../features/upscale/components/upscale-page').then((m) => ({ default: m.UpscalePage })));
const BatchPage = lazyPage(() => import('../features/batch/components/batch-page').then((m) => ({ default: m.BatchPage })));
const MyPage = lazyPage(() => import('../features/mypage/components/mypage').then((m) => ({ default: m.MyPage })));
const ReceiptPage = lazyPage(() => import('../features/mypage/components/receipt-page').then((m) => ({ default: m.ReceiptPage })));
const ImageGenerationPage = lazyPage(() => import('../features/image-generation/components/image-generation-page').then((m) => ({ default: m.ImageGenerationPage })));
const ImageEditPage = lazyPage(() => import('../features/image-edit/components/image-edit-page').then((m) => ({ default: m.ImageEditPage })));
const FaceEditPage = lazyPage(() => import('../features/face-edit/components/face-edit-page').then((m) => ({ default: m.FaceEditPage })));
// The notice board (DOMPurify) and the legal texts load with their pages.
const NoticeListPage = lazyPage(() => import('../features/notices/components/notice-list-page').then((m) => ({ default: m.NoticeListPage })));
const NoticeDetailPage = lazyPage(() => import('../features/notices/components/notice-detail-page').then((m) => ({ default: m.NoticeDetailPage })));
const NoticeEditorPage = lazyPage(() => import('../features/notices/components/notice-editor-page').then((m) => ({ default: m.NoticeEditorPage })));
// The prompt chat (marked + DOMPurify) loads with its page.
const ChatPage = lazyPage(() => import('../features/chat/components/chat-page').then((m) => ({ default: m.ChatPage })));
const LegalPage = lazyPage(() => import('../features/legal/components/legal-page').then((m) => ({ default: m.LegalPage })));


/** Every page; each path also answers under /en (spec 000 §2) through the optional `en?` segment below. */
function pageRoutes(): RouteObject[] {
  return [
    { index: true, element: <LandingPage /> },
    { path: 'pricing', element: <PricingPage /> },
    // The fixed-language variants (000 §2): /pricing/en is English even on a Korean path.
    { path: 'pricing/kr', element: <PricingPage contentLocale="ko" /> },
    { path: 'pricing/en', element: <PricingPage contentLocale="en" /> },
    // Signed-in visitors are sent on (issue 17): to a same-site ?next=, else /upscale.
    {
      path: 'login',
      element: (
        <RedirectIfSignedIn>
          <LoginPage />
        </RedirectIfSignedIn>
      ),
    },
    {
      path: 'signup',
      element: (
        <RedirectIfSignedIn>
          <SignupPage />
        </RedirectIfSignedIn>
      ),
    },
    // Account e-mails (decision 020): the mailed links land here.
    { path: 'verify-email', element: <VerifyEmailPage /> },
    { path: 'forgot-password', element: <ForgotPasswordPage /> },
    { path: 'reset-password', element: <ResetPasswordPage /> },
    {
      path: 'upscale',
      element: (
        <RequireAuth messageKey="upscale.error.loginRequired">
          <UpscalePage />
        </RequireAuth>
      ),
    },
    {
      path: 'upscale/batch',
      element: (
        <RequireAuth messageKey="upscale.error.loginRequired">
          <BatchPage />
        </RequireAuth>
      ),
    },
    {
      path: 'image-edit',
      element: (
        <RequireAuth messageKey="imageEdit.error.loginRequired">
          <ImageEditPage />
        </RequireAuth>
      ),
    },
    {
      path: 'face-edit',
      element: (
        <RequireAuth messageKey="faceEdit.error.loginRequired">
          <FaceEditPage />
        </RequireAuth>
      ),
    },
    { path: 'chat', element: <ChatPage /> },
    {
      path: 'mypage',
      element: (
        <RequireAuth>
          <MyPage />
        </RequireAuth>
      ),
    },
    // Our printable receipt of one of the caller's payments (issue 25).
    {
      path: 'mypage/receipts/:id',
      element: (
        <RequireAuth>
          <ReceiptPage />
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
    { path: 'image-generation', element: <ImageGenerationGate><ImageGenerationPage /></ImageGenerationGate> },
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
