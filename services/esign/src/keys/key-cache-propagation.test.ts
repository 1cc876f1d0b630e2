import { rmSync } from 'node:fs';
import request from 'supertest';
import { captureOutput, clearRedisPrefix, createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { eventually, shortTempDir, testConfig, TEST_AT_REST_KEY, uniquePrefix } from '../__tests__/support';
import { runCli } from '../cli';
import { startEsign, type EsignRuntime } from '../runtime';

/** "Within one second": 20 polls 50 ms apart. */
const WITHIN_A_SECOND: [number, number] = [20, 50];

/**
 * Two API instances on one database and one Redis, each caching key lookups for a
 * minute (far beyond the test): only the change messages can make them notice a revocation.
 */
describe('API key revocations reach every instance’s cache', () => {
  let db: TestDatabase;
  let a: EsignRuntime;
  let b: EsignRuntime;
  const prefix = uniquePrefix();
  let env: Record<string, string>;
  const dataDirs: string[] = [];
  const dataDir = () => {
    const dir = shortTempDir();
    dataDirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    db = await createTestDatabase('esign_key_cache');
    env = {
      ESIGN_DATABASE_URL: db.url,
      ESIGN_AT_REST_KEY: TEST_AT_REST_KEY,
      REDIS_URL: 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: prefix,
      ESIGN_RATE_LIMIT_PREFIX: `${prefix}:rl`,
      ESIGN_KEY_CACHE_MS: '60000',
      LOG_LEVEL: 'silent',
    };
    a = await startEsign(testConfig({ ...env, DATA_DIR: dataDir() }), 'api');
    b = await startEsign(testConfig({ ...env, DATA_DIR: dataDir() }), 'api');
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  const get = (rt: EsignRuntime, key: string) => request(rt.server!).get('/firma/marca').set('authorization', `Bearer ${key}`);
  const refusedOn = (rt: EsignRuntime, key: string) =>
    eventually(async () => {
      const res = await get(rt, key);
      return res.status === 401 ? res : undefined;
    }, ...WITHIN_A_SECOND);

  it('refuses a key revoked through one instance there at once, and on the other within a second', async () => {
    const { key, record } = await a.keys.create({ tenant: 'acme' });
    expect((await get(a, key)).status).toBe(200);
    expect((await get(b, key)).status).toBe(200); // now in both caches
    expect((await get(b, key)).status).toBe(200);
    await a.keys.revoke(record.id);
    const here = await get(a, key);
    expect(here.status).toBe(401);
    expect(here.body.code).toBe('INVALID_API_KEY');
    const there = await refusedOn(b, key);
    expect(there.body.code).toBe('INVALID_API_KEY');
  });

  it('refuses on every instance, within a second, a key revoked with the CLI (a process of its own)', async () => {
    const { key, record } = await a.keys.create({ tenant: 'acme' });
    expect((await get(a, key)).status).toBe(200);
    expect((await get(b, key)).status).toBe(200);
    const output = captureOutput();
    expect(await runCli(['keys', 'revoke', record.id], output.out, { ...env, DATA_DIR: dataDir() })).toBe(0);
    await refusedOn(a, key);
    await refusedOn(b, key);
    const { rows } = await a.database.pool.query("select key_id, action, details->>'via' as via from admin_log where details->>'key_id' = $1", [record.id]);
    expect(rows).toEqual([{ key_id: null, action: 'key_revoked', via: 'cli' }]);
  });

  it("refuses on every instance, within a second, the keys of a tenant erased through one instance", async () => {
    const { key: admin } = await a.keys.create({ tenant: 'operator', role: 'superadmin' });
    const first = await a.keys.create({ tenant: 'initech' });
    const second = await a.keys.create({ tenant: 'initech' });
    for (const rt of [a, b]) for (const k of [first.key, second.key]) expect((await get(rt, k)).status).toBe(200); // cached on both
    const erased = await request(a.server!).delete('/admin/tenants/initech/data').set('authorization', `Bearer ${admin}`);
    expect(erased.status).toBe(200);
    for (const k of [first.key, second.key]) {
      expect((await get(a, k)).status).toBe(401);
      await refusedOn(b, k);
    }
  });

  it('refuses on every instance, within a second, a key revoked over REST by a superadmin or by its tenant', async () => {
    const { key: admin } = await a.keys.create({ tenant: 'operator-rest', role: 'superadmin' });
    const byAdmin = await a.keys.create({ tenant: 'umbrella' });
    const bySelf = await a.keys.create({ tenant: 'umbrella' });
    for (const rt of [a, b]) for (const k of [byAdmin.key, bySelf.key]) expect((await get(rt, k)).status).toBe(200); // cached on both
    expect((await request(a.server!).delete(`/admin/keys/${byAdmin.record.id}`).set('authorization', `Bearer ${admin}`)).status).toBe(204);
    expect((await request(a.server!).delete(`/firma/claves/${bySelf.record.id}`).set('authorization', `Bearer ${byAdmin.key}`)).status).toBe(401);
    const keep = await a.keys.create({ tenant: 'umbrella' });
    expect((await request(a.server!).delete(`/firma/claves/${bySelf.record.id}`).set('authorization', `Bearer ${keep.key}`)).status).toBe(204);
    for (const k of [byAdmin.key, bySelf.key]) {
      expect((await get(a, k)).status).toBe(401);
      await refusedOn(b, k);
    }
    expect((await get(b, keep.key)).status).toBe(200);
  });

  it('refuses on every instance, within a second, a key rotated over REST with no overlap, and accepts its replacement there', async () => {
    const { key: admin } = await a.keys.create({ tenant: 'operator-rotate', role: 'superadmin' });
    const old = await a.keys.create({ tenant: 'hooli' });
    expect((await get(b, old.key)).status).toBe(200); // cached on b with no expiry
    const rotated = await request(a.server!).post(`/admin/keys/${old.record.id}/rotate`).set('authorization', `Bearer ${admin}`).send({ overlap_hours: 0 });
    expect(rotated.status).toBe(201);
    const there = await refusedOn(b, old.key);
    expect(there.body.detail).toMatch(/expired at/);
    expect((await get(b, rotated.body.key)).status).toBe(200);
  });

  it('keeps serving the other keys from the cache after a revocation', async () => {
    const kept = await a.keys.create({ tenant: 'globex' });
    const revoked = await a.keys.create({ tenant: 'globex' });
    expect((await get(b, kept.key)).status).toBe(200);
    expect((await get(b, revoked.key)).status).toBe(200);
    await a.keys.revoke(revoked.record.id);
    await refusedOn(b, revoked.key);
    expect((await get(b, kept.key)).status).toBe(200);
  });
});
