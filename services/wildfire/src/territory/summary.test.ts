import { parse } from 'csv-parse/sync';
import { expectErrorBody } from '../__tests__/support';
import { DANGER_CLASS_CODES } from '../decision-support/danger-classes';
import { DAY, startTerritoryFixture, type TerritoryFixture } from './__tests__/territory-fixture';
import type { TSummaryArea, TTerritoryReading } from './schemas';

/** GET /api/v3/resumen against Postgres, checked against the territory answer of the same token and day (territory-fixture.ts). */
describe('GET /api/v3/resumen', () => {
  let fx: TerritoryFixture;
  const get: TerritoryFixture['get'] = (...args) => fx.get(...args);

  beforeAll(async () => {
    fx = await startTerritoryFixture('wildfire_summary');
  });

  afterAll(async () => {
    await fx?.close();
  });

  it('summarises per province and per community exactly what the territory answers', async () => {
    const territory = (await get(`/api/v3/m1/territorio?date=${DAY}`)).body as TTerritoryReading[];
    for (const level of ['province', 'community'] as const) {
      const res = await get(`/api/v3/resumen?date=${DAY}&level=${level}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ date: DAY, level, source: 'observed' });
      const areas = res.body.areas as TSummaryArea[];
      const codeOf = (r: TTerritoryReading) => (level === 'province' ? r.province_code : r.community_code);
      expect(areas.map((a) => a.code)).toEqual([...new Set(territory.map(codeOf))].sort());
      for (const area of areas) {
        const members = territory.filter((r) => codeOf(r) === area.code);
        expect(area.municipalities).toBe(members.length);
        for (const c of DANGER_CLASS_CODES) expect([area.code, c, area.danger_classes[c]]).toEqual([area.code, c, members.filter((m) => m.danger_class === c).length]);
        const fwis = members.map((m) => m.fwi);
        expect(area.max_fwi).toBe(Math.max(...fwis));
        expect(members.find((m) => m.municipio_id === area.max_fwi_municipality.municipio_id)!.fwi).toBe(area.max_fwi);
        expect(area.mean_fwi).toBeCloseTo(fwis.reduce((x, y) => x + y, 0) / fwis.length, 4);
        const high = members.filter((m) => ['high', 'very_high', 'extreme'].includes(m.danger_class)).length;
        expect(area.share_high_or_above).toBeCloseTo(high / members.length, 4);
        const expectedTop = [...members].sort((x, y) => y.fwi - x.fwi || x.municipio_id.localeCompare(y.municipio_id)).slice(0, 10);
        expect(area.top.map((t) => t.municipio_id)).toEqual(expectedTop.map((m) => m.municipio_id));
      }
    }
    const sevilla = (await get(`/api/v3/resumen?date=${DAY}&province=41`)).body.areas as TSummaryArea[];
    expect(sevilla).toHaveLength(1);
    expect(sevilla[0]).toMatchObject({ code: '41', name: 'Sevilla', municipalities: 106, max_fwi: 61.5, max_fwi_municipality: { municipio_id: '41091', municipality: 'Sevilla' } });
    // Andalucía's época de peligro runs 1 June to 15 October (README “Épocas de peligro”): in force on 19 July.
    expect(sevilla[0]!.epocas_in_force).toEqual([{ community_code: '01', name: expect.any(String), from: '2025-06-01', to: '2025-10-15' }]);
  });

  it('answers the summary as CSV, one line per area, and conditionally', async () => {
    const json = (await get(`/api/v3/resumen?date=${DAY}&level=community`)).body as { areas: TSummaryArea[] };
    const res = await get(`/api/v3/resumen?date=${DAY}&level=community`).set('Accept', 'text/csv').set('Accept-Encoding', 'identity');
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    const records = parse(res.text, { columns: true }) as Record<string, string>[];
    expect(records.map((r) => [r.code, r.name, Number(r.municipalities), Number(r.max_fwi), Number(r.extreme)])).toEqual(
      json.areas.map((a) => [a.code, a.name, a.municipalities, a.max_fwi, a.danger_classes.extreme]),
    );
    expect(records[0]!.top!.split(' ')).toHaveLength(Math.min(10, json.areas[0]!.municipalities));
    const again = await get(`/api/v3/resumen?date=${DAY}&level=community`).set('Accept', 'text/csv').set('Accept-Encoding', 'identity').set('If-None-Match', res.headers.etag!);
    expect(again.status).toBe(304);
    expectErrorBody(await get('/api/v3/resumen?level=municipality'), 400, 'INVALID_PARAM_FORMAT', 'level');
  });
});
