import request from 'supertest';
import { createTestDatabase } from '@platform/service-kit/testing';
import { startWildfire } from '../runtime';
import { clearRedisPrefix, REDIS_URL, testConfig, uniquePrefix } from './support';

describe('wildfire health when the database goes away', () => {
  it('answers 503 with status down once its database is gone, Redis still ok', async () => {
    const db = await createTestDatabase('wildfire_down');
    const prefix = uniquePrefix();
    const rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix }), 'all');
    try {
      expect((await request(rt.server!).get('/health')).status).toBe(200);
      await db.drop();
      const res = await request(rt.server!).get('/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ service: 'wildfire', status: 'down', database: 'down', database_kind: 'postgres', redis: 'ok' });
    } finally {
      await rt.close();
      await db.drop();
      await clearRedisPrefix(prefix);
    }
  });
});
