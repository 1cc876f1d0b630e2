import { hashKey } from '@firma-riesgo/auth';
import { ConflictError } from '@firma-riesgo/errors';
import { createFakeTokensRepository } from './__tests__/fake-tokens-repository';
import { createTokensService, TOKEN_SCOPES, TokenInputError } from './service';

const NOW = new Date('2026-05-04T10:00:00Z');

function setup() {
  const repo = createFakeTokensRepository();
  let now = NOW;
  const service = createTokensService(repo, () => now);
  return { repo, service, advanceTo: (at: Date) => (now = at) };
}

async function inputError(run: () => Promise<unknown>): Promise<TokenInputError> {
  const error = await run().then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(TokenInputError);
  return error as TokenInputError;
}

describe('tokens service', () => {
  it('issues pk_live_ and pk_test_ tokens, storing only their SHA-256 and a short display prefix', async () => {
    const { repo, service } = setup();
    const live = await service.create({ account: 'acme', type: 'live', scopes: ['risk:read'] });
    const test = await service.create({ account: 'acme', type: 'test', scopes: ['risk:read'] });
    expect(live.token).toMatch(/^pk_live_[0-9A-Za-z]{43}$/);
    expect(test.token).toMatch(/^pk_test_[0-9A-Za-z]{43}$/);
    expect(repo.rows[0]).toMatchObject({ tokenHash: hashKey(live.token), prefix: live.token.slice(0, 'pk_live_'.length + 8) });
    expect(JSON.stringify(repo.rows)).not.toContain(live.token);
  });

  it('stores scopes once each in the canonical order, and limits in canonical form', async () => {
    const { service } = setup();
    const { record } = await service.create({
      account: 'acme',
      type: 'live',
      scopes: ['reports:write', 'risk:read', 'reports:write'],
      municipios: ['28079', '08019', '28079'],
      ipAllowlist: ['10.1.2.3/8', '2001:db8::1'],
    });
    expect(record.scopes).toEqual(['risk:read', 'reports:write']);
    expect(record.municipios).toEqual(['28079', '08019']);
    expect(record.ipAllowlist).toEqual(['10.0.0.0/8', '2001:db8::1/128']);
  });

  it.each([
    [{ account: 'Acme Corp' }, 'account', /Invalid account name "Acme Corp"/],
    [{ scopes: ['risk:write'] }, 'scopes', /Unknown scope "risk:write"; known: risk:read, reports:read, reports:write, ecosystem:read/],
    [{ scopes: [] }, 'scopes', /at least one scope/],
    [{ municipios: ['28079', '123'] }, 'municipios', /Invalid municipality code "123": expected a 5-digit INE code/],
    [{ municipios: [] }, 'municipios', /empty/],
    [{ ipAllowlist: ['10.0.0.0/33'] }, 'ip_allowlist', /Invalid IP address or CIDR range: "10.0.0.0\/33"/],
    [{ expiresAt: NOW }, 'expires_at', /not in the future/],
  ] as const)('refuses %j, naming the field', async (override, field, message) => {
    const { repo, service } = setup();
    const error = await inputError(() => service.create({ account: 'acme', type: 'live', scopes: ['risk:read'], ...override }));
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
    expect(repo.rows).toHaveLength(0);
  });

  it('tells an unknown, a revoked and an expired token apart, and accepts a valid one', async () => {
    const { service, advanceTo } = setup();
    const { token, record } = await service.create({ account: 'acme', type: 'live', scopes: ['risk:read'], expiresAt: new Date('2026-06-01T00:00:00Z') });
    expect(await service.authenticate(token)).toEqual({ ok: true, token: record });
    expect(await service.authenticate(`${token}x`)).toEqual({ ok: false, reason: 'unknown' });
    expect(await service.authenticate('esk_not_ours')).toEqual({ ok: false, reason: 'unknown' });
    advanceTo(new Date('2026-06-01T00:00:00Z'));
    expect(await service.authenticate(token)).toMatchObject({ ok: false, reason: 'expired' });
    await service.revoke(record.id);
    expect(await service.authenticate(token)).toMatchObject({ ok: false, reason: 'revoked' });
  });

  it('revokes by id or listed prefix, and revokes nothing when a prefix is ambiguous', async () => {
    const { repo, service } = setup();
    const a = await service.create({ account: 'acme', type: 'live', scopes: ['risk:read'] });
    expect((await service.revoke(a.record.prefix))?.id).toBe(a.record.id);
    expect(await service.revoke(a.record.id)).toBeNull();

    const b = await service.create({ account: 'acme', type: 'live', scopes: ['risk:read'] });
    const c = await service.create({ account: 'acme', type: 'live', scopes: ['risk:read'] });
    repo.rows.find((r) => r.id === c.record.id)!.prefix = b.record.prefix;
    await expect(service.revoke(b.record.prefix)).rejects.toThrow(ConflictError);
    expect(repo.rows.filter((r) => r.revokedAt === null).map((r) => r.id).sort()).toEqual([b.record.id, c.record.id].sort());
  });

  it('creates one demo test token with every scope, only while there are no tokens', async () => {
    const { repo, service } = setup();
    const demo = await service.createDemoTokenIfEmpty();
    expect(demo).toMatch(/^pk_test_/);
    expect(repo.rows[0]).toMatchObject({ account: 'demo', type: 'test', scopes: [...TOKEN_SCOPES] });
    expect(await service.createDemoTokenIfEmpty()).toBeNull();
    expect(repo.rows).toHaveLength(1);
  });
});
