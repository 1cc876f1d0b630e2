import { CFFDRS_START_CODES, CFFDRS_TEST_FWI_EXPECTED, CFFDRS_TEST_FWI_INPUT } from './__fixtures__/cffdrs-test-fwi';
import { outsideReference } from './__fixtures__/reference-tolerance';
import { seededRandom, uniform } from './__fixtures__/seeded-random';
import { bui, dc, dmc, dsr, FFMC_COEFFICIENT, ffmc, ffmcToMoisture, fwi, isi } from './components';

/**
 * The reference run, chained through the component functions themselves (not
 * through computeSeries): each code starts from our own previous-day value, as
 * cffdrs does, so rounding in the printed reference never feeds back in.
 */
function chainComponents() {
  const out = { ffmc: [] as number[], dmc: [] as number[], dc: [] as number[], isi: [] as number[], bui: [] as number[], fwi: [] as number[], dsr: [] as number[] };
  let prev = { ...CFFDRS_START_CODES };
  for (const [, lat, , mon, , temp, rh, ws, prec] of CFFDRS_TEST_FWI_INPUT) {
    const f = ffmc(prev.ffmc, temp, rh, ws, prec);
    const p = dmc(prev.dmc, temp, rh, prec, lat, mon);
    const d = dc(prev.dc, temp, rh, prec, lat, mon);
    const r = isi(f, ws);
    const u = bui(p, d);
    const w = fwi(r, u);
    out.ffmc.push(f);
    out.dmc.push(p);
    out.dc.push(d);
    out.isi.push(r);
    out.bui.push(u);
    out.fwi.push(w);
    out.dsr.push(dsr(w));
    prev = { ffmc: f, dmc: p, dc: d };
  }
  return out;
}

const chained = chainComponents();
const reference = (column: number) => CFFDRS_TEST_FWI_EXPECTED.map((row) => row[column] ?? NaN);

describe('FWI System components against the cffdrs test series (48 days, tolerance: one unit in the 6th significant digit)', () => {
  it.each([
    ['ffmc', 0],
    ['dmc', 1],
    ['dc', 2],
    ['isi', 3],
    ['bui', 4],
    ['fwi', 5],
    ['dsr', 6],
  ] as const)('%s reproduces every reference day', (name, column) => {
    expect(chained[name]).toHaveLength(48);
    expect(outsideReference(chained[name], reference(column))).toEqual([]);
  });
});

describe('ffmc', () => {
  it('converts with the exact coefficient 250·59.5/101, so FFMC 0 is 250 % moisture and FFMC 101 is 0 %', () => {
    expect(FFMC_COEFFICIENT).toBeCloseTo(147.27723, 5);
    expect(ffmcToMoisture(0)).toBeCloseTo(250, 10);
    expect(ffmcToMoisture(101)).toBe(0);
  });

  it('ignores rain of 0.5 mm or less, which the canopy intercepts', () => {
    expect(ffmc(85, 20, 40, 10, 0.5)).toBe(ffmc(85, 20, 40, 10, 0));
    expect(ffmc(85, 20, 40, 10, 0.6)).toBeLessThan(ffmc(85, 20, 40, 10, 0));
  });

  it('treats relative humidity of 100 % or more as 99.9999 %, like cffdrs', () => {
    expect(ffmc(85, 15, 100, 10, 0)).toBe(ffmc(85, 15, 99.9999, 10, 0));
    expect(ffmc(85, 15, 104, 10, 0)).toBe(ffmc(85, 15, 99.9999, 10, 0));
  });

  it('stays within [0, 101]', () => {
    expect(ffmc(0, 10, 100, 0, 200)).toBeGreaterThanOrEqual(0);
    expect(ffmc(101, 60, 0, 100, 0)).toBeLessThanOrEqual(101);
  });

  it('rejects inputs the equations cannot take', () => {
    expect(() => ffmc(102, 20, 40, 10, 0)).toThrow(RangeError);
    expect(() => ffmc(85, Number.NaN, 40, 10, 0)).toThrow(/temp/);
    expect(() => ffmc(85, 20, -1, 10, 0)).toThrow(/rh/);
    expect(() => ffmc(85, 20, 40, -1, 0)).toThrow(/ws/);
    expect(() => ffmc(85, 20, 40, 10, -0.1)).toThrow(/prec/);
  });
});

