import { OutboundAddressError } from './outbound-address';
import { createOutboundCheck } from './outbound-allowlist';

/** A resolver answering from a table, as DNS would (no network in tests). */
const dns = (table: Record<string, string[]>) =>
  (async (host: string) => {
    const addresses = table[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }) as never;

describe('the outbound guard with an allowlist (revocation fetching)', () => {
  const resolve = dns({ 'ocsp.internal': ['10.1.2.3'], 'ocsp.example': ['93.184.216.34'], 'rebind.example': ['93.184.216.34', '127.0.0.1'] });
  const check = createOutboundCheck({ allowPrivate: false, allowHttp: true, allowedHosts: ['OCSP.internal', '127.0.0.1'] }, resolve);

  it('lets a listed host through whatever it resolves to, and connects to the address it resolved', async () => {
    await expect(check('http://ocsp.internal/ocsp')).resolves.toEqual({ address: '10.1.2.3', family: 4 });
    await expect(check('http://127.0.0.1:8080/')).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });

  it('holds every other host to the policy: public addresses only', async () => {
    await expect(check('http://ocsp.example/')).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    for (const url of ['http://10.9.9.9/crl', 'http://[::1]/', 'http://rebind.example/', 'http://169.254.169.254/latest']) {
      const err = await check(url).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OutboundAddressError);
      expect((err as OutboundAddressError).reason).toBe('private');
    }
  });

  it('refuses other schemes and credentials in the URL, listed or not', async () => {
    await expect(check('ftp://ocsp.internal/crl')).rejects.toMatchObject({ reason: 'scheme' });
    await expect(check('http://user:pw@ocsp.internal/')).rejects.toMatchObject({ reason: 'url' });
  });
});
