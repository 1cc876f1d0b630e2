import { documentFacts, documentStatus, firstSigned, signedPdfAccess } from './rules';

/** The document rules as pure functions: no database, milliseconds. */
const at = (iso: string) => new Date(iso);
const now = at('2026-11-25T00:00:00Z');
const req = (status: 'pending' | 'signed' | 'expired' | 'cancelled', expiresAt = '2026-12-01T00:00:00Z') => ({ status, expiresAt: at(expiresAt) });
const status = (requests: ReturnType<typeof req>[], erasedAt: Date | null = null) => documentStatus(documentFacts({ erasedAt }, requests, now));

describe("a document's status", () => {
  it.each([
    ['no request', [], 'draft'],
    ['only cancelled requests', [req('cancelled')], 'draft'],
    ['one pending', [req('pending'), req('signed')], 'pending'],
    ['every live request signed', [req('signed'), req('signed'), req('cancelled')], 'signed'],
    ['a request expired, none pending', [req('signed'), req('expired')], 'expired'],
    ['a pending request past its expiry, not yet marked', [req('signed'), req('pending', '2026-11-24T00:00:00Z')], 'expired'],
  ] as const)('%s → %s', (_what, requests, expected) => {
    expect(status([...requests])).toBe(expected);
  });

  it('is erased once erased, whatever its requests', () => {
    expect(status([req('pending')], at('2026-11-20T00:00:00Z'))).toBe('erased');
  });
});

describe('who may download the signed PDF (interface §7)', () => {
  const doc = { tenantId: 't1' };
  it('lets the owning tenant and any superadmin in, and refuses another tenant (403, not 404)', () => {
    expect(signedPdfAccess({ tenantId: 't1', role: 'tenant' }, doc)).toBe('allowed');
    expect(signedPdfAccess({ tenantId: 't2', role: 'superadmin' }, doc)).toBe('allowed');
    expect(signedPdfAccess({ tenantId: 't2', role: 'tenant' }, doc)).toBe('forbidden');
  });

  it("serves the first request signed, whatever the list's order", () => {
    const rows = [
      { id: 'b', status: 'signed' as const, signedAt: at('2026-11-20T10:00:00Z') },
      { id: 'p', status: 'pending' as const, signedAt: null },
      { id: 'a', status: 'signed' as const, signedAt: at('2026-11-20T09:00:00Z') },
    ];
    expect(firstSigned(rows)?.id).toBe('a');
    expect(firstSigned([rows[1]!])).toBeUndefined();
  });
});
