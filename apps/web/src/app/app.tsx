import { Suspense, lazy } from 'react';
import { RouterProvider } from 'react-router';
import { TOAST } from '@dewy/contracts';
import { SessionProvider } from '../lib/session';
import { loadSonner } from '../lib/toast';
import { AppErrorBoundary } from './error-boundary';
import { router } from './router';

// The toast library is its own chunk (decision 025), fetched right after the first render.
const Toaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/**
 * Providers around the router: error boundary, session, toasts (top centre, 20 kept). React Query's
 * provider wraps each page instead (lib/lazy-page.tsx), so the shell (header, footer) never uses it.
 * Toasts start below the sticky header (`--dw-header-h`, measured by the header) so they never cover
 * its controls (issue 17); on phones they keep clear of the notch (safe-area inset).
 */
export function App() {
  return (
    <AppErrorBoundary>
      <SessionProvider>
        <RouterProvider router={router} />
        <Suspense fallback={null}>
          <Toaster
            position="top-center"
            visibleToasts={TOAST.maxKept}
            richColors
            closeButton
            duration={TOAST.plainMs}
            offset={{ top: 'calc(var(--dw-header-h, 64px) + 8px)' }}
            mobileOffset={{ top: 'calc(var(--dw-header-h, 64px) + 8px)' }}
          />
        </Suspense>
      </SessionProvider>
    </AppErrorBoundary>
  );
}
