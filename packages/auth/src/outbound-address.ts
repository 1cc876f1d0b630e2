import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

/**
 * The outbound-request guard (SSRF): which addresses a server may connect to on a
 * user's behalf. Only public unicast addresses, unless the operator allows private ones
 * (closed networks, tests). The caller connects to the address returned here, never
 * resolves the name again, so DNS rebinding cannot swap in another.
 */

export class OutboundAddressError extends Error {
  constructor(
    message: string,
    readonly reason: 'scheme' | 'url' | 'resolve' | 'private',
  ) {
    super(message);
  }
}

export interface OutboundPolicy {
  /** Loopback, private, link-local, CGNAT, ULA, ... allowed (WEBHOOK_ALLOW_PRIVATE). */
  allowPrivate: boolean;
  /** Plain http allowed besides https. */
  allowHttp: boolean;
}

/** The ipaddr.js range of an address, IPv4-mapped IPv6 judged as the IPv4 it carries. */
export function addressRange(address: string): string {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range();
}

/** Whether an address is one a server may reach for a user: public unicast only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return addressRange(address) === 'unicast';
}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to (checked). */
  address: string;
  family: 4 | 6;
}

/**
 * Checks a URL against the policy and resolves its host once: scheme, then every address
 * the name resolves to (one private address among public ones refuses the URL).
 */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy, resolve: typeof lookup = lookup): Promise<CheckedTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new OutboundAddressError('not a valid URL', 'url');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw new OutboundAddressError(policy.allowHttp ? 'only http and https URLs are allowed' : 'only https URLs are allowed', 'scheme');
  }
  if (url.username || url.password) throw new OutboundAddressError('credentials in the URL are not allowed', 'url');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  if (ipaddr.isValid(host)) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host, { all: true, verbatim: true });
    } catch (err) {
      throw new OutboundAddressError(`the host "${host}" does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 'resolve');
    }
  }
  if (addresses.length === 0) throw new OutboundAddressError(`the host "${host}" does not resolve`, 'resolve');
  if (!policy.allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) throw new OutboundAddressError(`the host "${host}" resolves to ${refused.address}, a ${addressRange(refused.address)} address, which is not allowed`, 'private');
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
