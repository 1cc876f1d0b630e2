import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

const DOTTED_TAIL = /:(\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * Parses one address strictly. ipaddr.js also accepts inet_aton forms (`10`, `0x0a.1`, and
 * `010.0.0.1`, which it reads as octal 8.0.0.1), which would silently mean another address
 * than the one written, so only dotted-decimal IPv4 is accepted, inside IPv6 as well. Zone
 * ids are refused: they name an interface of one host.
 *
 * An IPv6 address ending in a dotted quad is rewritten as two hex groups first: ipaddr.js 2.x
 * reads `::a.b.c.d` (IPv4-compatible) as `::ffff:a.b.c.d` (IPv4-mapped), another address.
 */
export function parseIpStrict(text: string): IpAddress | null {
  if (text.includes('%')) return null;
  if (!text.includes(':')) return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : null;
  let v6 = text;
  const tail = DOTTED_TAIL.exec(text)?.[1];
  if (tail !== undefined) {
    if (!ipaddr.IPv4.isValidFourPartDecimal(tail)) return null;
    const [a, b, c, d] = ipaddr.IPv4.parse(tail).octets as [number, number, number, number];
    v6 = `${text.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  } else if (text.slice(text.lastIndexOf(':') + 1).includes('.')) return null;
  return ipaddr.IPv6.isValid(v6) ? ipaddr.IPv6.parse(v6) : null;
}

/**
 * The key a per-address limit counts a client by: an IPv4 address as itself (IPv4-mapped IPv6
 * as its IPv4), an IPv6 address by its /64, the smallest network a host is given: a client
 * holding a /64 would otherwise rotate through 2^64 budgets. Anything that does not parse
 * is kept as written (it is still one client's key).
 */
export function clientAddressKey(ip: string): string {
  const parsed = parseIpStrict(ip);
  if (!parsed) return ip;
  if (parsed instanceof ipaddr.IPv4) return parsed.toString();
  if (parsed.isIPv4MappedAddress()) return parsed.toIPv4Address().toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}
