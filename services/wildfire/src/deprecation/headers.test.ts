import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { testConfig } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { deprecationOf } from './headers';

describe('deprecated API versions (WILDFIRE_DEPRECATED_PREFIXES)', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let token: string;
  // Both sunsets are within 90 days of this instant; tests that need another set it and restore it.
  const WITHIN_NOTICE = new Date('2027-06-01T12:00:00Z');
  let now = WITHIN_NOTICE;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_deprecation');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, WILDFIRE_DEPRECATED_PREFIXES: '/api/v1=2027-06-30>/api/v2, /api/v3=2027-07-31' }), 'api', {
      clock: () => now,
    });
    token = (await rt.tokens.create({ account: 'ayto', type: 'test', scopes: ['risk:read'] })).token;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  afterEach(() => {
    now = WITHIN_NOTICE;
  });

  it('marks responses under a deprecated prefix with Deprecation, Sunset as an HTTP date, and a Link to the successor', async () => {
    const res = await request(rt.server!).get('/api/v1/me').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.deprecation).toBe('true');
    expect(res.headers.sunset).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    expect(res.headers.link).toBe('</api/v2>; rel="successor-version"');
  });

  it('marks error answers too, so a client learns of the sunset from any call', async () => {
    const res = await request(rt.server!).get('/api/v1/me');
    expect(res.status).toBe(401);
    expect(res.headers.deprecation).toBe('true');
  });

  it('sends no Link when no successor is configured', async () => {
    const res = await request(rt.server!).get('/api/v3/m1?municipio_id=28079').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    expect(res.headers.sunset).toBe('Sat, 31 Jul 2027 00:00:00 GMT');
    expect(res.headers.link).toBeUndefined();
  });

  it('starts the headers 90 days before the sunset, as the interface states (§9.4), and keeps them after it', async () => {
    const me = () => request(rt.server!).get('/api/v1/me').set('Authorization', `Bearer ${token}`);
    now = new Date('2027-03-31T23:59:59Z');
    const early = await me();
    expect(early.status).toBe(200);
    expect([early.headers.deprecation, early.headers.sunset, early.headers.link]).toEqual([undefined, undefined, undefined]);
    now = new Date('2027-04-01T00:00:00Z');
    expect((await me()).headers.deprecation).toBe('true');
    now = new Date('2027-07-15T00:00:00Z');
    expect((await me()).headers.deprecation).toBe('true');
  });

  it('leaves other paths alone, including ones that merely start with the same letters', async () => {
    for (const path of ['/health', '/api/v10/anything', '/openapi.json']) {
      const res = await request(rt.server!).get(path);
      expect(res.headers.deprecation).toBeUndefined();
      expect(res.headers.sunset).toBeUndefined();
    }
  });

  it('marks the deprecated operations in the OpenAPI document with their sunset', async () => {
    const { body } = await request(rt.server!).get('/openapi.json');
    expect(body.paths['/api/v1/me'].get.deprecated).toBe(true);
    expect(body.paths['/api/v1/me'].get.description).toMatch(/^Deprecated: sunset on 2027-06-30; use \/api\/v2\. Responses carry `Deprecation: true` and `Sunset` from 2027-04-01\./);
    expect(body.paths['/health'].get.deprecated).toBeUndefined();
  });
});

describe('deprecationOf', () => {
  const prefixes = [
    { prefix: '/api', sunset: new Date('2030-01-01'), successor: null },
    { prefix: '/api/v1', sunset: new Date('2027-06-30'), successor: '/api/v2' },
  ];

  it('picks the most specific prefix a path falls under', () => {
    expect(deprecationOf(prefixes, '/api/v1/me')?.prefix).toBe('/api/v1');
    expect(deprecationOf(prefixes, '/api/v1')?.prefix).toBe('/api/v1');
    expect(deprecationOf(prefixes, '/api/v3/m1')?.prefix).toBe('/api');
    expect(deprecationOf(prefixes, '/apis')).toBeNull();
  });
});