describe('dmc', () => {
  // Month 7 at 45°N: day length 12.4 h (cffdrs ell01).
  it('adds 1.894·(T + 1.1)·(100 − RH)·Le·1e-4 on a dry day (Van Wagner 1987, eqs. 16–17)', () => {
    expect(dmc(10, 20, 40, 0, 45, 7)).toBeCloseTo(10 + 1.894 * 21.1 * 60 * 12.4e-4, 12);
  });

  it('does not dry at or below -1.1 °C', () => {
    expect(dmc(10, -1.1, 40, 0, 45, 7)).toBe(10);
    expect(dmc(10, -15, 40, 0, 45, 7)).toBe(10);
    expect(dmc(10, -1, 40, 0, 45, 7)).toBeGreaterThan(10);
  });

  it('ignores rain of 1.5 mm or less and is lowered by more', () => {
    expect(dmc(30, 20, 40, 1.5, 45, 7)).toBe(dmc(30, 20, 40, 0, 45, 7));
    expect(dmc(30, 20, 40, 1.6, 45, 7)).toBeLessThan(dmc(30, 20, 40, 0, 45, 7));
  });

  it('uses the rain formula Mo = 20 + 280/exp(0.023·P0) of cffdrs', () => {
    // Day 10 of the reference (9 mm of rain on a DMC of 19.6759) lands on 10.1447.
    const p0 = 19.6759;
    const b = 100 / (0.5 + 0.3 * p0);
    const re = 0.92 * 9 - 1.27;
    const mr = 20 + 280 / Math.exp(0.023 * p0) + (1000 * re) / (48.77 + b * re);
    const expected = 43.43 * (5.6348 - Math.log(mr - 20)) + 1.894 * 8.1 * 7 * 12.8e-4;
    expect(dmc(p0, 7, 93, 9, 40, 4)).toBeCloseTo(expected, 10);
    expect(dmc(p0, 7, 93, 9, 40, 4)).toBeCloseTo(10.1447, 4);
  });

  it('rejects a month outside 1–12 instead of returning NaN', () => {
    expect(() => dmc(10, 20, 40, 0, 45, 13)).toThrow(/month/);
    expect(() => dmc(10, 20, 40, 0, 45, 0)).toThrow(/month/);
    expect(() => dmc(10, 20, 40, 0, 45, 6.5)).toThrow(/month/);
  });
});

describe('dc', () => {
  it('adds half of 0.36·(T + 2.8) + Lf on a dry day (Van Wagner 1987, eqs. 22–23)', () => {
    expect(dc(100, 20, 40, 0, 45, 7)).toBeCloseTo(100 + (0.36 * 22.8 + 6.4) / 2, 12);
  });

  it('counts temperatures below -2.8 °C as -2.8 and never lowers the code without rain', () => {
    expect(dc(100, -10, 40, 0, 45, 7)).toBe(dc(100, -2.8, 40, 0, 45, 7));
    expect(dc(100, -2.8, 40, 0, 45, 7)).toBeCloseTo(103.2, 12);
    expect(dc(100, 0, 40, 0, 45, 1)).toBe(100);
  });

  it('ignores rain of 2.8 mm or less and is lowered by more', () => {
    expect(dc(200, 20, 40, 2.8, 45, 7)).toBe(dc(200, 20, 40, 0, 45, 7));
    expect(dc(200, 20, 40, 2.9, 45, 7)).toBeLessThan(dc(200, 20, 40, 0, 45, 7));
  });

  it('rejects negative rain and an invalid month', () => {
    expect(() => dc(100, 20, 40, -1, 45, 7)).toThrow(/prec/);
    expect(() => dc(100, 20, 40, 0, 45, 0)).toThrow(/month/);
  });
});

