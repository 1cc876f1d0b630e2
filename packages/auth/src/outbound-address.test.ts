import { checkOutboundUrl, isPublicAddress, OutboundAddressError } from './outbound-address';

const strict = { allowPrivate: false, allowHttp: false };
/** A resolver answering from a table, as DNS would (no network in tests). */
const dns = (table: Record<string, string[]>) =>
  (async (host: string) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as never;

async function refusal(url: string, policy = strict, resolve = dns({})): Promise<string> {
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
  ])('refuses %s (%s)', async (_class, address) => {
    expect(isPublicAddress(address)).toBe(false);
    const host = address.includes(':') ? `[${address}]` : address;
    expect(await refusal(`https://${host}/hook`)).toMatch(/^private: /);
  });

  it('refuses a hostname that resolves to 127.0.0.1, and one with a single private address among public ones', async () => {
    const resolve = dns({ 'rebind.example': ['127.0.0.1'], 'mixed.example': ['93.184.216.34', '10.0.0.5'] });
    expect(await refusal('https://rebind.example/hook', strict, resolve)).toBe('private: the host "rebind.example" resolves to 127.0.0.1, a loopback address, which is not allowed');
    expect(await refusal('https://mixed.example/hook', strict, resolve)).toMatch(/^private: .*10\.0\.0\.5/);
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
});
