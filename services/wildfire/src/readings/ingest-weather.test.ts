import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { captureOutput, testConfig } from '../__tests__/support';
import { eachDay, monthOf } from '../calendar';
import { runCli } from '../cli';
import { computeSeries, overwinterDc, WINTER_RULES } from '../fwi';
import { seededRandom, uniform } from '../synthetic/seeded-random';
import { PLAIN_NOMENCLATOR } from '../municipalities/__fixtures__/nomenclator-sample';
import { municipalities } from '../municipalities/tables';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { readings } from './tables';

const HEADER = 'municipio_id,date,temp,rh,ws,prec';

/** Plausible summer weather for each day, drawn from a fixed seed. */
function weather(code: string, days: string[], seed = 7) {
  const random = seededRandom(seed);
  return days.map((date) => ({
    code,
    date,
    temp: Math.round(uniform(random, 18, 38) * 10) / 10,
    rh: Math.round(uniform(random, 12, 80)),
    ws: Math.round(uniform(random, 0, 35) * 10) / 10,
    prec: random() < 0.15 ? Math.round(uniform(random, 0.2, 25) * 10) / 10 : 0,
  }));
}
type Day = ReturnType<typeof weather>[number];
const csvOf = (days: Day[]) => [HEADER, ...days.map((d) => `${d.code},${d.date},${d.temp},${d.rh},${d.ws},${d.prec}`)].join('\n') + '\n';