describe('bui, fwi and dsr', () => {
  it('give 0 for all-zero inputs', () => {
    expect(bui(0, 0)).toBe(0);
    expect(fwi(0, 0)).toBe(0);
    expect(dsr(0)).toBe(0);
  });

  it('never give a BUI above the DMC when the DC is small (eq. 27b branch)', () => {
    expect(bui(50, 10)).toBeLessThan(50);
    expect(bui(50, 10)).toBeGreaterThanOrEqual(0);
  });

  it('computes the DSR as 0.0272·FWI^1.77', () => {
    expect(dsr(30)).toBeCloseTo(0.0272 * 30 ** 1.77, 12);
  });

  it('uses the high-BUI duff effect 1000/(25 + 108.64·e^(−0.023·BUI)) above a BUI of 80 (eq. 28b)', () => {
    const b = 0.1 * 10 * (1000 / (25 + 108.64 / Math.exp(0.023 * 100)));
    expect(fwi(10, 100)).toBeCloseTo(Math.exp(2.72 * (0.434 * Math.log(b)) ** 0.647), 12);
  });
});

describe('properties over seeded random weather (2,000 cases each, same draws on every run)', () => {
  const cases = 2_000;

  it('rain above 0.5 mm lowers the FFMC relative to the same day without rain', () => {
    const random = seededRandom(1);
    for (let i = 0; i < cases; i++) {
      const prev = uniform(random, 1, 101);
      const temp = uniform(random, -10, 40);
      const rh = uniform(random, 0, 100);
      const ws = uniform(random, 0, 80);
      const prec = uniform(random, 0.51, 60);
      expect({ prev, temp, rh, ws, prec, wet: ffmc(prev, temp, rh, ws, prec) < ffmc(prev, temp, rh, ws, 0) }).toMatchObject({ wet: true });
    }
  });

  // A drying day: fuel wetter than its drying equilibrium, guaranteed by FFMC <= 80
  // (moisture >= 22 %) with RH <= 60 % and T >= -10 °C (equilibrium <= 21 %). On a
  // wetting day, heat speeds up the wetting too, so the FFMC may go either way; and
  // from about 55 °C at low RH the drying equilibrium turns negative and the FFMC
  // saturates at 101, which the draws here (at most 45 °C) stay clear of.
  function dryingDay(random: () => number) {
    return {
      prev: uniform(random, 0, 80),
      temp: uniform(random, -10, 35),
      rh: uniform(random, 0, 60),
      ws: uniform(random, 0, 60),
      prec: random() < 0.5 ? 0 : uniform(random, 0, 30),
    };
  }

  it('a higher temperature raises the FFMC and the ISI on a drying day', () => {
    const random = seededRandom(2);
    for (let i = 0; i < cases; i++) {
      const { prev, temp, rh, ws, prec } = dryingDay(random);
      const hotter = temp + uniform(random, 0.1, 10);
      const cool = ffmc(prev, temp, rh, ws, prec);
      const hot = ffmc(prev, hotter, rh, ws, prec);
      expect({ prev, temp, hotter, rh, ws, prec, ffmcRises: hot > cool, isiRises: isi(hot, ws) > isi(cool, ws) }).toMatchObject({ ffmcRises: true, isiRises: true });
    }
  });

  it('a higher wind raises the ISI for any FFMC', () => {
    const random = seededRandom(3);
    for (let i = 0; i < cases; i++) {
      const code = uniform(random, 0, 101);
      const ws = uniform(random, 0, 80);
      const windier = ws + uniform(random, 0.1, 20);
      expect({ code, ws, windier, rises: isi(code, windier) > isi(code, ws) }).toMatchObject({ rises: true });
    }
  });

  it('a higher wind raises the day’s ISI on a drying day, where it also dries the fuel faster', () => {
    const random = seededRandom(4);
    for (let i = 0; i < cases; i++) {
      const { prev, temp, rh, ws, prec } = dryingDay(random);
      const windier = ws + uniform(random, 0.1, 20);
      const calm = isi(ffmc(prev, temp, rh, ws, prec), ws);
      const windy = isi(ffmc(prev, temp, rh, windier, prec), windier);
      expect({ prev, temp, rh, ws, windier, prec, rises: windy > calm }).toMatchObject({ rises: true });
    }
  });

  it('the ISI rises with the FFMC across the whole scale', () => {
    for (let code = 0; code < 101; code += 0.05) {
      expect({ code, rises: isi(Math.min(101, code + 0.05), 10) > isi(code, 10) }).toMatchObject({ rises: true });
    }
  });
});
