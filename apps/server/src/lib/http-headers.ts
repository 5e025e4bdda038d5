import path from 'node:path';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * Security headers and web-app caching (issue 7 item 6, GUIDE §3a). Every response of the app —
 * pages, assets, API answers, errors, 404s, the signed storage routes and the download proxy — carries
 * the headers set here, because their hook runs first at `onRequest` on the root instance.
 * The headers come from `helmet` itself, its middleware built ONCE at start: `@fastify/helmet` 13
 * rebuilt the whole middleware (CSP directives parsed anew) on every request, 7 % of the API's CPU on
 * the session path (decision 026).
 */

export interface SecurityHeadersOptions {
  /**
   * Hosts (`host[:port]`) of the URLs the storage adapter hands to the page (`ctx.storage.storageHosts`):
   * the page shows their images and, with S3, PUTs uploads and fetches downloads there directly.
   */
  storageHosts: string[];
  /** CDN_DOMAIN (`img.example.com` or `https://img.example.com`): image URLs are rewritten to it. */
  cdnDomain?: string;
  /**
   * Google sign-in is configured (GOOGLE_CLIENT_ID, decision 021): the Google Identity Services button's
   * script, iframe, style and calls under https://accounts.google.com/gsi/ are allowed, as Google
   * documents for a CSP ("Content Security Policy" of the GIS setup guide).
   */
  googleSignIn?: boolean;
}

/** One year (s): the HSTS max-age, and the life of a content-hashed asset. */
const ONE_YEAR_SECONDS = 31_536_000;
/** HSTS value sent on requests that arrived over https. No `preload`: that commits the domain for good. */
export const HSTS_VALUE = `max-age=${ONE_YEAR_SECONDS}; includeSubDomains`;

const HOST_RE = /^[A-Za-z0-9.-]+(?::\d{1,5})?$/;

/** A CSP host source for a storage host (`host[:port]`); undefined for anything that is not one. */
function hostSource(host: string): string | undefined {
  const h = host.trim().toLowerCase();
  return HOST_RE.test(h) ? h : undefined;
}

/** The CDN's origin as a CSP source, https unless CDN_DOMAIN names another scheme (as cdn.ts rewrites). */
function cdnSource(cdnDomain: string | undefined): string | undefined {
  const raw = cdnDomain?.trim();
  if (!raw) return undefined;
  try {
    const u = new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`);
    return HOST_RE.test(u.host) ? `${u.protocol}//${u.host}` : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The Content-Security-Policy directives of the app. Scripts only from our origin (the Vite build has
 * no inline script); images from our origin, `data:`/`blob:` (previews of the picked file) and the
 * storage / CDN hosts; fetches to our origin and the storage / CDN hosts (presigned S3 PUT, download
 * fetch). `style-src` allows 'unsafe-inline': sonner injects a fixed <style> element and Radix's
 * scroll lock (react-remove-scroll) injects one whose text depends on the scrollbar width, neither
 * with a nonce we could give without changing the page; styles cannot run code, and img-src /
 * connect-src keep CSS from sending data anywhere but our own hosts. No framing, plugins, foreign
 * <base> or form targets.
 */
export function cspDirectives(opts: SecurityHeadersOptions): Record<string, string[]> {
  const external = [...new Set([...opts.storageHosts.map(hostSource), cdnSource(opts.cdnDomain)].filter((s): s is string => Boolean(s)))];
  const gsi = opts.googleSignIn ? ['https://accounts.google.com/gsi/'] : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...(opts.googleSignIn ? ['https://accounts.google.com/gsi/client'] : [])],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'", ...(opts.googleSignIn ? ['https://accounts.google.com/gsi/style'] : [])],
    'img-src': ["'self'", 'data:', 'blob:', ...external],
    'connect-src': ["'self'", ...external, ...gsi],
    ...(opts.googleSignIn ? { 'frame-src': gsi } : {}),
    'font-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  };
}

/** The policy as the header value (`directive a b; directive c`), as helmet writes it. */
export function cspHeaderValue(opts: SecurityHeadersOptions): string {
  return Object.entries(cspDirectives(opts))
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join(';');
}

/**
 * Registers the security headers on `app` (call first, before any other hook or route):
 * Content-Security-Policy (`cspDirectives`), `X-Content-Type-Options: nosniff`,
 * `Referrer-Policy: strict-origin-when-cross-origin`, `X-Frame-Options: DENY`, COOP same-origin, CORP
 * same-origin (the signed storage route loosens it to cross-origin for its own files), no COEP (it
 * would block signed images from S3/CDN hosts that send no CORP), and HSTS only when the request came
 * over https (`req.protocol`; with TRUST_PROXY that honours X-Forwarded-Proto): HSTS on plain http is
 * ignored by browsers and, sent from a local http set-up, would only confuse.
 */
export async function installSecurityHeaders(app: FastifyInstance, opts: SecurityHeadersOptions): Promise<void> {
  const setHeaders = helmet({
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(opts) },
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: false,
    xContentTypeOptions: true,
    xFrameOptions: { action: 'deny' },
  });
  app.addHook('onRequest', (req, reply, done) => {
    setHeaders(req.raw, reply.raw, (err?: unknown) => {
      if (err) return done(err as Error);
      if (req.protocol === 'https') reply.raw.setHeader('strict-transport-security', HSTS_VALUE);
      done();
    });
  });
}

/**
 * `Cache-Control` of a file of the built web app, by its path relative to the dist folder:
 * `index.html` (the app shell) `no-cache` — revalidated every time, so a deploy reaches every tab with
 * its new chunk names; `assets/*` (Vite's content-hashed names) `public, max-age=31536000, immutable`;
 * anything else (favicon…) `public, max-age=3600`.
 */
export function webCacheControl(relativePath: string): string {
  const p = relativePath.split(path.sep).join('/').replace(/^\/+/, '');
  if (p === 'index.html' || p.endsWith('/index.html')) return 'no-cache';
  if (p.startsWith('assets/')) return `public, max-age=${ONE_YEAR_SECONDS}, immutable`;
  return 'public, max-age=3600';
}