describe('wildfire ingest weather / municipalities against Postgres', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  let env: NodeJS.ProcessEnv;
  const dir = mkdtempSync(join(tmpdir(), 'wf-ingest-'));
  let fileNo = 0;
  const file = (text: string | Buffer) => {
    const path = join(dir, `f${fileNo++}.csv`);
    writeFileSync(path, text);
    return path;
  };
  const cli = async (...argv: string[]) => {
    const output = captureOutput();
    const code = await runCli(argv, output.out, env);
    return { code, stdout: output.stdout.join('\n'), stderr: output.stderr.join('\n') };
  };
  const stored = (code: string) => rt.database.db.select().from(readings).where(eq(readings.municipioId, code)).orderBy(asc(readings.date));
  const count = async () => (await rt.database.db.select({ n: sql<number>`count(*)::int` }).from(readings))[0]!.n;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_ingest');
    env = { WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent' };
    rt = await startWildfire(testConfig(env), 'api');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores a reading per row with the FWI of the reference engine, the live m1 reading the latest', async () => {
    const days = weather('28079', eachDay('2024-06-01', '2024-06-30'));
    const result = await cli('ingest', 'weather', file(csvOf(days)), '--json');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(result.stdout)).toEqual({
      rows: 30,
      municipalities: 1,
      first_date: '2024-06-01',
      last_date: '2024-06-30',
      computed: 30,
      inserted: 30,
      updated: 0,
      unchanged: 0,
      restarts: 0,
      spring_starts: 0,
    });
    const expected = computeSeries(days.map((d) => ({ ...d, lat: 40.42, month: monthOf(d.date) })));
    const rows = await stored('28079');
    expect(rows.map((r) => r.date)).toEqual(days.map((d) => d.date));
    rows.forEach((r, i) => {
      expect(r.fwi).toBeCloseTo(expected[i]!.fwi, 10);
      expect(r.dc).toBeCloseTo(expected[i]!.dc, 10);
    });
    const { token } = await rt.tokens.create({ account: 'acme', type: 'live', scopes: ['risk:read'] });
    const res = await request(rt.server!).get('/api/v3/m1?municipio_id=28079').set('Authorization', `Bearer ${token}`);
    expect(res.body).toMatchObject({ date: '2024-06-30', source: 'observed', fwi: Number(expected[29]!.fwi.toFixed(4)) });
  });

  it('changes nothing when the same file is loaded again', async () => {
    const path = file(csvOf(weather('41091', eachDay('2024-07-01', '2024-07-20'))));
    expect((await cli('ingest', 'weather', path)).code).toBe(0);
    const before = await stored('41091');
    const again = await cli('ingest', 'weather', path, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ computed: 20, inserted: 0, updated: 0, unchanged: 20 });
    expect(await stored('41091')).toEqual(before);
  });

  it('continues a series from the last stored day: two files give what one file gives', async () => {
    const days = eachDay('2024-05-01', '2024-06-15');
    await cli('ingest', 'weather', file(csvOf(weather('15030', days.slice(0, 20)))));
    const second = await cli('ingest', 'weather', file(csvOf(weather('15030', days.slice(20), 99))), '--json');
    expect(JSON.parse(second.stdout)).toMatchObject({ rows: days.length - 20, inserted: days.length - 20 });
    const whole = [...weather('15030', days.slice(0, 20)), ...weather('15030', days.slice(20), 99)];
    const expected = computeSeries(whole.map((d) => ({ ...d, lat: 43.37, month: monthOf(d.date) })));
    const rows = await stored('15030');
    expect(rows.map((r) => r.dc)).toEqual(expected.map((e) => expect.closeTo(e.dc, 9)));
    expect(rows.map((r) => r.fwi)).toEqual(expected.map((e) => expect.closeTo(e.fwi, 9)));
  });

  it('recomputes the stored days after a corrected day, since their codes carry over from it', async () => {
    const days = weather('08019', eachDay('2024-08-01', '2024-08-10'));
    await cli('ingest', 'weather', file(csvOf(days)));
    const before = await stored('08019');
    const corrected = { ...days[2]!, prec: 40 };
    const result = JSON.parse((await cli('ingest', 'weather', file(csvOf([corrected])), '--json')).stdout);
    expect(result).toMatchObject({ rows: 1, computed: 8, inserted: 0, updated: 8 });
    const after = await stored('08019');
    expect(after.slice(0, 2)).toEqual(before.slice(0, 2));
    expect(after[2]!.ffmc).toBeLessThan(before[2]!.ffmc);
    expect(after[9]!.dc).not.toBe(before[9]!.dc);
  });

  it('restarts FFMC and DMC after a gap of more than 7 days and carries the DC over it; a shorter gap carries everything', async () => {
    const days = [...weather('46250', eachDay('2024-07-01', '2024-07-05')), ...weather('46250', eachDay('2024-07-10', '2024-07-12'), 3), ...weather('46250', ['2024-07-25'], 4)];
    const result = JSON.parse((await cli('ingest', 'weather', file(csvOf(days)), '--json')).stdout);
    expect(result).toMatchObject({ restarts: 1, spring_starts: 0 });
    const rows = await stored('46250');
    const afterGap = computeSeries([{ ...days[8]!, lat: 39.47, month: 7 }], { ffmc: 85, dmc: 6, dc: rows[7]!.dc })[0]!;
    expect([rows[8]!.ffmc, rows[8]!.dmc, rows[8]!.dc]).toEqual([afterGap.ffmc, afterGap.dmc, afterGap.dc].map((v) => expect.closeTo(v, 10)));
    const carried = computeSeries([{ ...days[5]!, lat: 39.47, month: 7 }], { ffmc: rows[4]!.ffmc, dmc: rows[4]!.dmc, dc: rows[4]!.dc })[0]!;
    expect(rows[5]!.dc).toBeCloseTo(carried.dc, 10);
  });

  it('stops a Castilla y León series for winter and starts the season on 1 March from the overwintered DC, file after file as in one file', async () => {
    const fall = weather('47186', eachDay('2024-06-01', '2024-11-30'), 21);
    // A dry winter: a millimetre on the days the generator makes wet.
    const winter = weather('47186', eachDay('2024-12-01', '2025-02-28'), 22).map((d) => ({ ...d, temp: Math.min(d.temp, 12), prec: d.prec > 0 ? 1 : 0 }));
    const spring = weather('47186', eachDay('2025-03-01', '2025-03-10'), 23);
    for (const part of [fall, winter]) expect((await cli('ingest', 'weather', file(csvOf(part)))).code).toBe(0);
    const last = JSON.parse((await cli('ingest', 'weather', file(csvOf(spring)), '--json')).stdout);
    // The spring file is computed from the winter's first day: 90 stored days, unchanged, then 10 new ones.
    expect(last).toMatchObject({ rows: 10, computed: 100, inserted: 10, updated: 0, unchanged: 90, spring_starts: 1 });

    const rows = await stored('47186');
    const byDate = new Map(rows.map((r) => [r.date, r]));
    const rw = winter.reduce((sum, d) => sum + d.prec, 0);
    const dcs = overwinterDc({ dcf: byDate.get('2024-11-30')!.dc, rw, ...WINTER_RULES['07']! });
    const [located] = await rt.database.db.select({ lat: municipalities.lat }).from(municipalities).where(eq(municipalities.ineCode, '47186'));
    const march1 = computeSeries([{ ...spring[0]!, lat: located?.lat ?? 41.65, month: 3 }], { ffmc: 85, dmc: 6, dc: dcs })[0]!;
    expect(byDate.get('2025-03-01')!.dc).toBeCloseTo(march1.dc, 9);
    // The fall's drought survives the dry winter: far from the standard start of 15.
    expect(byDate.get('2024-11-30')!.dc).toBeGreaterThan(150);
    expect(byDate.get('2025-03-01')!.dc).toBeGreaterThan(100);

    // A corrected winter day, loaded alone, is computed from the winter's first day: its rain reaches the spring DC.
    const wetter = { ...winter[45]!, prec: 60 };
    const corrected = JSON.parse((await cli('ingest', 'weather', file(csvOf([wetter])), '--json')).stdout);
    expect(corrected).toMatchObject({ rows: 1, computed: 100, spring_starts: 1 });
    const after = new Map((await stored('47186')).map((r) => [r.date, r]));
    const wetterDcs = overwinterDc({ dcf: byDate.get('2024-11-30')!.dc, rw: rw - winter[45]!.prec + 60, ...WINTER_RULES['07']! });
    const wetterMarch1 = computeSeries([{ ...spring[0]!, lat: located?.lat ?? 41.65, month: 3 }], { ffmc: 85, dmc: 6, dc: wetterDcs })[0]!;
    expect(after.get('2025-03-01')!.dc).toBeCloseTo(wetterMarch1.dc, 9);
    expect(after.get('2025-03-01')!.dc).toBeLessThan(byDate.get('2025-03-01')!.dc);
    // Days before the winter are left alone.
    expect(after.get('2024-11-30')).toEqual(byDate.get('2024-11-30'));

    // The same weather in one file gives the same readings.
    await rt.database.db.delete(readings).where(eq(readings.municipioId, '47186'));
    const whole = JSON.parse((await cli('ingest', 'weather', file(csvOf([...fall, ...winter, ...spring])), '--json')).stdout);
    expect(whole).toMatchObject({ spring_starts: 1 });
    expect((await stored('47186')).map((r) => r.dc)).toEqual(rows.map((r) => expect.closeTo(r.dc, 9)));
  });

  it('uses the 10–30°N day-length table in the Canary Islands', async () => {
    const days = weather('38038', eachDay('2024-06-01', '2024-06-10'));
    await cli('ingest', 'weather', file(csvOf(days)));
    const canary = computeSeries(days.map((d) => ({ ...d, lat: 28.47, month: 6 })));
    const mainland = computeSeries(days.map((d) => ({ ...d, lat: 40, month: 6 })));
    const rows = await stored('38038');
    expect(rows[9]!.dmc).toBeCloseTo(canary[9]!.dmc, 10);
    expect(rows[9]!.dmc).not.toBeCloseTo(mainland[9]!.dmc, 2);
  });

  it('takes the rows of a municipality that are not contiguous nor in date order: the same readings as the sorted file', async () => {
    const a = weather('03014', eachDay('2024-04-01', '2024-04-20'), 11);
    const b = weather('03065', eachDay('2024-04-01', '2024-04-20'), 12);
    // Interleaved municipalities, each one's days reversed.
    const shuffled = a.flatMap((day, i) => [a[a.length - 1 - i]!, b[b.length - 1 - i]!]);
    const result = JSON.parse((await cli('ingest', 'weather', file(csvOf(shuffled)), '--json')).stdout);
    expect(result).toMatchObject({ rows: 40, municipalities: 2, first_date: '2024-04-01', last_date: '2024-04-20', computed: 40, inserted: 40 });
    const expected = computeSeries(a.map((d) => ({ ...d, lat: 38.35, month: monthOf(d.date) })));
    const rows = await stored('03014');
    expect(rows.map((r) => r.date)).toEqual(a.map((d) => d.date));
    expect(rows.map((r) => r.dc)).toEqual(expected.map((e) => expect.closeTo(e.dc, 9)));
    expect(rows.map((r) => r.fwi)).toEqual(expected.map((e) => expect.closeTo(e.fwi, 9)));
    const again = JSON.parse((await cli('ingest', 'weather', file(csvOf([...a, ...b])), '--json')).stdout);
    expect(again).toMatchObject({ computed: 40, inserted: 0, updated: 0, unchanged: 40 });
  });

  it('takes a `;`-separated file with decimal commas and columns in another order', async () => {
    const path = file('date;municipio_id;prec;ws;rh;temp\n2024-09-01;29067;0;12,5;40;28,5\n');
    expect((await cli('ingest', 'weather', path)).code).toBe(0);
    expect(await stored('29067')).toEqual([expect.objectContaining({ temp: 28.5, ws: 12.5 })]);
  });

  describe('a bad row rejects the whole file, naming its line, and loads nothing', () => {
    const big = weather('30030', eachDay('2017-01-01', '2024-12-31'));
    const lines = csvOf(big).trimEnd().split('\n');

    it.each([
      [2500, (l: string) => l.replace(/,(\d+),([\d.]+),([\d.]+)$/, ',142,$2,$3'), 'line 2500, column "rh": expected a relative humidity between 0 and 100, got "142"'],
      [2501, (l: string) => l.replace(/^30030/, '99999'), 'line 2501, column "municipio_id": no municipality has the INE code 99999'],
      [2502, (l: string) => l.replace(/^30030/, '3003'), 'line 2502, column "municipio_id": expected a 5-digit INE code, got "3003"'],
      [2503, (l: string) => l.replace(/,\d{4}-\d{2}-\d{2},/, ',2024-02-30,'), 'line 2503, column "date": expected a date in the form YYYY-MM-DD, got "2024-02-30"'],
      [2504, (l: string) => l.replace(/,\d{4}-\d{2}-\d{2},/, ',2099-01-01,'), 'line 2504, column "date": expected a day from 2000-01-01 to today'],
      [2505, (l: string) => l.replace(/,([\d.-]+),(\d+),/, ',301.5,$2,'), 'line 2505, column "temp": expected a temperature in °C between -90 and 60, got "301.5"'],
      [2506, (l: string) => `${l},extra"`, 'line 2506: a quoted field is not closed'],
      [2507, () => lines[3]!, 'line 2507: municipality 30030 on 2017-01-03 already appears on line 4'],
    ])('line %i', async (lineNo, corrupt, message) => {
      const copy = [...lines];
      copy[lineNo - 1] = corrupt(copy[lineNo - 1]!);
      const before = await count();
      const result = await cli('ingest', 'weather', file(copy.join('\n')));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('nothing was loaded');
      expect(await count()).toBe(before);
    });

    it.each([
      // An unknown code is refused on its first line, whatever the rows after it hold; a bad row before it wins.
      ['an unknown code, then a bad value', [[2501, (l: string) => l.replace(/^30030/, '99999')], [2510, (l: string) => l.replace(/,(\d+),([\d.]+),([\d.]+)$/, ',142,$2,$3')]], 'line 2501, column "municipio_id": no municipality has the INE code 99999'],
      ['two unknown codes', [[2501, (l: string) => l.replace(/^30030/, '99999')], [2501 + 365, (l: string) => l.replace(/^30030/, '99998')]], 'line 2501, column "municipio_id": no municipality has the INE code 99999'],
      ['a bad value, then an unknown code', [[2490, (l: string) => l.replace(/,(\d+),([\d.]+),([\d.]+)$/, ',142,$2,$3')], [2501, (l: string) => l.replace(/^30030/, '99999')]], 'line 2490, column "rh": expected a relative humidity between 0 and 100, got "142"'],
      ['an unknown code and a bad value on one line', [[2501, (l: string) => l.replace(/^30030/, '99999').replace(/,(\d+),([\d.]+),([\d.]+)$/, ',142,$2,$3')]], 'line 2501, column "municipio_id": no municipality has the INE code 99999'],
    ] as const)('the first of several bad rows: %s', async (_label, corruptions, message) => {
      const copy = [...lines];
      for (const [lineNo, corrupt] of corruptions) copy[lineNo - 1] = corrupt(copy[lineNo - 1]!);
      const result = await cli('ingest', 'weather', file(copy.join('\n')));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(message);
      expect(result.stderr).toContain('nothing was loaded');
    });

    it.each([
      ['a missing column', 'municipio_id,date,temp,rh,ws\n28079,2024-01-01,10,50,5\n', 'line 1: missing column "prec"'],
      ['an empty file', '', 'the file is empty'],
      ['a header without rows', `${HEADER}\n`, 'no weather rows'],
    ])('%s', async (_label, text, message) => {
      const result = await cli('ingest', 'weather', file(text));
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(message);
    });
  });

  it('says so when the file does not exist', async () => {
    expect(await cli('ingest', 'weather', join(dir, 'missing.csv'))).toMatchObject({ code: 1, stderr: expect.stringContaining('no such file') });
  });

  it('enriches municipalities from the nomenclator and adds those the registry lacks', async () => {
    const result = await cli('ingest', 'municipalities', file(PLAIN_NOMENCLATOR));
    expect(result).toMatchObject({ code: 0, stdout: expect.stringContaining('Loaded 6 municipalities') });
    expect(result.stdout).toContain('5 updated, 1 added');
    const [sevilla] = await rt.database.db.select().from(municipalities).where(eq(municipalities.ineCode, '41091'));
    expect(sevilla).toMatchObject({ lat: 37.38620512, lon: -5.99251368, altitudeM: 11, population: 684025, enrichedAt: expect.any(Date) });
    expect(await rt.municipalities.find('48916')).toMatchObject({ name: 'Ziortza-Bolibar', province: 'Bizkaia', community: 'País Vasco/Euskadi' });
  });

  it('loads nothing of a nomenclator file with a bad row', async () => {
    const bad = PLAIN_NOMENCLATOR.replace('28079,Madrid,28,Madrid,40.40841191', '28079,Madrid,28,Madrid,abc').replace('Sevilla,41,Sevilla,37.38620512', 'Sevilla,41,Sevilla,37.5');
    const result = await cli('ingest', 'municipalities', file(bad));
    expect(result).toMatchObject({ code: 1, stderr: expect.stringContaining('line 4, column "lat"') });
    expect(await rt.municipalities.find('41091')).toMatchObject({ lat: 37.38620512 });
  });
});
