import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { configureZodForBrowser } from '@dewy/contracts';
import { queryClient } from './query-client';

// The pages' runtime is also where zod is told to run without its JIT probe (no eval under the CSP):
// contracts' own bare `import './zod-config'` is dropped by the bundler (package.json sideEffects), and
// this module is loaded with every page (lazyPage) before the page can parse anything (decision 025).
// Kept out of the entry: zod's config module would add ~5 kB to the landing route's first load.
configureZodForBrowser();

/**
 * React Query for a page: {@link lazyPage} loads this module with the page's chunk and wraps the page in
 * it (decision 025: React Query is not part of the landing route's first load). Every page shares the
 * one `queryClient`, so the cache survives navigation exactly as with a provider at the root.
 */
export function QueryProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}
