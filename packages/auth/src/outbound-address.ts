import ipaddr from 'ipaddr.js';
import { parseIpStrict, type IpAddress } from './ip-address';
import { resolveWithDeadline, type OutboundResolver } from './outbound-resolver';

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
  /** Longest a name may take to resolve (WEBHOOK_DNS_TIMEOUT_MS); default 2000 ms. */
  dnsTimeoutMs?: number;
  /** Name servers to ask (`host` or `host:port`, WEBHOOK_DNS_SERVERS); default the system's. */
  dnsServers?: string[];
}

type Address = IpAddress;
type Denied = { range: [Address, number]; name: string };

const deny = (cidr: string, name: string): Denied => ({ range: ipaddr.parseCIDR(cidr), name });

/**
 * Every IPv4 range a server must not reach for a user, by name. Written out rather than
 * taken from the library's `range()`, whose `unicast` (the catch-all) has changed between
 * versions and once included the benchmarking range.
 */
const DENIED_V4: readonly Denied[] = [
  deny('0.0.0.0/8', 'this-network'),
  deny('10.0.0.0/8', 'private'),
  deny('100.64.0.0/10', 'carrier-grade NAT'),
  deny('127.0.0.0/8', 'loopback'),
  deny('169.254.0.0/16', 'link-local'),
  deny('172.16.0.0/12', 'private'),
  deny('192.0.0.0/24', 'IETF protocol assignments'),
  deny('192.0.2.0/24', 'documentation'),
  deny('192.31.196.0/24', 'AS112'),
  deny('192.52.193.0/24', 'AMT'),
  deny('192.88.99.0/24', '6to4 relay anycast'),
  deny('192.168.0.0/16', 'private'),
  deny('192.175.48.0/24', 'AS112'),
  deny('198.18.0.0/15', 'benchmarking'),
  deny('198.51.100.0/24', 'documentation'),
  deny('203.0.113.0/24', 'documentation'),
  deny('224.0.0.0/4', 'multicast'),
  deny('240.0.0.0/4', 'reserved'),
  deny('255.255.255.255/32', 'broadcast'),
];

/**
 * IPv6 ranges refused outright. The ranges that carry an IPv4 address (mapped, NAT64
 * 64:ff9b::/96, 6to4) are not here: they are judged as the IPv4 address they carry.
 * Anything outside 2000::/3 (global unicast) is refused as well.
 */
const DENIED_V6: readonly Denied[] = [
  deny('::/96', 'IPv4-compatible (deprecated), unspecified or loopback'),
  deny('::1/128', 'loopback'),
  deny('64:ff9b:1::/48', 'local-use NAT64'),
  deny('100::/64', 'discard-only'),
  deny('2001::/32', 'Teredo'),
  deny('2001::/23', 'IETF protocol assignments'),
  deny('2001:db8::/32', 'documentation'),
  deny('3fff::/20', 'documentation'),
  deny('5f00::/16', 'SRv6 SIDs'),
  deny('fc00::/7', 'unique local'),
  deny('fe80::/10', 'link-local'),
  deny('fec0::/10', 'site-local (deprecated)'),
  deny('ff00::/8', 'multicast'),
];

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.parseCIDR('2002::/16');

function embeddedIPv4(address: ipaddr.IPv6, firstByte: number): ipaddr.IPv4 {
  const bytes = address.toByteArray().slice(firstByte, firstByte + 4);
  return new ipaddr.IPv4(bytes);
}

/** Why an address is refused (the name of its range), or null when it is public unicast. */
export function deniedRange(address: string): string | null {
  const parsed = parseIpStrict(address);
  if (!parsed) return 'not an address';
  return deniedRangeOf(parsed);
}

function deniedRangeOf(address: Address): string | null {
  if (address instanceof ipaddr.IPv4) {
    return DENIED_V4.find(({ range }) => address.match(range))?.name ?? null;
  }
  if (address.isIPv4MappedAddress()) return deniedRangeOf(address.toIPv4Address());
  if (address.match(NAT64)) return deniedRangeOf(embeddedIPv4(address, 12));
  if (address.match(SIX_TO_FOUR)) return deniedRangeOf(embeddedIPv4(address, 2));
  const named = DENIED_V6.find(({ range }) => address.match(range));
  if (named) return named.name;
  return address.match(GLOBAL_UNICAST_V6) ? null : 'reserved';
}

/** Whether an address is one a server may reach for a user: public unicast only. */
export function isPublicAddress(address: string): boolean {
  return deniedRange(address) === null;
}

export interface CheckedTarget {
  url: URL;
  /** The address to connect to (checked). */
  address: string;
  family: 4 | 6;
}

/**
 * Checks a URL against the policy and resolves its host once: scheme, then every address
 * the name resolves to (one private address among public ones refuses the URL). The
 * refusal does not say which address the name resolved to, nor its range: the answer
 * would map a private network's DNS for whoever asks.
 */
export async function checkOutboundUrl(raw: string, policy: OutboundPolicy, resolve?: OutboundResolver): Promise<CheckedTarget> {
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
  if (parseIpStrict(host)) addresses = [{ address: host, family: host.includes(':') ? 6 : 4 }];
  else {
    try {
      addresses = resolve ? await resolve(host) : await resolveWithDeadline(host, { timeoutMs: policy.dnsTimeoutMs, servers: policy.dnsServers });
    } catch (err) {
      throw new OutboundAddressError(`the host "${host}" does not resolve (${(err as NodeJS.ErrnoException).code ?? 'error'})`, 'resolve');
    }
  }
  if (addresses.length === 0) throw new OutboundAddressError(`the host "${host}" does not resolve`, 'resolve');
  if (!policy.allowPrivate && addresses.some((a) => !isPublicAddress(a.address))) {
    throw new OutboundAddressError('the host is not a public address, or resolves to one that is not', 'private');
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
