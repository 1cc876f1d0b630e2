import { keyState, mayRevoke, TENANT_ID_PATTERN } from './rules';

const at = (iso: string) => new Date(iso);

describe('key rules', () => {
  it('calls a key revoked for good, expired from the instant of its expiry on, and active before', () => {
    const now = at('2026-11-26T10:00:00Z');
    expect(keyState({ revokedAt: at('2026-11-01T00:00:00Z'), expiresAt: at('2027-01-01T00:00:00Z') }, now)).toBe('revoked');
    expect(keyState({ revokedAt: null, expiresAt: now }, now)).toBe('expired');
    expect(keyState({ revokedAt: null, expiresAt: at('2026-11-26T10:00:00.001Z') }, now)).toBe('active');
    expect(keyState({ revokedAt: null, expiresAt: null }, now)).toBe('active');
  });

  it('lets a caller revoke its own key only while another active one remains', () => {
    expect(mayRevoke({ id: 'a' }, 'b', 0)).toBe(true);
    expect(mayRevoke({ id: 'a' }, 'a', 1)).toBe(true);
    expect(mayRevoke({ id: 'a' }, 'a', 0)).toBe(false);
  });

  it('takes tenant ids that are slugs only', () => {
    for (const ok of ['acme', 'ayto-alcala', 'a.b_c-1', '9lives']) expect(TENANT_ID_PATTERN.test(ok)).toBe(true);
    for (const bad of ['', 'Acme', '-acme', 'a b', 'x'.repeat(64), 'acme\n']) expect(TENANT_ID_PATTERN.test(bad)).toBe(false);
  });
});
