import { writeFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { parse } from 'csv-parse/sync';
import { expectErrorBody, shortTempDir } from '../__tests__/support';
import type { WildfireRuntime } from '../runtime';
import { DAY, NOW, startTerritoryFixture, type TerritoryFixture } from './__tests__/territory-fixture';
import { TERRITORY_CSV_COLUMNS } from './formats';
import type { TTerritoryReading } from './schemas';

const M1_FIELDS = ['municipio_id', 'date', 'risk_score', 'risk_label', 'fwi', 'ffmc', 'dmc', 'dc', 'isi', 'bui', 'dsr', 'temp', 'rh', 'ws', 'prec', 'source'] as const;

/** The raw bytes and headers of a GET, still compressed (supertest and fetch decompress). */
function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** GET /api/v3/m1/territorio against Postgres: stored readings of Sevilla (106 municipalities) and Tenerife with their nomenclator coordinates (territory-fixture.ts). */
describe('GET /api/v3/m1/territorio', () => {
  let fx: TerritoryFixture;
  let rt: WildfireRuntime;
  let now = NOW;
  let live: string;
  let sevillaCodes: string[];
  const token: TerritoryFixture['token'] = (...args) => fx.token(...args);
  const get: TerritoryFixture['get'] = (...args) => fx.get(...args);

  beforeAll(async () => {
    fx = await startTerritoryFixture('wildfire_territory', () => now);
    ({ rt, live, sevillaCodes } = fx);
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('answers every reading of a province, each equal field by field to what m1 answers for that municipality and day', async () => {
    const res = await get(`/api/v3/m1/territorio?province=41&date=${DAY}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const rows = res.body as TTerritoryReading[];
    expect(rows.map((r) => r.municipio_id)).toEqual(sevillaCodes);
    for (const row of rows) {
      const m1 = await get(`/api/v3/m1?municipio_id=${row.municipio_id}&date_from=${DAY}&date_to=${DAY}`);
      expect(m1.body.data).toHaveLength(1);
      expect(Object.fromEntries(M1_FIELDS.map((f) => [f, row[f]]))).toEqual(m1.body.data[0]);
    }
    expect(rows.find((r) => r.municipio_id === '41091')).toMatchObject({
      municipality: 'Sevilla',
      province_code: '41',
      province: 'Sevilla',
      community_code: '01',
      community: 'Andalucía',
      danger_class: 'extreme',
      lat: 37.38620512,
      lon: -5.99251368,
    });
    expect(new Set(rows.map((r) => r.danger_class))).toEqual(new Set(['very_low', 'low', 'moderate', 'high', 'very_high', 'extreme']));
  });

  it('answers all of Spain without a filter, and a community by its code', async () => {
    const spain = await get(`/api/v3/m1/territorio?date=${DAY}`);
    expect(spain.body.map((r: TTerritoryReading) => r.municipio_id)).toEqual(['38001', '38038', ...sevillaCodes]);
    const canarias = await get(`/api/v3/m1/territorio?community=05&date=${DAY}`);
    expect(canarias.body.map((r: TTerritoryReading) => r.municipio_id)).toEqual(['38001', '38038']);
    // Without a date, live tokens get the newest loaded day: nothing was ingested, so today, with no reading.
    expect((await get('/api/v3/m1/territorio?province=41')).body).toEqual([]);
  });

  it('answers GeoJSON: a FeatureCollection of Points at [lon, lat] with the JSON row as properties (RFC 7946)', async () => {
    const json = (await get(`/api/v3/m1/territorio?province=41&date=${DAY}`)).body as TTerritoryReading[];
    const res = await get(`/api/v3/m1/territorio?province=41&date=${DAY}`).set('Accept', 'application/geo+json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/geo+json; charset=utf-8');
    const geo = JSON.parse(res.text);
    expect(Object.keys(geo)).toEqual(['type', 'features']);
    expect(geo.type).toBe('FeatureCollection');
    expect(geo.features).toHaveLength(json.length);
    geo.features.forEach((f: { type: string; id: string; geometry: { type: string; coordinates: number[] }; properties: Record<string, unknown> }, i: number) => {
      const { lat, lon, ...properties } = json[i]!;
      expect(f).toEqual({ type: 'Feature', id: json[i]!.municipio_id, geometry: { type: 'Point', coordinates: [lon, lat] }, properties });
      const [x, y] = f.geometry.coordinates as [number, number];
      expect(x).toBeGreaterThan(-7);
      expect(x).toBeLessThan(-4.5);
      expect(y).toBeGreaterThan(36.8);
      expect(y).toBeLessThan(38.3);
    });
  });

  it('answers CSV with a header that a CSV parser reads back into the JSON rows', async () => {
    const json = (await get(`/api/v3/m1/territorio?province=41&date=${DAY}`)).body as TTerritoryReading[];
    const res = await get(`/api/v3/m1/territorio?province=41&date=${DAY}`).set('Accept', 'text/csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    const records = parse(res.text, { columns: true, cast: false }) as Record<string, string>[];
    expect(Object.keys(records[0]!)).toEqual([...TERRITORY_CSV_COLUMNS]);
    expect(records).toHaveLength(json.length);
    records.forEach((rec, i) => {
      for (const c of TERRITORY_CSV_COLUMNS) expect([c, rec[c]]).toEqual([c, String(json[i]![c])]);
    });
  });

  it('filters by the token’s municipality list', async () => {
    const narrow = await token(['risk:read'], { municipios: ['41091', '41004', '28079'] });
    const province = await get(`/api/v3/m1/territorio?province=41&date=${DAY}`, narrow);
    expect(province.body.map((r: TTerritoryReading) => r.municipio_id)).toEqual(['41004', '41091']);
    const spain = await get(`/api/v3/m1/territorio?date=${DAY}`, narrow);
    expect(spain.body.map((r: TTerritoryReading) => r.municipio_id)).toEqual(['41004', '41091']);
    const elsewhere = await get(`/api/v3/m1/territorio?province=38&date=${DAY}`, narrow);
    expect(elsewhere.body).toEqual([]);
  });

  it('answers 304 to a conditional GET with its ETag, a new ETag per media type and coding, and Cache-Control until the next ingestion', async () => {
    const path = `/api/v3/m1/territorio?province=41&date=${DAY}`;
    const first = await get(path).set('Accept-Encoding', 'identity');
    const etag = first.headers.etag!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(first.headers['cache-control']).toBe('private, max-age=7200');
    expect(first.headers.vary).toBe('Accept, Accept-Encoding, Authorization');
    const again = await get(path).set('Accept-Encoding', 'identity').set('If-None-Match', etag);
    expect(again.status).toBe(304);
    expect(again.text ?? '').toBe('');
    expect(again.headers.etag).toBe(etag);
    expect((await get(path).set('Accept-Encoding', 'identity').set('If-None-Match', '"something-else"')).status).toBe(200);
    const csv = await get(path).set('Accept-Encoding', 'identity').set('Accept', 'text/csv');
    expect(csv.headers.etag).not.toBe(etag);
    const gz = await get(path).set('Accept-Encoding', 'gzip');
    expect(gz.headers.etag).toBe(`${etag.slice(0, -1)}-gz"`);
    // Another token with the same view of the data gets the same representation.
    expect((await get(path, await token()).set('Accept-Encoding', 'identity').set('If-None-Match', etag)).status).toBe(304);
  });

  it('stamps Last-Modified from the ingestion that loaded the day, and answers 304 to If-Modified-Since', async () => {
    const file = join(shortTempDir(), 'weather.csv');
    writeFileSync(file, 'municipio_id,date,temp,rh,ws,prec\n41091,2025-07-20,38,18,20,0\n41004,2025-07-20,37,20,18,0\n');
    await rt.ingest.weather(file);
    const res = await get('/api/v3/m1/territorio?province=41');
    expect(res.body.map((r: TTerritoryReading) => [r.municipio_id, r.date])).toEqual([
      ['41004', '2025-07-20'],
      ['41091', '2025-07-20'],
    ]);
    expect(res.headers['last-modified']).toBe(NOW.toUTCString());
    const since = await get('/api/v3/m1/territorio?province=41').set('If-Modified-Since', NOW.toUTCString());
    expect(since.status).toBe(304);
    const before = await get('/api/v3/m1/territorio?province=41').set('If-Modified-Since', new Date(NOW.getTime() - 60_000).toUTCString());
    expect(before.status).toBe(200);
    // The same file again an hour later changes no reading: the day keeps its Last-Modified.
    now = new Date(NOW.getTime() + 3_600_000);
    try {
      await rt.ingest.weather(file);
      expect((await get('/api/v3/m1/territorio?province=41')).headers['last-modified']).toBe(NOW.toUTCString());
    } finally {
      now = NOW;
    }
  });

  it('compresses with brotli or gzip as Accept-Encoding prefers, to the same bytes', async () => {
    const url = `${rt.url}/api/v3/m1/territorio?date=${DAY}`;
    const sizes: Record<string, number> = {};
    for (const accept of ['application/json', 'application/geo+json', 'text/csv', 'image/svg+xml']) {
      const ask = (encoding: string) => rawGet(url, { Authorization: `Bearer ${live}`, Accept: accept, 'Accept-Encoding': encoding });
      const plain = await ask('identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      const gz = await ask('gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      const br = await ask('gzip;q=0.8, br');
      expect(br.headers['content-encoding']).toBe('br');
      expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      const [raw, gzip, brotli] = [plain.body.length, gz.body.length, br.body.length];
      expect(gzip).toBeLessThan(raw / 3);
      expect(brotli).toBeLessThan(raw / 3);
      sizes[accept] = raw;
      sizes[`${accept} gzip`] = gzip;
      sizes[`${accept} br`] = brotli;
    }
    // The figures the README quotes for these 108 municipalities.
    console.info(`territory sizes in bytes (108 municipalities): ${JSON.stringify(sizes)}`);
  });

  it('keeps a whole-area answer per version of the day: a narrower token filters after it, a new ingestion replaces it at once', async () => {
    const url = `${rt.url}/api/v3/m1/territorio?date=${DAY}`;
    const ask = (bearer: string) => rawGet(url, { Authorization: `Bearer ${bearer}`, 'Accept-Encoding': 'gzip' });
    const rowsOf = (body: Buffer) => JSON.parse(gunzipSync(body).toString('utf8')) as TTerritoryReading[];
    const whole = await ask(live);
    const kept = await ask(await token());
    expect(kept.body.equals(whole.body)).toBe(true);
    expect(kept.headers.etag).toBe(whole.headers.etag);
    const narrow = await ask(await token(['risk:read'], { municipios: ['41091'] }));
    expect(rowsOf(narrow.body).map((r) => r.municipio_id)).toEqual(['41091']);
    expect(narrow.headers.etag).not.toBe(whole.headers.etag);
    const before = rowsOf(whole.body).find((r) => r.municipio_id === '41004')!;
    const file = join(shortTempDir(), 'again.csv');
    writeFileSync(file, `municipio_id,date,temp,rh,ws,prec\n41004,${DAY},${before.temp + 3},${before.rh},${before.ws},${before.prec}\n`);
    now = new Date(NOW.getTime() + 60_000);
    try {
      await rt.ingest.weather(file);
      const after = await ask(live);
      expect(after.headers.etag).not.toBe(whole.headers.etag);
      expect(rowsOf(after.body).find((r) => r.municipio_id === '41004')!.temp).toBe(before.temp + 3);
    } finally {
      now = NOW;
    }
  });

  it('answers test tokens the synthetic readings m1 answers them, for every municipality of the area', async () => {
    const test = await token(['risk:read'], { type: 'test' });
    const res = await get('/api/v3/m1/territorio?province=38&date=2025-07-15', test);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(54);
    for (const row of res.body as TTerritoryReading[]) {
      const m1 = await get(`/api/v3/m1?municipio_id=${row.municipio_id}&date_from=2025-07-15&date_to=2025-07-15`, test);
      expect(Object.fromEntries(M1_FIELDS.map((f) => [f, row[f]]))).toEqual(m1.body.data[0]);
    }
    expect(res.headers['last-modified']).toBe(new Date('2025-07-15T10:00:00Z').toUTCString());
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
  });

  it('documents both operations in OpenAPI with their operationIds, media types and 4xx answers', async () => {
    const doc = (await request(rt.server!).get('/openapi.json')).body;
    const territory = doc.paths['/api/v3/m1/territorio'].get;
    const summary = doc.paths['/api/v3/resumen'].get;
    expect([territory.operationId, summary.operationId]).toEqual(['getTerritory', 'getSummary']);
    expect(Object.keys(territory.responses['200'].content).sort()).toEqual(['application/geo+json', 'application/json', 'image/svg+xml', 'text/csv']);
    expect(Object.keys(summary.responses['200'].content).sort()).toEqual(['application/json', 'text/csv']);
    for (const op of [territory, summary]) expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['304', '400', '401', '403', '422', '429', '503']));
    expect(territory.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['community', 'date', 'province']);
  });

  it('answers the documented errors for a bad area, a bad date and a missing scope', async () => {
    expectErrorBody(await get('/api/v3/m1/territorio?province=99'), 400, 'INVALID_PARAM_FORMAT', 'province');
    expectErrorBody(await get('/api/v3/m1/territorio?province=4'), 400, 'INVALID_PARAM_FORMAT', 'province');
    expectErrorBody(await get('/api/v3/m1/territorio?community=20'), 400, 'INVALID_PARAM_FORMAT', 'community');
    expectErrorBody(await get('/api/v3/m1/territorio?province=41&community=01'), 400, 'INVALID_PARAM_FORMAT', 'community');
    expectErrorBody(await get('/api/v3/m1/territorio?date=2025-02-30'), 400, 'INVALID_PARAM_FORMAT', 'date');
    expectErrorBody(await get('/api/v3/m1/territorio?date=2025-07-21'), 422, 'DATE_OUT_OF_RANGE', 'date');
    expectErrorBody(await get('/api/v3/m1/territorio?date=2014-12-31'), 422, 'DATE_OUT_OF_RANGE', 'date');
    expectErrorBody(await get('/api/v3/m1/territorio', await token(['ecosystem:read'])), 403, 'INSUFFICIENT_SCOPE', null);
    expectErrorBody(await request(rt.server!).get('/api/v3/m1/territorio'), 401, 'MISSING_AUTH_HEADER', null);
  });
});
