import { createSocket, type Socket } from 'node:dgram';
import { checkOutboundUrl, deniedRange, isPublicAddress, OutboundAddressError } from './outbound-address';
import { DnsTimeoutError, resolveWithDeadline, type OutboundResolver } from './outbound-resolver';

const strict = { allowPrivate: false, allowHttp: false };
/** A resolver answering from a table, as DNS would (no network in tests). */
const dns = (table: Record<string, string[]>) =>
  (async (host: string) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as never;

async function refusal(url: string, policy = strict, resolve: OutboundResolver = dns({})): Promise<string> {
  const err = await checkOutboundUrl(url, policy, resolve).catch((e: unknown) => e);
  return err instanceof OutboundAddressError ? `${err.reason}: ${err.message}` : 'allowed';
}

describe('the outbound address guard', () => {
  it.each([
    ['loopback', '127.0.0.1'],
    ['loopback IPv6', '::1'],
    ['RFC 1918 10/8', '10.20.30.40'],
    ['RFC 1918 172.16/12', '172.16.5.4'],
    ['RFC 1918 192.168/16', '192.168.1.10'],
    ['link-local / cloud metadata', '169.254.169.254'],
    ['IPv6 link-local', 'fe80::1'],
    ['CGNAT', '100.64.0.1'],
    ['IPv6 ULA', 'fd12:3456::1'],
    ['unspecified', '0.0.0.0'],
    ['IPv6 unspecified', '::'],
    ['multicast', '224.0.0.251'],
    ['IPv6 multicast', 'ff02::1'],
    ['broadcast', '255.255.255.255'],
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['documentation range', '203.0.113.9'],
    // ipaddr.js 1.x called these `unicast`:
    ['benchmarking 198.18/15', '198.18.0.1'],
    ['benchmarking 198.19', '198.19.255.254'],
    ['local-use NAT64 64:ff9b:1::/48', '64:ff9b:1::a00:1'],
    ['IPv6 site-local fec0::/10', 'fec0::1'],
    ['IPv4-compatible IPv6 ::a.b.c.d', '::8.8.8.8'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    // The rest of the explicit list:
    ['this network 0/8', '0.1.2.3'],
    ['reserved 240/4', '240.0.0.1'],
    ['IETF protocol assignments 192.0.0/24', '192.0.0.8'],
    ['documentation 192.0.2/24', '192.0.2.1'],
    ['documentation 198.51.100/24', '198.51.100.7'],
    ['6to4 relay anycast', '192.88.99.1'],
    ['IPv4-mapped private', '::ffff:10.0.0.1'],
    ['IPv4-mapped metadata', '::ffff:169.254.169.254'],
    ['NAT64 of loopback', '64:ff9b::127.0.0.1'],
    ['NAT64 of RFC 1918', '64:ff9b::a00:1'],
    ['6to4 of loopback', '2002:7f00:1::1'],
    ['6to4 of RFC 1918', '2002:c0a8:101::1'],
    ['Teredo', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['IPv6 benchmarking', '2001:2::1'],
    ['IPv6 documentation 2001:db8::/32', '2001:db8::1'],
    ['IPv6 documentation 3fff::/20', '3fff::1'],
    ['IPv6 discard-only', '100::1'],
    ['IPv6 outside global unicast', '4000::1'],
  ])('refuses %s (%s)', async (_class, address) => {
    expect(isPublicAddress(address)).toBe(false);
    const host = address.includes(':') ? `[${address}]` : address;
    expect(await refusal(`https://${host}/hook`)).toMatch(/^private: /);
  });

  it.each([
    ['public IPv4', '93.184.216.34'],
    ['public IPv6', '2606:2800:220:1:248:1893:25c8:1946'],
    ['IPv4-mapped public', '::ffff:8.8.8.8'],
    ['NAT64 of a public address', '64:ff9b::808:808'],
    ['6to4 of a public address', '2002:808:808::1'],
  ])('accepts %s (%s)', (_class, address) => {
    expect(deniedRange(address)).toBeNull();
  });

  it('refuses a hostname that resolves to 127.0.0.1, and one with a single private address among public ones, without naming the address', async () => {
    const resolve = dns({ 'rebind.example': ['127.0.0.1'], 'mixed.example': ['93.184.216.34', '10.0.0.5'] });
    const rebind = await refusal('https://rebind.example/hook', strict, resolve);
    expect(rebind).toMatch(/^private: /);
    expect(rebind).not.toMatch(/127\.0\.0\.1|loopback/);
    const mixed = await refusal('https://mixed.example/hook', strict, resolve);
    expect(mixed).toMatch(/^private: /);
    expect(mixed).not.toMatch(/10\.0\.0\.5|private address|93\.184/);
  });

  it('accepts a public https URL and returns the address to connect to, resolved once', async () => {
    const target = await checkOutboundUrl('https://hooks.example/in?x=1', strict, dns({ 'hooks.example': ['93.184.216.34'] }));
    expect(target).toMatchObject({ address: '93.184.216.34', family: 4 });
    expect(target.url.pathname).toBe('/in');
  });

  it('refuses http unless allowed, other schemes always, credentials in the URL and names that do not resolve', async () => {
    expect(await refusal('http://8.8.8.8/')).toBe('scheme: only https URLs are allowed');
    expect(await refusal('http://8.8.8.8/', { allowPrivate: false, allowHttp: true })).toBe('allowed');
    expect(await refusal('ftp://8.8.8.8/', { allowPrivate: false, allowHttp: true })).toMatch(/^scheme: /);
    expect(await refusal('https://user:pw@8.8.8.8/')).toMatch(/^url: credentials/);
    expect(await refusal('https://nowhere.invalid/')).toMatch(/^resolve: .*ENOTFOUND/);
    expect(await refusal('not a url')).toMatch(/^url: /);
  });

  it('lets private addresses through only when the operator allows them', async () => {
    expect(await refusal('http://127.0.0.1:8080/', { allowPrivate: true, allowHttp: true })).toBe('allowed');
  });

  describe('the resolver', () => {
    let silent: Socket;
    let port: number;
    let queries = 0;

    beforeAll(async () => {
      // A name server that receives every query and never answers.
      silent = createSocket('udp4');
      silent.on('message', () => void queries++);
      await new Promise<void>((resolve) => silent.bind(0, '127.0.0.1', resolve));
      port = silent.address().port;
    });

    afterAll(() => new Promise<void>((resolve) => silent.close(() => resolve())));

    it('gives up at its deadline when the name server never answers, and the guard refuses the URL', async () => {
      const slow = (host: string) => resolveWithDeadline(host, { timeoutMs: 300, servers: [`127.0.0.1:${port}`] });
      await expect(slow('hooks.example')).rejects.toBeInstanceOf(DnsTimeoutError);
      expect(queries).toBeGreaterThan(0);
      expect(await refusal('https://hooks.example/in', strict, slow)).toBe('resolve: the host "hooks.example" does not resolve (ETIMEOUT)');
    });

    it('answers localhost as loopback without asking DNS, so the guard refuses it', async () => {
      const before = queries;
      await expect(resolveWithDeadline('localhost', { servers: [`127.0.0.1:${port}`] })).resolves.toEqual([
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
      expect(queries).toBe(before);
      expect(await refusal('https://app.localhost/x', strict, (host) => resolveWithDeadline(host))).toMatch(/^private: /);
    });
  });
});
