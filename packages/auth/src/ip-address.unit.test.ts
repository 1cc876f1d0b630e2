import { clientAddressKey, parseIpStrict } from './ip-address';

describe('the per-address key of a client', () => {
  it('counts every address of one IPv6 /64 as one client, and another /64 apart', () => {
    const a = clientAddressKey('2001:db8:1:2:aaaa:bbbb:cccc:1');
    expect(a).toBe('2001:db8:1:2::/64');
    expect(clientAddressKey('2001:db8:1:2::ffff')).toBe(a);
    expect(clientAddressKey('2001:0db8:0001:0002:0:0:0:9')).toBe(a);
    expect(clientAddressKey('2001:db8:1:3::1')).not.toBe(a);
  });

  it('keeps IPv4 per address, and counts an IPv4-mapped client as its IPv4', () => {
    expect(clientAddressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientAddressKey('203.0.113.8')).not.toBe(clientAddressKey('203.0.113.7'));
  });

  it('keeps what does not parse as written', () => {
    expect(clientAddressKey('unknown')).toBe('unknown');
  });
});

describe('strict address parsing', () => {
  it('reads ::a.b.c.d as IPv4-compatible, not IPv4-mapped (ipaddr.js 2.x reads it as mapped)', () => {
    expect(parseIpStrict('::8.8.8.8')?.toString()).toBe('::808:808');
    expect(parseIpStrict('::ffff:8.8.8.8')?.toNormalizedString()).toBe('0:0:0:0:0:ffff:808:808');
  });

  it('refuses inet_aton forms and zone ids', () => {
    expect(parseIpStrict('0x7f.1')).toBeNull();
    expect(parseIpStrict('0177.0.0.1')).toBeNull();
    expect(parseIpStrict('::ffff:0x7f.0.0.1')).toBeNull();
    expect(parseIpStrict('fe80::1%eth0')).toBeNull();
  });
});
