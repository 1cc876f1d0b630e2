import express from 'express';
import request from 'supertest';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { esignEnvelope } from '@firma-riesgo/errors';
import { createHttpApp, createInProcessQueue, createJobRegistry, createMetrics, openDatabase, type Database, type InProcessJobQueue, type JobRegistry } from '@firma-riesgo/service-kit';
import { keyJobHandlers, touchKeyJob } from './jobs';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { MIGRATIONS_FOLDER, schema } from '../db';
import { authenticate, principalOf } from './authenticate';
import { createKeysRepository } from './repository';
import { createKeysService, type KeysService } from './service';

describe('API key authentication', () => {
  let testDb: TestDatabase;
  let database: Database<typeof schema>;
  let keys: KeysService;
  let app: express.Express;
  let jobs: InProcessJobQueue<JobRegistry<typeof touchKeyJob>>;

  beforeAll(async () => {
    testDb = await createTestDatabase('esign_keys');
    const logger = pino({ level: 'silent' });
    database = await openDatabase({ url: testDb.url, dataDir: '/nonexistent', service: 'esign', schema, migrationsFolder: MIGRATIONS_FOLDER, logger, role: 'service' });
    keys = createKeysService(createKeysRepository(database.db));
    jobs = createInProcessQueue({
      // authenticate depends on the one job it queues, `key.touch`.
      registry: createJobRegistry([touchKeyJob]),
      logger,
      handlers: keyJobHandlers(keys),
    });
    const auth = { keys, jobs, logger, clock: () => new Date('2026-11-20T10:00:00Z') };
    const http = createHttpApp({ logger, metrics: createMetrics('esign-test'), envelope: esignEnvelope, jsonLimit: '1kb', trustedProxies: [] });
    http.app.get('/whoami', authenticate(auth), (_req, res) => res.json(principalOf(res.locals)));
    http.app.get('/admin-only', authenticate(auth, { superadmin: true }), (_req, res) => res.json({ ok: true }));
    app = http.finish();
  });

  afterAll(async () => {
    await jobs?.close();
    await database?.close();
    await testDb?.drop();
  });

  it('accepts "Bearer <key>" and the bare key, and takes the tenant from the key', async () => {
    const { key } = await keys.create({ tenant: 'acme' });
    const bearer = await request(app).get('/whoami').set('authorization', `Bearer ${key}`);
    const bare = await request(app).get('/whoami').set('authorization', key);
    expect(bearer.status).toBe(200);
    expect(bearer.body).toMatchObject({ tenant: 'acme', role: 'tenant' });
    expect(bare.body).toEqual(bearer.body);
  });

  it('answers a missing header with 422 located at header.authorization', async () => {
    const res = await request(app).get('/whoami');
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ detail: [{ loc: ['header', 'authorization'], msg: 'Field required', type: 'missing' }] });
  });

  it('answers unknown and revoked keys with 401 INVALID_API_KEY', async () => {
    const { key, record } = await keys.create({ tenant: 'globex' });
    const unknown = await request(app).get('/whoami').set('authorization', `Bearer esk_${'x'.repeat(43)}`);
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('INVALID_API_KEY');
    expect((await keys.revoke(record.id)).map((k) => k.id)).toEqual([record.id]);
    const revoked = await request(app).get('/whoami').set('authorization', `Bearer ${key}`);
    expect(revoked.status).toBe(401);
  });

  it('refuses tenant keys on superadmin routes with 403', async () => {
    const tenant = await keys.create({ tenant: 'initech' });
    const admin = await keys.create({ tenant: 'operator', role: 'superadmin' });
    expect((await request(app).get('/admin-only').set('authorization', tenant.key)).status).toBe(403);
    expect((await request(app).get('/admin-only').set('authorization', admin.key)).status).toBe(200);
  });

  it('stores only the SHA-256 of each key, never the key itself', async () => {
    const { key } = await keys.create({ tenant: 'umbrella' });
    const rows = await database.db.execute(sql`select * from api_keys`);
    const dump = JSON.stringify(rows.rows);
    expect(dump).not.toContain(key);
    expect(dump).toContain(require('node:crypto').createHash('sha256').update(key).digest('hex'));
  });

  it('records when a key was last used, off the request path', async () => {
    const { key, record } = await keys.create({ tenant: 'hooli' });
    expect(record.lastUsedAt).toBeNull();
    await request(app).get('/whoami').set('authorization', key);
    await jobs.drain();
    const [listed] = await keys.list('hooli');
    expect(listed?.lastUsedAt?.toISOString()).toBe('2026-11-20T10:00:00.000Z');
  });

  it('revokes nothing when a prefix matches more than one key', async () => {
    const repo = createKeysRepository(database.db);
    await repo.insertKey({ tenant: 'twins', role: 'tenant', keyHash: 'a'.repeat(64), prefix: 'esk_same' });
    await repo.insertKey({ tenant: 'twins', role: 'tenant', keyHash: 'b'.repeat(64), prefix: 'esk_same' });
    await expect(keys.revoke('esk_same')).rejects.toMatchObject({ code: 'AMBIGUOUS_KEY' });
    expect((await keys.list('twins')).every((k) => k.revokedAt === null)).toBe(true);
  });

  it('rejects tenant names that are not slugs', async () => {
    await expect(keys.create({ tenant: 'Acme Corp' })).rejects.toThrow(/Invalid tenant name/);
  });
});
