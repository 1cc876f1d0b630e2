import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { testConfig } from '../__tests__/support';
import { registryPoints } from '../municipalities/registry';
import { startWildfire, type WildfireRuntime } from '../runtime';
import type { TTerritoryReading } from './schemas';

const DAY = '2025-07-19';
const NOW = new Date('2025-07-20T10:00:00Z');

/** The territory views on a fresh deployment: no `ingest municipalities`, only the built-in registry's points. */
describe('territory with the built-in municipality points, no operator step', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let token: string;
  const get = (path: string) => request(rt.server!).get(path).set('Authorization', `Bearer ${token}`);

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_builtin_points');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, WILDFIRE_RATE_LIMIT_TERRITORY: '1000' }), 'api', { clock: () => NOW });
    token = (await rt.tokens.create({ account: 'cecop', type: 'test', scopes: ['risk:read'] })).token;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it('places every municipality of a province in JSON and GeoJSON at its built-in point', async () => {
    const json = (await get(`/api/v3/m1/territorio?province=41&date=${DAY}`)).body as TTerritoryReading[];
    expect(json).toHaveLength(106);
    for (const row of json) {
      const point = registryPoints().get(row.municipio_id)!;
      expect([row.municipio_id, row.lat, row.lon]).toEqual([row.municipio_id, point.lat, point.lon]);
    }
    const geo = JSON.parse((await get(`/api/v3/m1/territorio?province=41&date=${DAY}`).set('Accept', 'application/geo+json')).text);
    expect(geo.features).toHaveLength(106);
    expect(geo.features.find((f: { id: string }) => f.id === '41091').geometry).toEqual({ type: 'Point', coordinates: [-5.9925, 37.3862] });
  });

  it('draws every municipality of the Canaries on the SVG map, none left out for want of coordinates', async () => {
    const res = await get(`/api/v3/m1/territorio?community=05&date=${DAY}`).set('Accept', 'image/svg+xml');
    expect(res.status).toBe(200);
    const svg = Buffer.isBuffer(res.body) ? res.body.toString('utf8') : res.text;
    // 88 municipalities: Las Palmas 34, Santa Cruz de Tenerife 54.
    expect(svg.match(/<circle [^>]*data-ine="(35|38)\d{3}"/g)).toHaveLength(88);
    expect(svg).toContain('88 municipios');
    expect(svg).not.toContain('sin coordenadas');
    expect(svg.match(/<polygon /g)).toHaveLength(2);
  });
});
