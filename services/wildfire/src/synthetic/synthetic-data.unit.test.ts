import { PROVINCES } from '../municipalities/provinces';
import { eachDay, monthOf } from '../calendar';
import { dayLengthForSpanishProvince, DEFAULT_WINTER_FRACTIONS, overwinterDc, step } from '../fwi';
import { yearOfWeather, summerness } from './climate-model';
import { createSyntheticData, SYNTHETIC_SPIN_UP_YEAR } from './synthetic-data';

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('synthetic data for test tokens', () => {
  const synthetic = createSyntheticData();
  const monthly = (code: string, year: number, month: string) => {
    const last = new Date(Date.UTC(year, Number(month), 0)).getUTCDate();
    return synthetic.readings(code, `${year}-${month}-01`, `${year}-${month}-${last}`);
  };

  it.each([2019, 2022, 2024])('puts Seville (41091) in July far above its January and above A Coruña (15030) in July, in %i', (year) => {
    const sevillaJuly = mean(monthly('41091', year, '07').map((r) => r.fwi));
    const sevillaJanuary = mean(monthly('41091', year, '01').map((r) => r.fwi));
    const corunaJuly = mean(monthly('15030', year, '07').map((r) => r.fwi));
    expect(sevillaJuly).toBeGreaterThan(5 * sevillaJanuary);
    expect(sevillaJuly - sevillaJanuary).toBeGreaterThan(21.3);
    expect(sevillaJuly).toBeGreaterThan(2 * corunaJuly);
  });

  it.each(['41091', '14021', '18087', '06015', '30030'])('reaches HIGH in the summer of the south (%s)', (code) => {
    const summer = synthetic.readings(code, '2024-06-21', '2024-09-22');
    const high = summer.filter((r) => r.riskLabel === 'HIGH').length;
    expect(high).toBeGreaterThan(summer.length / 2);
  });

  it('keeps the wet north-west mostly LOW in midwinter', () => {
    const winter = monthly('15030', 2024, '01');
    expect(winter.filter((r) => r.riskLabel === 'LOW').length).toBeGreaterThan(25);
  });

  it('gives the same readings to the same request, from a fresh generator too', () => {
    const again = createSyntheticData();
    expect(again.readings('28079', '2023-05-01', '2023-05-31')).toEqual(synthetic.readings('28079', '2023-05-01', '2023-05-31'));
  });

  it('gives different municipalities of one province different weather', () => {
    const a = synthetic.readings('41091', '2024-07-01', '2024-07-10').map((r) => r.temp);
    const b = synthetic.readings('41004', '2024-07-01', '2024-07-10').map((r) => r.temp);
    expect(a).not.toEqual(b);
  });

  it('runs one series across the years, so a range answer matches the same days of the full year', () => {
    const year = synthetic.readings('46250', '2024-01-01', '2024-12-31');
    expect(year).toHaveLength(366);
    expect(synthetic.readings('46250', '2024-08-10', '2024-08-12')).toEqual(year.slice(222, 225));
  });

  const valencia = PROVINCES.find((p) => p.code === '46')!;
  const valladolid = PROVINCES.find((p) => p.code === '47')!;
  const stepFrom = (codes: { ffmc: number; dmc: number; dc: number }, r: { temp: number; rh: number; ws: number; prec: number; date: string }, provinceCode: string, lat: number) =>
    step(codes, r, lat, monthOf(r.date), { dayLength: dayLengthForSpanishProvince(provinceCode) });

  it('carries the codes over New Year where the series never stops (Valencia): 1 January continues from 31 December', () => {
    const [dec31, jan1] = synthetic.readings('46250', '2023-12-31', '2024-01-01');
    const expected = stepFrom(dec31!, jan1!, '46', valencia.lat);
    expect(jan1!.dc).toBeCloseTo(expected.dc, 10);
    expect(jan1!.ffmc).toBeCloseTo(expected.ffmc, 10);
    // A fresh start would put the DC near 15: this one carries the autumn's drought.
    expect(jan1!.dc).toBeGreaterThan(100);
  });

  it('starts the season on 1 March from FFMC 85, DMC 6 and the overwintered DC where the series stops for winter (Valladolid)', () => {
    const winter = synthetic.readings('47186', '2025-11-30', '2026-03-01');
    const fall = winter[0]!;
    const rw = winter.slice(1, -1).reduce((sum, r) => sum + r.prec, 0);
    const spring = overwinterDc({ dcf: fall.dc, rw, ...DEFAULT_WINTER_FRACTIONS });
    const march1 = winter.at(-1)!;
    const expected = stepFrom({ ffmc: 85, dmc: 6, dc: spring }, march1, '47', valladolid.lat);
    expect(march1.dc).toBeCloseTo(expected.dc, 10);
    expect(march1.dmc).toBeCloseTo(expected.dmc, 10);
    // The winter's days still carry the daily equations, so each has a reading.
    expect(winter).toHaveLength(92);
  });

  it('starts every series with the standard start values on 1 January of the spin-up year', () => {
    const [first] = synthetic.readings('28079', `${SYNTHETIC_SPIN_UP_YEAR}-01-01`, `${SYNTHETIC_SPIN_UP_YEAR}-01-01`);
    expect(first!.dc).toBeCloseTo(stepFrom({ ffmc: 85, dmc: 6, dc: 15 }, first!, '28', PROVINCES.find((p) => p.code === '28')!.lat).dc, 10);
    expect(SYNTHETIC_SPIN_UP_YEAR).toBe(2014);
  });

  it('gives the same later years whichever year is asked first', () => {
    const late = createSyntheticData().readings('50297', '2022-06-01', '2022-06-03');
    const early = createSyntheticData();
    early.readings('50297', '2016-06-01', '2016-06-01');
    expect(early.readings('50297', '2022-06-01', '2022-06-03')).toEqual(late);
  });

  it('keeps the cache within its bound while answering repeated requests from it', () => {
    const small = createSyntheticData({ cacheSize: 3 });
    const first = small.readings('28079', '2024-07-01', '2024-07-01');
    for (const code of ['41091', '15030', '08019', '46250']) small.readings(code, '2024-07-01', '2024-07-01');
    expect(small.cachedYears()).toBe(3);
    expect(small.readings('28079', '2024-07-01', '2024-07-01')).toEqual(first);
  });

  it('answers one day, for area views, equal to the range answer, without filling the cache', () => {
    const fresh = createSyntheticData({ cacheSize: 3 });
    const days = ['2024-01-01', '2024-03-15', '2024-08-12', '2024-12-31'];
    const uncached = days.map((d) => fresh.day('41091', d));
    expect(fresh.cachedYears()).toBe(0);
    expect(uncached).toEqual(days.map((d) => synthetic.readings('41091', d, d)[0]));
    fresh.readings('41091', '2024-01-01', '2024-01-01');
    expect(days.map((d) => fresh.day('41091', d))).toEqual(uncached);
  });

  it('makes summer drier and hotter than winter in every climate zone', () => {
    const days = eachDay('2024-01-01', '2024-12-31');
    for (const province of PROVINCES) {
      const weather = yearOfWeather(`${province.code}001`, province, days);
      const jan = weather.slice(0, 31);
      const jul = weather.slice(182, 213);
      expect(mean(jul.map((w) => w.temp))).toBeGreaterThan(mean(jan.map((w) => w.temp)));
      expect(mean(jul.map((w) => w.prec))).toBeLessThan(mean(jan.map((w) => w.prec)) + 1);
    }
    expect(summerness(200)).toBeCloseTo(1, 6);
    expect(summerness(17)).toBeLessThan(0.01);
  });

  it('keeps every generated value inside the ranges weather ingestion accepts', () => {
    const days = eachDay('2024-01-01', '2024-12-31');
    const all = PROVINCES.flatMap((province) => yearOfWeather(`${province.code}002`, province, days));
    const range = (pick: (w: (typeof all)[number]) => number) => [Math.min(...all.map(pick)), Math.max(...all.map(pick))];
    const [rhMin, rhMax] = range((w) => w.rh);
    const [wsMin] = range((w) => w.ws);
    const [precMin] = range((w) => w.prec);
    const [tempMin, tempMax] = range((w) => w.temp);
    expect(rhMin).toBeGreaterThanOrEqual(0);
    expect(rhMax).toBeLessThanOrEqual(100);
    expect(wsMin).toBeGreaterThanOrEqual(0);
    expect(precMin).toBeGreaterThanOrEqual(0);
    expect(tempMin).toBeGreaterThan(-30);
    expect(tempMax).toBeLessThan(50);
  });
});
