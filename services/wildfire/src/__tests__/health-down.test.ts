import request from 'supertest';
import { createTestDatabase } from '@firma-riesgo/service-kit/testing';
import { startWildfire } from '../runtime';
import { clearRedisPrefix, REDIS_URL, testConfig, uniquePrefix } from './support';

describe('wildfire health when the database goes away', () => {
  it('answers 503 with status down and the error object once its database is gone, Redis still ok', async () => {
    const db = await createTestDatabase('wildfire_down');
    const prefix = uniquePrefix();
    const rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix }), 'all');
    try {
      expect((await request(rt.server!).get('/health')).status).toBe(200);
      await db.drop();
      const res = await request(rt.server!).get('/health');
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ service: 'wildfire', status: 'down', database: 'down', database_kind: 'postgres', redis: 'ok' });
      // Interface §7: every error, a 503 included, carries the error object.
      expect(res.body.error).toEqual({ code: 'SERVICE_UNAVAILABLE', message: expect.any(String), param: null, request_id: res.headers['x-request-id'] });
    } finally {
      await rt.close();
      await db.drop();
      await clearRedisPrefix(prefix);
    }
  });
});
