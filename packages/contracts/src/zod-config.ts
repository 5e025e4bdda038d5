import { z } from 'zod';

/**
 * In a browser, zod parses without its JIT. To decide whether it may compile parsers, zod probes
 * `new Function('')` once; under our Content-Security-Policy (script-src 'self', no 'unsafe-eval') the
 * probe throws — zod copes — but the browser still reports a `securitypolicyviolation` on every page
 * (issue 7 item 6). `jitless` skips the probe; the page's payloads are small, and the server keeps the JIT.
 */
export function configureZodForBrowser(): void {
  // `document` exists only in a browser (contracts are compiled without the DOM lib, hence globalThis).
  if (typeof (globalThis as { document?: unknown }).document !== 'undefined') z.config({ jitless: true });
}

configureZodForBrowser();
