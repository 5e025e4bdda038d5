import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * The range of an IP address as ipaddr.js names it (`unicast` for a public address; `private`,
 * `loopback`, `linkLocal`, `carrierGradeNat`, `uniqueLocal`, `multicast`, `unspecified`, `reserved`,
 * `6to4`, `teredo`, `rfc6052`, … otherwise). An IPv4-mapped IPv6 address (`::ffff:10.0.0.1`) is judged
 * as its IPv4 address.
 * @throws Error when `ip` is not an IP address
 */
export function addressRange(ip: string): string {
  const parsed = ipaddr.parse(ip);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) return (parsed as ipaddr.IPv6).toIPv4Address().range();
  return parsed.range();
}

/**
 * Whether a webhook may be sent to `ip` (decision 040 §3): only a public unicast address, so a customer's
 * `webhook_url` cannot reach the service's own network (RFC 1918, loopback, link-local and the cloud
 * metadata address 169.254.169.254, CGNAT, unique-local IPv6, multicast, unspecified, reserved, and the
 * IPv6 forms that embed an IPv4 address). `allowLoopback` (the test switch) admits loopback only.
 */
export function isAllowedWebhookAddress(ip: string, allowLoopback: boolean): boolean {
  const range = addressRange(ip);
  return range === 'unicast' || (allowLoopback && range === 'loopback');
}

/** A webhook address refused at send time: the attempt fails with this reason and nothing is sent. */
export class WebhookAddressRefused extends Error {}

/**
 * Resolves a webhook's host at send time and returns the one address to connect to (the first), after
 * checking EVERY address the name resolves to (a name that also resolves to a private address is
 * refused: a later connection could pick it). The caller connects to this address itself, so no second
 * lookup can rebind the name between the check and the connection.
 * @param hostname the URL's hostname (an IPv6 literal with or without brackets)
 * @throws WebhookAddressRefused for a refused address or a name that does not resolve
 */
export async function resolveWebhookHost(hostname: string, allowLoopback: boolean, resolve: typeof lookup = lookup): Promise<{ address: string; family: number }> {
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  try {
    addresses = await resolve(host, { all: true, verbatim: true });
  } catch (err) {
    throw new WebhookAddressRefused(`${host} does not resolve (${(err as { code?: string }).code ?? 'lookup failed'})`);
  }
  if (!addresses.length) throw new WebhookAddressRefused(`${host} does not resolve`);
  for (const a of addresses) {
    if (!isAllowedWebhookAddress(a.address, allowLoopback)) throw new WebhookAddressRefused(`address not allowed: ${a.address} (${addressRange(a.address)})`);
  }
  return addresses[0]!;
}
