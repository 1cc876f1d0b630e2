import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, clearRedisPrefix, eventually, REDIS_URL, testConfig, uniquePrefix } from '../__tests__/support';
import { runCli } from '../cli';
import { startWildfire, type WildfireRuntime } from '../runtime';

const M1 = '/api/v3/m1?municipio_id=28079&date_from=2025-07-01&date_to=2025-07-02';
/** "Within one second": 20 polls 50 ms apart. */
const WITHIN_A_SECOND: [number, number] = [20, 50];

/**
 * Two API instances on one database and one Redis, each caching token lookups for a
 * minute (far beyond the test): only the change messages can make them notice.
 */
describe('token changes reach every instance’s cache', () => {
  let db: TestDatabase;
  let a: WildfireRuntime;
  let b: WildfireRuntime;
  const prefix = uniquePrefix();
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_token_cache');
    env = { WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix, WILDFIRE_TOKEN_CACHE_MS: '60000', LOG_LEVEL: 'silent' };
    a = await startWildfire(testConfig(env), 'api');
    b = await startWildfire(testConfig(env), 'api');
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  const get = (rt: WildfireRuntime, path: string, token: string) => request(rt.server!).get(path).set('Authorization', `Bearer ${token}`);
  const refusedOn = (rt: WildfireRuntime, token: string) =>
    eventually(async () => {
      const res = await get(rt, M1, token);
      return res.status === 401 ? res : undefined;
    }, ...WITHIN_A_SECOND);

  it('refuses on the other instance, within a second, a token revoked through one', async () => {
    const { token, record } = await a.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'] });
    expect((await get(b, M1, token)).status).toBe(200); // now in b's cache
    expect((await get(b, M1, token)).status).toBe(200);
    await a.tokens.revoke(record.id);
    const refused = await refusedOn(b, token);
    expect(refused.body.error).toMatchObject({ code: 'INVALID_API_KEY', message: 'This API token has been revoked' });
    expect((await get(a, M1, token)).status).toBe(401);
  });

  it('refuses on every instance, within a second, a token revoked with the CLI (a process of its own)', async () => {
    const { token, record } = await a.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'] });
    expect((await get(a, M1, token)).status).toBe(200);
    expect((await get(b, M1, token)).status).toBe(200);
    const output = captureOutput();
    expect(await runCli(['tokens', 'revoke', record.id], output.out, env)).toBe(0);
    await refusedOn(a, token);
    await refusedOn(b, token);
  });

  it('ends a rotated token at once everywhere with a zero grace period', async () => {
    const { token, record } = await a.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'] });
    expect((await get(b, M1, token)).status).toBe(200);
    const rotated = await a.tokens.rotate(record.id, 0);
    const refused = await refusedOn(b, token);
    expect(refused.body.error.message).toMatch(/replaced by a rotation/);
    expect((await get(b, M1, rotated!.token)).status).toBe(200);
  });

  it('refuses on every instance, within a second, a token revoked or rotated over the operator API', async () => {
    const { token: operator } = await a.tokens.create({ account: 'ops', type: 'live', scopes: ['admin:tokens'] }, { grantAdmin: true });
    const revoked = await a.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'] });
    const rotated = await a.tokens.create({ account: 'ayto', type: 'live', scopes: ['risk:read'] });
    for (const t of [revoked.token, rotated.token]) expect((await get(b, M1, t)).status).toBe(200); // now in b's cache
    const admin = (req: request.Test) => req.set('Authorization', `Bearer ${operator}`);
    expect((await admin(request(a.server!).delete(`/api/v1/admin/tokens/${revoked.record.id}`))).status).toBe(204);
    const replacement = await admin(request(a.server!).post(`/api/v1/admin/tokens/${rotated.record.id}/rotate`)).send({ overlap_hours: 0 });
    expect(replacement.status).toBe(201);
    expect((await refusedOn(b, revoked.token)).body.error.message).toBe('This API token has been revoked');
    expect((await refusedOn(b, rotated.token)).body.error.message).toMatch(/replaced by a rotation/);
    expect((await get(b, M1, replacement.body.token)).status).toBe(200);
  });

  it('applies an account’s new quota on the other instance within a second', async () => {
    const { token } = await a.tokens.create({ account: 'ayto-quota', type: 'live', scopes: ['risk:read'], monthlyQuota: 1 });
    expect((await get(b, M1, token)).status).toBe(200);
    expect((await get(b, M1, token)).body.error.code).toBe('QUOTA_EXCEEDED');
    await a.tokens.create({ account: 'ayto-quota', type: 'live', scopes: ['risk:read'], monthlyQuota: 3 });
    await eventually(async () => ((await get(b, M1, token)).status === 200 ? true : undefined), ...WITHIN_A_SECOND);
  });
});
