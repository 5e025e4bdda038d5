import { Suspense, lazy, type ComponentType, type JSX, type ReactNode } from 'react';

/** Script chunk load timeout (spec 000 §9): a chunk that has not arrived in 120 s fails to the error screen. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = window.setTimeout(() => reject(new Error(`chunk load timed out after ${ms} ms`)), ms);
    promise.then(
      (v) => {
        window.clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        window.clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}

/** The props of a page component; none for a page that takes none. */
type PageProps<C> = C extends (props: infer Q) => ReactNode ? (unknown extends Q ? object : Q & object) : object;

function Fallback() {
  return (
    <div className="center-screen" aria-busy="true">
      <div className="spinner" />
    </div>
  );
}

/**
 * A code-split page: loads its chunk on first render, with the spec's timeout (000 §9) and a spinner
 * meanwhile. This is the one way a page enters the router (decision 025): `app/router.tsx` may not import
 * a page module statically (an ESLint rule, proven in lint-rules.test.ts), so the landing route's first
 * load stays within its JavaScript budget (apps/web/src/bundle-budget.test.ts). Props pass through.
 *
 * React Query's provider (lib/query-provider.tsx, which also makes zod jitless for the CSP) loads with
 * the page and wraps it, on the one shared client; a page that uses neither React Query nor a zod schema
 * (the landing page) passes `{ reactQuery: false }` to keep both off its first load.
 *
 * @param load dynamic `import()` of the page module, mapped to `{ default: Component }`
 * @param opts.reactQuery wrap the page in the React Query provider (default true)
 */
export function lazyPage<C extends (props: never) => ReactNode, P extends object = PageProps<C>>(
  load: () => Promise<{ default: C }>,
  opts: { reactQuery?: boolean } = {},
): (props: P) => JSX.Element {
  const withQuery = opts.reactQuery ?? true;
  const loadPage = () => load().then((m) => ({ default: m.default as unknown as ComponentType<P> }));
  const loadWrapped = (): Promise<{ default: ComponentType<P> }> =>
    Promise.all([loadPage(), import('./query-provider')]).then(([page, { QueryProvider }]) => {
      const Inner = page.default;
      return {
        default: function WithQueryClient(props: P) {
          return (
            <QueryProvider>
              <Inner {...props} />
            </QueryProvider>
          );
        },
      };
    });
  const Page = lazy(() => withTimeout(withQuery ? loadWrapped() : loadPage(), CHUNK_LOAD_TIMEOUT_MS));
  return function LazyPage(props: P) {
    return (
      <Suspense fallback={<Fallback />}>
        <Page {...(props as P & JSX.IntrinsicAttributes)} />
      </Suspense>
    );
  };
}
