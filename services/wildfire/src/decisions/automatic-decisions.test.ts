import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, clearRedisPrefix, REDIS_URL, shortTempDir, storeReading, testConfig, uniquePrefix } from '../__tests__/support';
import { runCli } from '../cli';
import { addDays, eachDay } from '../calendar';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { highRuns } from './automatic-decisions';
import { decisions } from './tables';

// Noon weather whose FWI the engine puts far above 38 (H, from the first day on) or at 0 (R: 40 mm of rain, 95 %, calm),
// as checked by running the series through the engine; a hot day right after rain is still above 38.
const H = '38,12,35,0';
const R = '14,95,0,40';
const HEADER = 'municipio_id,date,temp,rh,ws,prec';

describe('runs of days at or above FWI 38', () => {
  const day = (date: string, fwi: number) => ({ date, fwi });
  it('are consecutive dates at or above the threshold; a lower day or a missing day ends a run', () => {
    expect(
      highRuns([day('2025-07-01', 38), day('2025-07-02', 50), day('2025-07-03', 37.99), day('2025-07-04', 40), day('2025-07-06', 41), day('2025-07-07', 60)]),
    ).toEqual([
      { from: '2025-07-01', to: '2025-07-02' },
      { from: '2025-07-04', to: '2025-07-04' },
      { from: '2025-07-06', to: '2025-07-07' },
    ]);
    expect(highRuns([day('2025-07-01', 10)])).toEqual([]);
  });
});

