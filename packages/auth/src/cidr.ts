import ipaddr from 'ipaddr.js';
import { parseIpStrict } from './ip-address';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** A set of address ranges an API key may be used from. */
export interface CidrAllowlist {
  /**
   * True when the address lies in one of the ranges. IPv4 clients seen through a
   * dual-stack socket (`::ffff:10.1.2.3`) are matched as IPv4; anything that does
   * not parse is simply not allowed.
   */
  contains(ip: string): boolean;
  /** The ranges in canonical form (`10.0.0.0/8`, `2001:db8::/32`). */
  readonly entries: readonly string[];
}

export class InvalidCidrError extends Error {
  readonly entry: string;

  constructor(entry: string) {
    super(`Invalid IP address or CIDR range: "${entry}"`);
    this.name = new.target.name;
    this.entry = entry;
  }
}

const DECIMAL = /^(0|[1-9]\d*)$/;

/** Strict parsing (dotted-decimal IPv4 only, no zone ids): see parseIpStrict. */
const parseAddress = parseIpStrict;

/** IPv4-mapped IPv6 becomes plain IPv4, so both spellings of a client compare alike. */
function unmap(address: Address): Address {
  return address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() ? address.toIPv4Address() : address;
}

type Range = [Address, number];

/** The first address of the range: the host bits after the prefix cleared. */
function network(address: Address, prefix: number): Address {
  const bytes = address.toByteArray().map((byte, i) => {
    const kept = Math.min(8, Math.max(0, prefix - i * 8));
    return byte & ((0xff << (8 - kept)) & 0xff);
  });
  return ipaddr.fromByteArray(bytes);
}

function parseRange(entry: string): Range | null {
  const [text = '', bits, ...rest] = entry.trim().split('/');
  const address = parseAddress(text);
  if (!address || rest.length > 0) return null;
  const max = address instanceof ipaddr.IPv4 ? 32 : 128;
  const prefix = bits === undefined ? max : DECIMAL.test(bits) ? Number(bits) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  // `::ffff:10.0.0.0/104` is how some tools write 10.0.0.0/8; clients are unmapped too.
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && prefix >= 96) {
    return [network(address.toIPv4Address(), prefix - 96), prefix - 96];
  }
  return [network(address, prefix), prefix];
}

/** True when `s` is an address or a CIDR range that `parseCidrList` would accept. */
export function isValidCidr(s: string): boolean {
  return parseRange(s) !== null;
}

/**
 * Builds an allowlist from addresses and CIDR ranges, IPv4 and IPv6. A single
 * address stands for itself (/32 or /128); host bits after the prefix are
 * ignored (`10.1.2.3/8` is `10.0.0.0/8`). Throws InvalidCidrError naming the
 * first malformed entry, so bad configuration stops a deploy instead of locking
 * clients out. An empty list contains nothing.
 */
export function parseCidrList(entries: readonly string[]): CidrAllowlist {
  const ranges = entries.map((entry) => {
    const range = parseRange(entry);
    if (!range) throw new InvalidCidrError(entry);
    return range;
  });
  return {
    entries: ranges.map(([address, prefix]) => `${address.toString()}/${prefix}`),
    contains(ip: string): boolean {
      const parsed = parseAddress(ip);
      if (!parsed) return false;
      const address = unmap(parsed);
      return ranges.some(([start, prefix]) => {
        if (address instanceof ipaddr.IPv4 && start instanceof ipaddr.IPv4) return address.match(start, prefix);
        if (address instanceof ipaddr.IPv6 && start instanceof ipaddr.IPv6) return address.match(start, prefix);
        return false;
      });
    },
  };
}
