import { dc, dmc } from './components';
import { dayLengthForSpanishProvince, dayLengthTables, dcDayLengthTable, dmcDayLengthTable, DMC_DAY_LENGTH } from './day-length';
import { computeSeries, type WeatherDay } from './series';

// A dry April day: the DMC tables differ most in spring (ell01 12.8 h, ell02 9.5 h).
const APRIL = 4;
const drying = (hours: number) => 10 + 1.894 * (20 + 1.1) * (100 - 40) * hours * 1e-4;

describe('day-length tables chosen by latitude, as cffdrs lat.adjust', () => {
  it('gives the Canary Islands (27.6–29.5°N) the 10–30°N DMC table and a different DMC than the mainland', () => {
    const lasPalmas = dmc(10, 20, 40, 0, 28.1, APRIL);
    const madrid = dmc(10, 20, 40, 0, 40.4, APRIL);
    expect(lasPalmas).toBeCloseTo(drying(9.5), 12);
    expect(madrid).toBeCloseTo(drying(12.8), 12);
    expect(lasPalmas).not.toBeCloseTo(madrid, 1);
    for (const lat of [27.6, 28.1, 29.5]) expect(dmcDayLengthTable(lat)).toBe('ell02');
  });

  it('gives the mainland, the Balearics, Ceuta and Melilla the Canadian DMC table', () => {
    // Tarifa, Melilla, Ceuta, Palma, Madrid, Estaca de Bares.
    for (const lat of [36.0, 35.3, 35.9, 39.6, 40.4, 43.8]) expect(dmcDayLengthTable(lat)).toBe('ell01');
  });

  it('keeps the northern DC table in the Canaries, whose band starts at 20°N', () => {
    expect(dcDayLengthTable(28.1)).toBe('fl01');
    expect(dc(100, 20, 40, 0, 28.1, APRIL)).toBe(dc(100, 20, 40, 0, 40.4, APRIL));
  });

  it('puts each band edge in the band to its south, as cffdrs (lat <= 30 & lat > 10)', () => {
    expect([30.0001, 30, 10.0001, 10, -9.9999, -10, -29.9999, -30, -90].map(dmcDayLengthTable)).toEqual([
      'ell01',
      'ell02',
      'ell02',
      'equator',
      'equator',
      'ell03',
      'ell03',
      'ell04',
      'ell04',
    ]);
    expect([20.0001, 20, -19.9999, -20].map(dcDayLengthTable)).toEqual(['fl01', 'equator', 'equator', 'fl02']);
  });

  it('uses the Canadian tables everywhere with latAdjust false, as cffdrs lat.adjust = FALSE', () => {
    expect(dayLengthTables(28.1, { latAdjust: false })).toEqual({ dmc: 'ell01', dc: 'fl01' });
    expect(dayLengthTables(-35, { latAdjust: false })).toEqual({ dmc: 'ell01', dc: 'fl01' });
    expect(dayLengthTables(-35)).toEqual({ dmc: 'ell04', dc: 'fl02' });
  });

  it('has twelve months in every table', () => {
    for (const table of Object.values(DMC_DAY_LENGTH)) expect(table).toHaveLength(12);
  });
});

describe('day-length tables forced by province', () => {
  it('gives Las Palmas (35) and Santa Cruz de Tenerife (38) the 10–30°N table, every other province the Canadian one', () => {
    expect(dayLengthForSpanishProvince(35)).toEqual({ dmc: 'ell02', dc: 'fl01' });
    expect(dayLengthForSpanishProvince('38')).toEqual({ dmc: 'ell02', dc: 'fl01' });
    for (const code of ['07', 28, 51, 52, 1]) expect(dayLengthForSpanishProvince(code)).toEqual({ dmc: 'ell01', dc: 'fl01' });
  });

  it('rejects codes that are not INE province codes', () => {
    for (const code of [0, 53, 3.5, 'xx', '']) expect(() => dayLengthForSpanishProvince(code)).toThrow(RangeError);
  });

  it('overrides the latitude in a series', () => {
    const days: WeatherDay[] = [1, 2, 3].map(() => ({ lat: 40.4, month: APRIL, temp: 20, rh: 40, ws: 10, prec: 0 }));
    const canary = computeSeries(days.map((d) => ({ ...d, lat: 28.1 })));
    const forced = computeSeries(days, {}, { dayLength: dayLengthForSpanishProvince(35) });
    expect(forced).toEqual(canary);
    expect(forced).not.toEqual(computeSeries(days));
  });
});
