import { parseAuthorizationHeader } from './header';

describe('parseAuthorizationHeader', () => {
  it('takes the key from a Bearer header', () => {
    expect(parseAuthorizationHeader('Bearer esk_abc123')).toBe('esk_abc123');
  });

  it('accepts the scheme in any case', () => {
    expect(parseAuthorizationHeader('bearer esk_abc123')).toBe('esk_abc123');
    expect(parseAuthorizationHeader('BEARER esk_abc123')).toBe('esk_abc123');
  });

  it('tolerates extra whitespace around and between the parts', () => {
    expect(parseAuthorizationHeader('  Bearer \t  esk_abc123  ')).toBe('esk_abc123');
  });

  it('accepts a bare key', () => {
    expect(parseAuthorizationHeader('esk_abc123')).toBe('esk_abc123');
    expect(parseAuthorizationHeader(' esk_abc123 ')).toBe('esk_abc123');
  });

  it('returns null for a missing, empty or blank header', () => {
    expect(parseAuthorizationHeader(undefined)).toBeNull();
    expect(parseAuthorizationHeader('')).toBeNull();
    expect(parseAuthorizationHeader('  \t ')).toBeNull();
  });

  it('returns null for another scheme', () => {
    expect(parseAuthorizationHeader('Basic dXNlcjpwYXNz')).toBeNull();
    expect(parseAuthorizationHeader('Token esk_abc123')).toBeNull();
  });

  it('returns null for Bearer without a key', () => {
    expect(parseAuthorizationHeader('Bearer')).toBeNull();
    expect(parseAuthorizationHeader('Bearer   ')).toBeNull();
  });

  it('returns null when more than one value follows the scheme', () => {
    expect(parseAuthorizationHeader('Bearer esk_a esk_b')).toBeNull();
  });
});
