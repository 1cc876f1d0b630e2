import { riskLabel } from '../risk/risk-score';
import { dangerClass, dangerClassRow, DANGER_CLASSES } from './danger-classes';

describe('EFFIS danger classes', () => {
  it.each([
    [0, 'very_low', 'bajo'],
    [5.19, 'very_low', 'bajo'],
    [5.2, 'low', 'bajo'],
    [11.19, 'low', 'bajo'],
    [11.2, 'moderate', 'moderado'],
    [21.29, 'moderate', 'moderado'],
    [21.3, 'high', 'alto'],
    [37.99, 'high', 'alto'],
    [38, 'very_high', 'muy alto'],
    [49.99, 'very_high', 'muy alto'],
    [50, 'extreme', 'extremo'],
    [120, 'extreme', 'extremo'],
  ])('classes FWI %p as %s (AEMET "%s"), lower bounds included', (fwi, code, aemet) => {
    expect(dangerClassRow(fwi)).toMatchObject({ code, aemet });
  });

  it('always agrees with the m1 risk_label, whose classes are these merged', () => {
    const merged = { very_low: 'LOW', low: 'LOW', moderate: 'MEDIUM', high: 'HIGH', very_high: 'HIGH', extreme: 'HIGH' };
    for (let fwi = 0; fwi <= 60; fwi = Math.round((fwi + 0.01) * 100) / 100) expect([fwi, merged[dangerClass(fwi)]]).toEqual([fwi, riskLabel(fwi)]);
  });

  it('lists six classes in increasing order of FWI', () => {
    expect(DANGER_CLASSES.map((c) => c.minFwi)).toEqual([0, 5.2, 11.2, 21.3, 38, 50]);
  });

  it('refuses a negative or missing FWI', () => {
    expect(() => dangerClass(-1)).toThrow(RangeError);
    expect(() => dangerClass(Number.NaN)).toThrow(RangeError);
  });
});
