import { Resolver } from 'node:dns/promises';

/** Resolves a host name to every address it has (what the outbound guard checks). */
export type OutboundResolver = (host: string) => Promise<{ address: string; family: number }[]>;

export const DEFAULT_DNS_TIMEOUT_MS = 2_000;

export interface ResolveOptions {
  /** The whole lookup (A and AAAA, every server and retry) ends by then; default 2000 ms. */
  timeoutMs?: number;
  /** Name servers (`host` or `host:port`); default the system's (/etc/resolv.conf). */
  servers?: string[];
}

/** The lookup ran past its deadline (code ETIMEOUT, as c-ares names it). */
export class DnsTimeoutError extends Error {
  readonly code = 'ETIMEOUT';

  constructor(host: string, timeoutMs: number) {
    super(`resolving "${host}" took longer than ${timeoutMs} ms`);
    this.name = new.target.name;
  }
}

const LOOPBACK = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/**
 * Resolves `host` on the c-ares resolver (dns.promises.Resolver: A and AAAA queries on the
 * event loop), not with `dns.lookup`, which calls getaddrinfo on libuv's thread pool: four
 * threads shared with every file read and write of the process, so a slow name server would
 * stall file I/O. The whole lookup has a deadline, after which its queries are cancelled.
 *
 * `localhost` and `*.localhost` answer loopback without asking DNS (RFC 6761; c-ares does
 * not read /etc/hosts for queries), so they are judged, and refused, as loopback.
 */
export async function resolveWithDeadline(host: string, options: ResolveOptions = {}): Promise<{ address: string; family: number }[]> {
  const name = host.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return LOOPBACK.map((a) => ({ ...a }));
  const timeoutMs = options.timeoutMs ?? DEFAULT_DNS_TIMEOUT_MS;
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (options.servers) resolver.setServers(options.servers);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      resolver.cancel();
      reject(new DnsTimeoutError(host, timeoutMs));
    }, timeoutMs);
  });
  try {
    const [v4, v6] = await Promise.race([Promise.allSettled([resolver.resolve4(name), resolver.resolve6(name)]), deadline]);
    const addresses = [
      ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 })) : []),
      ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 })) : []),
    ];
    if (addresses.length > 0) return addresses;
    // Neither family answered: report the IPv4 failure (ENOTFOUND, ENODATA, ETIMEOUT, ...).
    throw v4.status === 'rejected' ? v4.reason : v6.status === 'rejected' ? v6.reason : Object.assign(new Error(`"${host}" has no address`), { code: 'ENODATA' });
  } finally {
    clearTimeout(timer);
  }
}
