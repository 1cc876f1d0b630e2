import { InvalidCidrError, isValidCidr, parseCidrList } from './cidr';

describe('parseCidrList', () => {
  it('matches IPv4 addresses inside a range and not outside it', () => {
    const list = parseCidrList(['10.0.0.0/8', '192.168.1.0/24']);
    expect(list.contains('10.200.3.4')).toBe(true);
    expect(list.contains('192.168.1.255')).toBe(true);
    expect(list.contains('192.168.2.1')).toBe(false);
    expect(list.contains('11.0.0.1')).toBe(false);
  });

  it('matches IPv6 addresses inside a range and not outside it', () => {
    const list = parseCidrList(['2001:db8::/32']);
    expect(list.contains('2001:db8:1234::1')).toBe(true);
    expect(list.contains('2001:db9::1')).toBe(false);
  });

  it('matches an IPv4-mapped IPv6 client against an IPv4 range', () => {
    const list = parseCidrList(['10.0.0.0/8']);
    expect(list.contains('::ffff:10.1.2.3')).toBe(true);
    expect(list.contains('::ffff:0a01:0203')).toBe(true);
    expect(list.contains('::ffff:11.1.2.3')).toBe(false);
  });

  it('matches an IPv4 client against a range written in IPv4-mapped form', () => {
    const list = parseCidrList(['::ffff:10.0.0.0/104']);
    expect(list.contains('10.9.9.9')).toBe(true);
    expect(list.contains('11.0.0.1')).toBe(false);
    expect(list.entries).toEqual(['10.0.0.0/8']);
  });

  it('treats a single IPv4 address as /32', () => {
    const list = parseCidrList(['203.0.113.7']);
    expect(list.contains('203.0.113.7')).toBe(true);
    expect(list.contains('203.0.113.8')).toBe(false);
    expect(list.entries).toEqual(['203.0.113.7/32']);
  });

  it('treats a single IPv6 address as /128', () => {
    const list = parseCidrList(['2001:db8::7']);
    expect(list.contains('2001:db8:0:0:0:0:0:7')).toBe(true);
    expect(list.contains('2001:db8::8')).toBe(false);
    expect(list.entries).toEqual(['2001:db8::7/128']);
  });

  it('does not match IPv4 clients against IPv6 ranges or the reverse', () => {
    expect(parseCidrList(['::/0']).contains('10.0.0.1')).toBe(false);
    expect(parseCidrList(['0.0.0.0/0']).contains('2001:db8::1')).toBe(false);
  });

  it('clears host bits and trims whitespace in its canonical entries', () => {
    expect(parseCidrList([' 10.1.2.3/8 ', '2001:db8:0:0::1/32']).entries).toEqual(['10.0.0.0/8', '2001:db8::/32']);
  });

  it('contains nothing when empty', () => {
    expect(parseCidrList([]).contains('10.0.0.1')).toBe(false);
  });

  it('returns false for client addresses that do not parse', () => {
    const list = parseCidrList(['0.0.0.0/0', '::/0']);
    expect(list.contains('')).toBe(false);
    expect(list.contains('not-an-ip')).toBe(false);
    expect(list.contains('10.0.0.256')).toBe(false);
    expect(list.contains('10.0.0.1/8')).toBe(false);
    expect(list.contains('167772161')).toBe(false);
  });

  it.each([
    '',
    'localhost',
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.0/',
    '10.0.0.0/8/8',
    '10.0.0.0/-1',
    '10.0.0.0/08',
    '10.0.0',
    '256.0.0.1',
    '010.0.0.1',
    '0x0a.0.0.1',
    '167772161',
    'fe80::1%eth0',
    '2001:db8:::1',
  ])('throws InvalidCidrError naming the malformed entry %p', (entry) => {
    expect(() => parseCidrList(['10.0.0.0/8', entry])).toThrow(InvalidCidrError);
    expect(() => parseCidrList([entry])).toThrow(`"${entry}"`);
  });

  it('keeps the malformed entry on the error', () => {
    try {
      parseCidrList(['10.0.0.0/8', 'nope/8']);
      throw new Error('expected parseCidrList to throw');
    } catch (err) {
      expect(err).toBeInstanceOf(InvalidCidrError);
      expect((err as InvalidCidrError).entry).toBe('nope/8');
    }
  });
});

describe('isValidCidr', () => {
  it('accepts ranges and single addresses of both families', () => {
    expect(isValidCidr('10.0.0.0/8')).toBe(true);
    expect(isValidCidr('10.0.0.1')).toBe(true);
    expect(isValidCidr('2001:db8::/32')).toBe(true);
    expect(isValidCidr('::1')).toBe(true);
  });

  it('rejects malformed entries', () => {
    expect(isValidCidr('10.0.0.0/40')).toBe(false);
    expect(isValidCidr('010.0.0.1')).toBe(false);
    expect(isValidCidr('garbage')).toBe(false);
  });
});
