import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { esignEnvelope } from '@firma-riesgo/errors';
import { createHttpApp, createMetrics, openDatabase, type Database } from '@firma-riesgo/service-kit';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { MIGRATIONS_FOLDER, schema } from '../db';
import { authenticate } from './authenticate';
import { createKeyCache, type KeyCache } from './key-cache';
import { createKeysRepository, type KeysRepository } from './repository';
import { createKeysService } from './service';

/** Key lookups cached per instance, on a real database: what a lost message, a busy key and many keys do. */
describe('the API key cache', () => {
  let testDb: TestDatabase;
  let database: Database<typeof schema>;
  let repo: KeysRepository;
  let now = 0;
  const cache = (maxEntries = 100, ttlMs = 5000): KeyCache => createKeyCache({ ttlMs, maxEntries, now: () => now });

  beforeAll(async () => {
    testDb = await createTestDatabase('esign_key_cache_unit');
    database = await openDatabase({ url: testDb.url, dataDir: '/nonexistent', service: 'esign', schema, migrationsFolder: MIGRATIONS_FOLDER, logger: pino({ level: 'silent' }), role: 'service' });
    repo = createKeysRepository(database.db);
  });

  afterAll(async () => {
    await database?.close();
    await testDb?.drop();
  });

  beforeEach(() => {
    now = 0;
  });

  /** `repo` with its lookups counted. */
  function countingRepo() {
    const counted = { lookups: 0 };
    const wrapped: KeysRepository = {
      ...repo,
      findActiveByHash: (hash) => {
        counted.lookups += 1;
        return repo.findActiveByHash(hash);
      },
    };
    return { repo: wrapped, counted };
  }

  it('answers a known key from the cache, without asking the database again, until the TTL ends', async () => {
    const { repo: counting, counted } = countingRepo();
    const keys = createKeysService(counting, undefined, { cache: cache() });
    const { key } = await keys.create({ tenant: 'acme' });
    for (let i = 0; i < 5; i++) expect((await keys.authenticate(key))?.tenant).toBe('acme');
    expect(counted.lookups).toBe(1);
    now = 5000;
    expect((await keys.authenticate(key))?.tenant).toBe('acme');
    expect(counted.lookups).toBe(2);
  });

  it('does not cache unknown keys (one may be created in a moment)', async () => {
    const { repo: counting, counted } = countingRepo();
    const keys = createKeysService(counting, undefined, { cache: cache() });
    const unknown = `esk_${'x'.repeat(43)}`;
    expect(await keys.authenticate(unknown)).toBeNull();
    expect(await keys.authenticate(unknown)).toBeNull();
    expect(counted.lookups).toBe(2);
  });

  it('refuses a key revoked on this instance at once', async () => {
    const keys = createKeysService(repo, undefined, { cache: cache() });
    const { key, record } = await keys.create({ tenant: 'acme' });
    expect(await keys.authenticate(key)).not.toBeNull();
    await keys.revoke(record.id);
    expect(await keys.authenticate(key)).toBeNull();
  });

  it('announces each revocation after it is stored, and still revokes when the announcement fails (logged)', async () => {
    const announced: { keyId: string; revokedInDb: boolean }[] = [];
    const warnings: object[] = [];
    const keys = createKeysService(repo, undefined, {
      announce: async (change) => {
        const [listed] = (await repo.list('announced')).filter((k) => k.id === change.keyId);
        announced.push({ keyId: change.keyId, revokedInDb: listed?.revokedAt !== null });
      },
    });
    const first = await keys.create({ tenant: 'announced' });
    await keys.revoke(first.record.prefix);
    expect(announced).toEqual([{ keyId: first.record.id, revokedInDb: true }]);

    const failing = createKeysService(repo, undefined, {
      announce: async () => {
        throw new Error('redis is down');
      },
      logger: { warn: (obj) => warnings.push(obj) },
    });
    const second = await failing.create({ tenant: 'announced' });
    expect(await failing.revoke(second.record.id)).toHaveLength(1);
    expect(await failing.authenticate(second.key)).toBeNull();
    expect(warnings).toEqual([{ err: expect.objectContaining({ message: 'redis is down' }), keyId: second.record.id }]);
  });

  it('leaves a revoked key accepted by an instance that missed the message for at most the TTL', async () => {
    const here = createKeysService(repo, undefined, { cache: cache(100, 5000) });
    // Another instance whose message never arrives (no announce, separate cache).
    const elsewhere = createKeysService(repo, undefined, { cache: cache(100, 5000) });
    const { key, record } = await here.create({ tenant: 'lost' });
    expect(await elsewhere.authenticate(key)).not.toBeNull();
    await here.revoke(record.id);
    expect(await here.authenticate(key)).toBeNull();
    now = 4999;
    expect(await elsewhere.authenticate(key)).not.toBeNull(); // stale, within the bound
    now = 5000;
    expect(await elsewhere.authenticate(key)).toBeNull();
  });

  it('does not store a lookup that began before a revocation was heard (it may have read the old row)', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const c = cache();
    const slow: KeysRepository = {
      ...repo,
      findActiveByHash: async (hash) => {
        const row = await repo.findActiveByHash(hash);
        await held; // the revocation is heard while this query's answer is on its way
        return row;
      },
    };
    const keys = createKeysService(slow, undefined, { cache: c });
    const { key, record } = await keys.create({ tenant: 'race' });
    const lookup = keys.authenticate(key);
    await repo.revoke(record.id, new Date());
    c.drop({ keyId: record.id });
    release();
    expect(await lookup).not.toBeNull(); // the request already in flight
    expect(c.size).toBe(0);
    expect(await createKeysService(repo, undefined, { cache: c }).authenticate(key)).toBeNull();
  });

  it('holds at most ESIGN_KEY_CACHE_SIZE keys, the least recently used going first', async () => {
    const { repo: counting, counted } = countingRepo();
    const c = cache(2);
    const keys = createKeysService(counting, undefined, { cache: c });
    const created = [];
    for (let i = 0; i < 5; i++) created.push((await keys.create({ tenant: `many${i}` })).key);
    for (const key of created) expect(await keys.authenticate(key)).not.toBeNull();
    expect(c.size).toBe(2);
    counted.lookups = 0;
    expect(await keys.authenticate(created[4]!)).not.toBeNull();
    expect(await keys.authenticate(created[3]!)).not.toBeNull();
    expect(counted.lookups).toBe(0);
    expect(await keys.authenticate(created[0]!)).not.toBeNull();
    expect(counted.lookups).toBe(1);
    expect(c.size).toBe(2);
  });

  it('enqueues key.touch once a minute per key however many requests the cached record answers', async () => {
    let clock = new Date('2026-11-20T10:00:00.000Z');
    const keys = createKeysService(repo, () => clock, { cache: createKeyCache({ ttlMs: 600_000, maxEntries: 100 }) });
    const enqueued: { keyId: string; usedAt: string }[] = [];
    const jobs = {
      enqueue: async (_name: string, payload: { keyId: string; usedAt: string }) => {
        enqueued.push(payload);
        await repo.touch(payload.keyId, new Date(payload.usedAt)); // the job runs at once; the cached record still says null
      },
    };
    const http = createHttpApp({ logger: pino({ level: 'silent' }), metrics: createMetrics('esign-key-cache-test'), envelope: esignEnvelope, jsonLimit: '1kb', trustedProxies: [] });
    http.app.get('/whoami', authenticate({ keys, jobs: jobs as never, logger: pino({ level: 'silent' }), clock: () => clock }), (_req, res) => res.json({ ok: true }));
    const app: express.Express = http.finish();
    const { key, record } = await keys.create({ tenant: 'busy' });
    for (let i = 0; i < 5; i++) expect((await request(app).get('/whoami').set('authorization', key)).status).toBe(200);
    expect(enqueued).toEqual([{ keyId: record.id, usedAt: '2026-11-20T10:00:00.000Z' }]);
    clock = new Date('2026-11-20T10:00:59.999Z');
    expect((await request(app).get('/whoami').set('authorization', key)).status).toBe(200);
    expect(enqueued).toHaveLength(1);
    clock = new Date('2026-11-20T10:01:00.000Z');
    for (let i = 0; i < 3; i++) expect((await request(app).get('/whoami').set('authorization', key)).status).toBe(200);
    expect(enqueued.map((e) => e.usedAt)).toEqual(['2026-11-20T10:00:00.000Z', '2026-11-20T10:01:00.000Z']);
    expect((await keys.list('busy'))[0]!.lastUsedAt?.toISOString()).toBe('2026-11-20T10:01:00.000Z');
  });
});
