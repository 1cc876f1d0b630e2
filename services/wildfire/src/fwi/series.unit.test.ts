import { CFFDRS_OUTPUT_COLUMNS, CFFDRS_TEST_FWI_EXPECTED, CFFDRS_TEST_FWI_INPUT } from './__fixtures__/cffdrs-test-fwi';
import { outsideReference } from './__fixtures__/reference-tolerance';
import { computeSeries, DEFAULT_START_CODES, step, type FwiCodes, type WeatherDay } from './series';

const days: WeatherDay[] = CFFDRS_TEST_FWI_INPUT.map(([, lat, , month, , temp, rh, ws, prec]) => ({ lat, month, temp, rh, ws, prec }));

describe('computeSeries', () => {
  it('reproduces all seven outputs of the cffdrs test series from the default start (one unit in the 6th significant digit)', () => {
    const out = computeSeries(days);
    expect(out).toHaveLength(48);
    CFFDRS_OUTPUT_COLUMNS.forEach((name, column) => {
      const expected = CFFDRS_TEST_FWI_EXPECTED.map((row) => row[column] ?? NaN);
      expect({ name, outside: outsideReference(out.map((day) => day[name]), expected) }).toEqual({ name, outside: [] });
    });
  });

  it('starts from FFMC 85, DMC 6, DC 15 by default and fills in missing start values', () => {
    expect(DEFAULT_START_CODES).toEqual({ ffmc: 85, dmc: 6, dc: 15 });
    expect(computeSeries(days)).toEqual(computeSeries(days, { ffmc: 85, dmc: 6, dc: 15 }));
    const [first] = computeSeries(days, { dmc: 30 });
    const [reference] = computeSeries(days);
    expect(first?.ffmc).toBe(reference?.ffmc);
    expect(first?.dc).toBe(reference?.dc);
    expect(first?.dmc).toBeGreaterThan(reference?.dmc ?? Infinity);
  });

  it('carries each day’s codes into the next day', () => {
    const out = computeSeries(days.slice(0, 2));
    const second = step(out[0] as FwiCodes, days[1] as WeatherDay, 40, 4);
    expect(out[1]).toEqual(second);
  });

  it('returns nothing for no days', () => {
    expect(computeSeries([])).toEqual([]);
  });
});

describe('step', () => {
  it('continues a stored series from its last stored day exactly as one long run', () => {
    const stored = computeSeries(days.slice(0, 20));
    let state: FwiCodes = stored[stored.length - 1] as FwiCodes;
    const continued = days.slice(20).map((day) => {
      const today = step(state, day, day.lat, day.month);
      state = today;
      return today;
    });
    expect([...stored, ...continued]).toEqual(computeSeries(days));
  });

  it('needs only the codes of the previous day, not its indices', () => {
    const [first] = computeSeries(days.slice(0, 1));
    const codes = { ffmc: first?.ffmc ?? NaN, dmc: first?.dmc ?? NaN, dc: first?.dc ?? NaN };
    expect(step(codes, days[1] as WeatherDay, 40, 4)).toEqual(computeSeries(days.slice(0, 2))[1]);
  });

  it('rejects weather the equations cannot take', () => {
    const start = { ...DEFAULT_START_CODES };
    expect(() => step(start, { temp: 20, rh: 40, ws: 10, prec: -1 }, 40, 4)).toThrow(RangeError);
    expect(() => step(start, { temp: 20, rh: 40, ws: -1, prec: 0 }, 40, 4)).toThrow(RangeError);
    expect(() => step(start, { temp: 20, rh: 40, ws: 10, prec: 0 }, 40, 13)).toThrow(/month/);
    expect(() => step({ ...start, ffmc: 120 }, { temp: 20, rh: 40, ws: 10, prec: 0 }, 40, 4)).toThrow(/prevFfmc/);
  });
});
