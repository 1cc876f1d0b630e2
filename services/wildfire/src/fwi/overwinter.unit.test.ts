import { CFFDRS_OVERWINTER_CASES } from './__fixtures__/cffdrs-overwinter';
import { inOverwinterRange, MIN_SPRING_DC, overwinterDc } from './overwinter';

describe('the overwintered Drought Code (Lawson & Armitage 2008)', () => {
  it.each(CFFDRS_OVERWINTER_CASES.map((c) => [c.source, c] as const))('matches the published value: %s', (_source, c) => {
    const dcs = overwinterDc({ dcf: c.dcf, rw: c.rw, a: c.a, b: c.b });
    expect(Math.abs(dcs - c.dcs)).toBeLessThanOrEqual(Math.abs(c.dcs) * c.rtol);
  });

  it('carries the fall DC unchanged with a = 1 and a dry winter, and adds 400·ln(1/a) with a < 1', () => {
    expect(overwinterDc({ dcf: 412.5, rw: 0, a: 1, b: 0.75 })).toBeCloseTo(412.5, 10);
    expect(overwinterDc({ dcf: 412.5, rw: 0, a: 0.5, b: 0.75 })).toBeCloseTo(412.5 + 400 * Math.log(2), 10);
  });

  it('falls as the winter gets wetter, and never below the standard start-up value', () => {
    const wetter = [0, 25, 50, 100, 200, 400].map((rw) => overwinterDc({ dcf: 500, rw, a: 1, b: 0.75 }));
    for (let i = 1; i < wetter.length; i++) expect(wetter[i]!).toBeLessThanOrEqual(wetter[i - 1]!);
    expect(wetter[0]!).toBeGreaterThan(wetter[3]!);
    expect(wetter.at(-1)).toBe(MIN_SPRING_DC);
  });

  it('refuses a carry-over fraction of 0 (the DC would be infinite) and fractions above 1', () => {
    expect(inOverwinterRange('a', 0)).toBe(false);
    expect(inOverwinterRange('a', 1)).toBe(true);
    expect(inOverwinterRange('a', 1.01)).toBe(false);
    expect(inOverwinterRange('b', 0)).toBe(true);
    expect(inOverwinterRange('b', -0.1)).toBe(false);
    expect(inOverwinterRange('dcf', Infinity)).toBe(false);
    expect(inOverwinterRange('rw', -1)).toBe(false);
  });
});
