/**
 * CDN rewriting of image URLs (spec 001 §7 "Image hosting": with the CDN flag on, direct storage URLs
 * are rewritten to the CDN). Only the host changes; path and query (including a presigned URL's
 * signature) are kept, so the CDN must forward the query string to the origin.
 */
export interface CdnRewriteOptions {
  /** CDN host name or origin, e.g. `img.dewy.example` or `https://img.dewy.example`; unset = no CDN. */
  cdnDomain?: string;
  /** Hosts (`host[:port]`, case-insensitive) whose URLs count as direct storage URLs. */
  storageHosts: string[];
}

/**
 * Rewrites `url` to the CDN when a CDN is configured and `url` is an absolute http(s) URL on one of
 * `storageHosts`: scheme and host become the CDN's (https unless the CDN origin says otherwise), path
 * and query stay. Relative URLs, other hosts, unparsable strings and the no-CDN case come back
 * unchanged. Never throws.
 */
export function rewriteToCdn(url: string, opts: CdnRewriteOptions): string {
  const cdn = parseCdn(opts.cdnDomain);
  if (!cdn) return url;
  let u: URL;
  try {
    // Only absolute URLs: a relative one is served by our own host already.
    if (!/^https?:\/\//i.test(url)) return url;
    u = new URL(url);
  } catch {
    return url;
  }
  const hosts = new Set(opts.storageHosts.map((h) => h.trim().toLowerCase()).filter(Boolean));
  if (!hosts.has(u.host.toLowerCase())) return url;
  u.protocol = cdn.protocol;
  // Setting `host` without a port keeps the old port (WHATWG URL), so set name and port separately.
  const [hostname, port = ''] = cdn.host.split(':');
  u.hostname = hostname!;
  u.port = port;
  return u.toString();
}

function parseCdn(cdnDomain: string | undefined): { protocol: string; host: string } | undefined {
  const raw = cdnDomain?.trim();
  if (!raw) return undefined;
  try {
    const u = new URL(/^https?:\/\//i.test(raw) ? raw : `https://${raw}`);
    return { protocol: u.protocol, host: u.host };
  } catch {
    return undefined;
  }
}
