import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { TOAST } from '@dewy/contracts';
import { queryClient } from '../lib/query-client';
import { SessionProvider } from '../lib/session';
import { AppErrorBoundary } from './error-boundary';
import { router } from './router';

/** Providers around the router: error boundary, React Query, session, toasts (top centre, 20 kept). */
export function App() {
  return (
    <AppErrorBoundary>
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <RouterProvider router={router} />
          <Toaster position="top-center" visibleToasts={TOAST.maxKept} richColors closeButton duration={TOAST.plainMs} />
        </SessionProvider>
      </QueryClientProvider>
    </AppErrorBoundary>
  );
}
