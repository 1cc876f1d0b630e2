import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { storeReading, testConfig } from '../__tests__/support';
import { addDays, daysBetween } from '../calendar';
import { forecastDays } from '../forecast/tables';
import { startWildfire, type WildfireRuntime } from '../runtime';

/** 17:00 in Madrid on 16 July 2025. */
const NOW = new Date('2025-07-16T15:00:00Z');

type Day = { date: string; lead_days: number; danger_class: string; fwi: number; risk_label: string };
const m3Days = (days: Day[]) => days.map(({ date, lead_days, danger_class, fwi, risk_label }) => ({ date, lead_days, danger_class, fwi, risk_label }));

/** m3's and framing's `forecast` sections, from the stored forecast (live tokens) and the synthetic one (test tokens), on Postgres. */
describe('the forecast section of m3 and framing', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let live: string;
  let test: string;
  const get = (path: string, token: string) => request(rt.server!).get(path).set('Authorization', `Bearer ${token}`);

  /** A municipality's stored forecast as the importer leaves it: one row per day, lead days from the issue day. */
  async function storeForecast(municipioId: string, issuedOn: string, fwis: number[]): Promise<void> {
    const rows = fwis.map((fwi, i) => {
      const date = addDays(issuedOn, i + 1);
      return {
        municipioId,
        date,
        issuedAt: `${issuedOn}T12:12:00Z`,
        issuedOn,
        leadDays: daysBetween(issuedOn, date),
        temp: 33,
        rh: 20,
        ws: 15,
        prec: 0,
        precFrom: 'probability' as const,
        ffmc: 92,
        dmc: 45,
        dc: 320,
        isi: 10,
        bui: 70,
        fwi,
        dsr: 5,
      };
    });
    await rt.database.db.insert(forecastDays).values(rows);
  }

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_forecast_section');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent' }), 'api', { clock: () => NOW });
    for (const [code, fwi] of [['28079', 30], ['41091', 12], ['01001', 20]] as const) {
      await storeReading(rt, code, '2025-07-15', fwi);
      await storeReading(rt, code, '2025-07-16', fwi);
    }
    // Madrid: today's run, D+1…D+6 (high, very high, extreme, moderate, low, very low).
    await storeForecast('28079', '2025-07-16', [25, 40, 55, 15, 8, 3]);
    // Seville: yesterday's run, still the stored one (today's has not reached it): D+1 is today.
    await storeForecast('41091', '2025-07-15', [30, 45, 12, 12, 12, 12]);
    const scopes = ['risk:read', 'reports:read'] as const;
    live = (await rt.tokens.create({ account: 'ayto', type: 'live', scopes: [...scopes] })).token;
    test = (await rt.tokens.create({ account: 'ayto', type: 'test', scopes: [...scopes] })).token;
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it('gives a live token the stored days in both sections, as GET /api/v3/m1/forecast answers them', async () => {
    const forecast = await get('/api/v3/m1/forecast?municipio_id=28079', live);
    expect(forecast.status).toBe(200);
    const m3 = await get('/api/v3/m3?municipio_id=28079', live);
    expect(m3.status).toBe(200);
    expect(m3.body.date).toBe('2025-07-16');
    expect(m3.body.forecast).toEqual({ days: m3Days(forecast.body.days) });
    expect(m3.body.forecast.days).toEqual([
      { date: '2025-07-17', lead_days: 1, danger_class: 'high', fwi: 25, risk_label: 'HIGH' },
      { date: '2025-07-18', lead_days: 2, danger_class: 'very_high', fwi: 40, risk_label: 'HIGH' },
      { date: '2025-07-19', lead_days: 3, danger_class: 'extreme', fwi: 55, risk_label: 'HIGH' },
      { date: '2025-07-20', lead_days: 4, danger_class: 'moderate', fwi: 15, risk_label: 'MEDIUM' },
      { date: '2025-07-21', lead_days: 5, danger_class: 'low', fwi: 8, risk_label: 'LOW' },
      { date: '2025-07-22', lead_days: 6, danger_class: 'very_low', fwi: 3, risk_label: 'LOW' },
    ]);
    // An earlier day: the same coming days.
    expect((await get('/api/v3/m3?municipio_id=28079&date=2025-07-15', live)).body.forecast).toEqual(m3.body.forecast);

    const framing = await get('/api/v1/framing?municipio_id=28079', live);
    expect(framing.status).toBe(200);
    expect(framing.body.forecast.days).toEqual(m3.body.forecast.days.map(({ date, lead_days, danger_class }: Day) => ({ date, lead_days, danger_class })));
    expect(framing.body.forecast.text).toMatch(/^Mañana: alto; pasado mañana: muy alto; .*: extremo; .*: moderado; .*: bajo; .*: muy bajo\.$/);
    expect((await get('/api/v1/framing?municipio_id=28079&lang=en', live)).body.forecast.text).toMatch(/^Tomorrow: high; the day after tomorrow: very high; /);
  });

  it('leaves out the days not after the assessed day; framing counts lead days from today, m3 as the forecast does', async () => {
    const m3 = await get('/api/v3/m3?municipio_id=41091', live);
    expect(m3.status).toBe(200);
    // Issued yesterday: today (D+1) is not a coming day.
    expect(m3.body.forecast.days.map((d: Day) => [d.date, d.lead_days, d.danger_class])).toEqual([
      ['2025-07-17', 2, 'very_high'],
      ['2025-07-18', 3, 'moderate'],
      ['2025-07-19', 4, 'moderate'],
      ['2025-07-20', 5, 'moderate'],
      ['2025-07-21', 6, 'moderate'],
    ]);
    const framing = await get('/api/v1/framing?municipio_id=41091', live);
    expect(framing.body.forecast.days.map((d: Day) => [d.date, d.lead_days])).toEqual([
      ['2025-07-17', 1],
      ['2025-07-18', 2],
      ['2025-07-19', 3],
      ['2025-07-20', 4],
      ['2025-07-21', 5],
    ]);
    expect(framing.body.forecast.text).toMatch(/^Mañana: muy alto; pasado mañana: moderado; /);
  });

  it('has no forecast section, and no error, where no forecast is stored', async () => {
    expect((await get('/api/v3/m1/forecast?municipio_id=01001', live)).status).toBe(404);
    const m3 = await get('/api/v3/m3?municipio_id=01001', live);
    expect(m3.status).toBe(200);
    expect(m3.body).not.toHaveProperty('forecast');
    const framing = await get('/api/v1/framing?municipio_id=01001', live);
    expect(framing.status).toBe(200);
    expect(framing.body).not.toHaveProperty('forecast');
  });

  it('gives a test token the synthetic days of GET /api/v3/m1/forecast', async () => {
    const forecast = await get('/api/v3/m1/forecast?municipio_id=01001', test);
    expect(forecast.body.source).toBe('synthetic');
    const m3 = await get('/api/v3/m3?municipio_id=01001', test);
    expect(m3.status).toBe(200);
    expect(m3.body.forecast).toEqual({ days: m3Days(forecast.body.days) });
    expect(m3.body.forecast.days.map((d: Day) => [d.date, d.lead_days])).toEqual(
      ['2025-07-17', '2025-07-18', '2025-07-19', '2025-07-20', '2025-07-21', '2025-07-22'].map((d, i) => [d, i + 1]),
    );
    const framing = await get('/api/v1/framing?municipio_id=01001', test);
    expect(framing.body.forecast.days).toEqual(forecast.body.days.map(({ date, lead_days, danger_class }: Day) => ({ date, lead_days, danger_class })));
  });

  it('documents the m3 section as optional in the OpenAPI document', async () => {
    const doc = (await request(rt.server!).get('/openapi.json')).body;
    const m3 = doc.components.schemas.M3DecisionSupport;
    expect(m3.properties.forecast.properties.days.items.required).toEqual(['date', 'lead_days', 'danger_class', 'fwi', 'risk_label']);
    expect(m3.required).not.toContain('forecast');
    expect(m3.required).toEqual(expect.arrayContaining(['municipio_id', 'fwi', 'danger_class', 'measures', 'sources']));
  });
});
