import { Suspense, lazy, type ComponentType } from 'react';

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

function Fallback() {
  return (
    <div className="center-screen" aria-busy="true">
      <div className="spinner" />
    </div>
  );
}

/** A code-split page: loads its chunk on first render, with the spec's timeout and a spinner meanwhile. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): ComponentType {
  const Page = lazy(() => withTimeout(load(), CHUNK_LOAD_TIMEOUT_MS));
  return function LazyPage() {
    return (
      <Suspense fallback={<Fallback />}>
        <Page />
      </Suspense>
    );
  };
}
