import { QueryClient } from '@tanstack/react-query';
import { ApiError } from './api-client';

/** Shared React Query client: no retry on auth or client errors, short stale time. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 10_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => {
        if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
        return count < 1;
      },
    },
  },
});
