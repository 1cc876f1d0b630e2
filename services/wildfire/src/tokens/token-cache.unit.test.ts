import type { TokenRecord } from './repository';
import { createTokenCache } from './token-cache';

const record = (id: string, accountId = 'acct-1'): TokenRecord => ({
  id,
  accountId,
  account: 'acme',
  monthlyQuota: null,
  type: 'live',
  prefix: 'pk_live_abcdefgh',
  scopes: ['risk:read'],
  municipios: null,
  ipAllowlist: null,
  expiresAt: null,
  revokedAt: null,
  replacedBy: null,
  createdAt: new Date('2026-01-01T00:00:00Z'),
  lastUsedAt: null,
});

describe('the token cache', () => {
  let now = 0;
  const cache = (maxEntries = 100, ttlMs = 5000) => createTokenCache({ ttlMs, maxEntries, now: () => now });

  beforeEach(() => {
    now = 0;
  });

  it('keeps at most its size, forgetting the least recently used token first', () => {
    const c = cache(3);
    for (const id of ['a', 'b', 'c']) c.set(`hash-${id}`, record(id), c.generation);
    expect(c.get('hash-a')?.id).toBe('a'); // a is now the most recently used
    c.set('hash-d', record('d'), c.generation);
    expect(c.size).toBe(3);
    expect(c.get('hash-b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((id) => c.get(`hash-${id}`)?.id)).toEqual(['a', 'c', 'd']);
    for (let i = 0; i < 1000; i++) c.set(`hash-x${i}`, record(`x${i}`), c.generation);
    expect(c.size).toBe(3);
  });

  it('believes an entry for its TTL only', () => {
    const c = cache(10, 5000);
    c.set('h', record('a'), c.generation);
    now = 4999;
    expect(c.get('h')?.id).toBe('a');
    now = 5000;
    expect(c.get('h')).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('drops a changed token, every token of a changed account, or everything', () => {
    const c = cache();
    c.set('h1', record('t1', 'acct-1'), c.generation);
    c.set('h2', record('t2', 'acct-1'), c.generation);
    c.set('h3', record('t3', 'acct-2'), c.generation);
    c.drop({ tokenId: 't3' });
    expect([c.get('h1')?.id, c.get('h2')?.id, c.get('h3')]).toEqual(['t1', 't2', undefined]);
    c.drop({ accountId: 'acct-1' });
    expect(c.size).toBe(0);
    c.set('h3', record('t3', 'acct-2'), c.generation);
    c.drop(null);
    expect(c.get('h3')).toBeUndefined();
  });

  it('does not store a lookup that began before a change was heard (it may have read the old row)', () => {
    const c = cache();
    const before = c.generation;
    c.drop({ tokenId: 't1' }); // the revocation arrives while the query runs
    c.set('h1', record('t1'), before);
    expect(c.get('h1')).toBeUndefined();
    c.set('h1', { ...record('t1'), revokedAt: new Date() }, c.generation);
    expect(c.get('h1')?.revokedAt).not.toBeNull();
  });
});