/** Automatic decisions as weather is ingested (Postgres), and over GET /api/v3/decisiones (live and test tokens). */
describe('automatic decisions', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const prefix = uniquePrefix();
  let now = new Date('2025-08-10T10:00:00Z');
  const dir = shortTempDir();
  let fileNo = 0;
  const ingest = async (rows: [string, string, string][]) => {
    const path = join(dir, `w${fileNo++}.csv`);
    writeFileSync(path, [HEADER, ...rows.map(([code, date, w]) => `${code},${date},${w}`)].join('\n'));
    return rt.ingest.weather(path);
  };
  const days = (code: string, from: string, pattern: string) => [...pattern].map((c, i) => [code, addDays(from, i), c === 'H' ? H : R] as [string, string, string]);
  const automatic = (code: string) =>
    rt.database.db
      .select({ id: decisions.decisionId, from: decisions.dateFrom, to: decisions.dateTo, createdAt: decisions.createdAt, updatedAt: decisions.updatedAt })
      .from(decisions)
      .where(eq(decisions.scopeCode, code))
      .orderBy(asc(decisions.dateFrom));
  const spans = async (code: string) => (await automatic(code)).map((d) => [d.from, d.to]);
  const token = async (type: 'live' | 'test') => (await rt.tokens.create({ account: 'ayto', type, scopes: ['risk:read'] })).token;
  const get = async (query: string, type: 'live' | 'test') =>
    request(rt.server!)
      .get(`/api/v3/decisiones?${query}`)
      .set('Authorization', `Bearer ${await token(type)}`);

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_automatic_decisions');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, RATE_LIMIT_PREFIX: prefix }), 'api', { clock: () => now });
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    await clearRedisPrefix(prefix);
  });

  describe('as weather is ingested', () => {
    let first: Awaited<ReturnType<typeof automatic>>[number];

    it('records one alert per run, for every municipality of the file at once', async () => {
      await ingest([...days('41091', '2025-07-01', 'HHHHH'), ...days('28079', '2025-07-01', 'HHRHH')]);
      expect(await spans('41091')).toEqual([['2025-07-01', '2025-07-05']]);
      expect(await spans('28079')).toEqual([
        ['2025-07-01', '2025-07-02'],
        ['2025-07-04', '2025-07-05'],
      ]);
      const [row] = await rt.database.db.select().from(decisions).where(eq(decisions.scopeCode, '41091'));
      expect(row).toMatchObject({
        type: 'alert',
        origin: 'automatic',
        scopeLevel: 'municipality',
        legalBasis: 'Ley 43/2003 de Montes, art. 48.6',
        sourceUrl: 'https://www.boe.es/buscar/act.php?id=BOE-A-2003-21339',
      });
      expect(row!.measures).toHaveLength(6);
      first = (await automatic('41091'))[0]!;
    });

    it('extends a run that grows at its end, keeping its id and created_at', async () => {
      now = new Date('2025-08-11T10:00:00Z');
      await ingest(days('41091', '2025-07-06', 'HHH'));
      const [extended] = await automatic('41091');
      expect(extended).toMatchObject({ id: first.id, from: '2025-07-01', to: '2025-07-08', createdAt: first.createdAt });
      expect(extended!.updatedAt).toEqual(now);
    });

    it('starts a new decision after a day below 38', async () => {
      await ingest(days('41091', '2025-07-09', 'RHHH'));
      expect(await spans('41091')).toEqual([
        ['2025-07-01', '2025-07-08'],
        ['2025-07-10', '2025-07-12'],
      ]);
      expect((await automatic('41091'))[0]!.id).toBe(first.id);
    });

    it('merges the two when the gap day is corrected, the first keeping its id', async () => {
      await ingest(days('41091', '2025-07-09', 'H'));
      const merged = await automatic('41091');
      expect(merged.map((d) => [d.id, d.from, d.to])).toEqual([[first.id, '2025-07-01', '2025-07-12']]);
    });

    it('splits a run when a day in it is corrected below 38', async () => {
      await ingest(days('41091', '2025-07-05', 'R'));
      const split = await automatic('41091');
      expect(split.map((d) => [d.from, d.to])).toEqual([
        ['2025-07-01', '2025-07-04'],
        ['2025-07-06', '2025-07-12'],
      ]);
      expect(split[0]!.id).toBe(first.id);
      expect(split[1]!.id).not.toBe(first.id);
    });

    it('removes a decision whose days are no longer high, and leaves other municipalities alone', async () => {
      await ingest(days('41091', '2025-07-06', 'RRRRRRR'));
      expect(await spans('41091')).toEqual([['2025-07-01', '2025-07-04']]);
      expect(await spans('28079')).toHaveLength(2);
    });

    it('changes nothing when the same file is loaded again', async () => {
      const before = await automatic('41091');
      now = new Date('2025-08-12T10:00:00Z');
      await ingest(days('41091', '2025-07-06', 'RRRRRRR'));
      expect(await automatic('41091')).toEqual(before);
    });

    it('are listed by GET /api/v3/decisiones for live tokens with origin "automatic" and their first day’s class', async () => {
      const res = await get('municipio_id=41091', 'live');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        expect.objectContaining({
          decision_id: first.id,
          type: 'alert',
          origin: 'automatic',
          scope: { level: 'municipality', code: '41091', name: 'Sevilla' },
          date_from: '2025-07-01',
          date_to: '2025-07-04',
          legal_basis: 'Ley 43/2003 de Montes, art. 48.6',
          danger_class: expect.stringMatching(/^(very_high|extreme)$/),
          created_at: first.createdAt.toISOString(),
        }),
      ]);
    });
  });

  describe('`wildfire decisions rebuild-automatic`', () => {
    it('derives the decisions of readings stored without them, and changes nothing the second time', async () => {
      // Readings written straight to the table, as before automatic decisions existed.
      for (const [date, fwi] of [['2025-07-01', 40], ['2025-07-02', 38], ['2025-07-03', 10], ['2025-07-04', 55]] as const) await storeReading(rt, '08019', date, fwi);
      expect(await spans('08019')).toEqual([]);
      const before41091 = await automatic('41091');
      const env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent', DATA_DIR: dir };
      const first = captureOutput();
      expect(await runCli(['decisions', 'rebuild-automatic', '--json'], first.out, env)).toBe(0);
      expect(JSON.parse(first.stdout.join(''))).toEqual({ municipalities: 3, created: 2, updated: 0, removed: 0 });
      expect(await spans('08019')).toEqual([
        ['2025-07-01', '2025-07-02'],
        ['2025-07-04', '2025-07-04'],
      ]);
      expect(await automatic('41091')).toEqual(before41091);
      const again = captureOutput();
      expect(await runCli(['decisions', 'rebuild-automatic'], again.out, env)).toBe(0);
      expect(again.stdout.join('\n')).toBe('Automatic decisions of 3 municipalities derived again: 0 new, 0 changed, 0 removed.');
    });
  });

  describe('from the runs the FWI loop gathers during ingestion', () => {
    it('are the decisions a rebuild from the stored readings derives: corrections, series recomputed after them, a file before stored days', async () => {
      const codes = ['46250', '50297', '29067'];
      // Stored days first, then a correction in the middle (the stored days after it are recomputed),
      // then days before the stored ones whose run runs into them, then a gap filled.
      await ingest(codes.flatMap((code, i) => days(code, '2025-06-05', ['HHRHHHHRRHHH', 'RHHHRHHHHHHR', 'HHHHHHRRHHHH'][i]!)));
      await ingest(codes.flatMap((code, i) => days(code, '2025-06-09', ['HH', 'R', 'HRH'][i]!)));
      await ingest(codes.flatMap((code, i) => days(code, '2025-05-30', ['HHHHHH', 'RRRHHH', 'HHH'][i]!)));
      await ingest([...days('46250', '2025-06-17', 'HH'), ...days('50297', '2025-06-18', 'RH')]);
      const gathered = await Promise.all(codes.map(spans));
      expect(gathered.every((runs) => runs.length > 0)).toBe(true);
      expect(await rt.rebuildAutomaticDecisions()).toMatchObject({ created: 0, updated: 0, removed: 0 });
      expect(await Promise.all(codes.map(spans))).toEqual(gathered);
    });
  });

  describe('for test tokens', () => {
    it('derives whole runs of the synthetic series for the span asked, never the live ones, the same each time', async () => {
      const query = 'municipio_id=41091&date_from=2025-07-10&date_to=2025-07-31';
      const res = await get(query, 'test');
      expect(res.status).toBe(200);
      const synthetic: { decision_id: string; date_from: string; date_to: string }[] = res.body.data.filter((d: { origin: string }) => d.origin === 'automatic');
      expect(synthetic.length).toBeGreaterThan(0);
      const live = (await automatic('41091')).map((d) => d.id);
      expect(live).toHaveLength(1);
      for (const d of synthetic) expect(live).not.toContain(d.decision_id);
      expect((await get(query, 'test')).body).toEqual(res.body);

      // Each is a whole run of the synthetic m1 series: every day at or above 38, the days around it below.
      const test = await token('test');
      const m1 = await request(rt.server!).get('/api/v3/m1?municipio_id=41091&date_from=2025-05-01&date_to=2025-08-12').set('Authorization', `Bearer ${test}`);
      const fwi = new Map<string, number>(m1.body.data.map((r: { date: string; fwi: number }) => [r.date, r.fwi]));
      for (const d of synthetic) {
        expect(d).toMatchObject({ type: 'alert', scope: { level: 'municipality', code: '41091' }, measures: expect.any(Array), legal_basis: 'Ley 43/2003 de Montes, art. 48.6' });
        expect(d.date_to >= '2025-07-10' && d.date_from <= '2025-07-31').toBe(true);
        for (const date of eachDay(d.date_from, d.date_to)) expect([date, fwi.get(date)! >= 38]).toEqual([date, true]);
        expect(fwi.get(addDays(d.date_from, -1))!).toBeLessThan(38);
        if (d.date_to < '2025-08-12') expect(fwi.get(addDays(d.date_to, 1))!).toBeLessThan(38);
      }
      // The runs found are every run of the span.
      const expected = highRuns([...fwi].map(([date, f]) => ({ date, fwi: f }))).filter((r) => r.to >= '2025-07-10' && r.from <= '2025-07-31');
      expect(synthetic.map((d) => ({ from: d.date_from, to: d.date_to })).reverse()).toEqual(expected);
    });

    it('take decisions on the synthetic forecast days too, marked forecast, when the history is not bounded by date_to', async () => {
      const test = await token('test');
      const forecast = await request(rt.server!).get('/api/v3/m1/forecast?municipio_id=41091').set('Authorization', `Bearer ${test}`);
      // The runs of consecutive forecast days at very_high or extreme.
      const expected: [string, string][] = [];
      for (const d of forecast.body.days as { date: string; danger_class: string }[]) {
        if (d.danger_class !== 'very_high' && d.danger_class !== 'extreme') continue;
        const last = expected[expected.length - 1];
        if (last && addDays(last[1], 1) === d.date) last[1] = d.date;
        else expected.push([d.date, d.date]);
      }
      // Sevilla in mid-August: the synthetic next six days reach very_high.
      expect(expected.length).toBeGreaterThan(0);
      const res = await get('municipio_id=41091', 'test');
      const marked = (res.body.data as { date_from: string; date_to: string; origin: string; forecast: boolean }[]).filter((d) => d.forecast);
      expect(marked.map((d) => [d.date_from, d.date_to, d.origin])).toEqual([...expected].reverse().map(([from, to]) => [from, to, 'automatic']));
      const classOf = new Map((forecast.body.days as { date: string; danger_class: string }[]).map((d) => [d.date, d.danger_class]));
      for (const d of marked as unknown as { date_from: string; danger_class: string }[]) expect(d.danger_class).toBe(classOf.get(d.date_from));
      expect((res.body.data as { forecast: boolean; date_from: string }[]).filter((d) => !d.forecast).every((d) => d.date_from <= '2025-08-10')).toBe(true);
      expect((await get('municipio_id=41091&date_to=2025-08-10', 'test')).body.data.filter((d: { forecast: boolean }) => d.forecast)).toEqual([]);
      expect((await get('municipio_id=41091', 'test')).body).toEqual(res.body);
    });
  });
});
