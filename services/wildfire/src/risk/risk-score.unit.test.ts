import { seededRandom, uniform } from '../fwi/__fixtures__/seeded-random';
import { RISK_SCORE_DECAY, RISK_THRESHOLDS, riskLabel, riskScore } from './risk-score';

describe('riskLabel', () => {
  it('uses the EFFIS class bounds 11.2 and 21.3', () => {
    expect(RISK_THRESHOLDS).toEqual({ MEDIUM: 11.2, HIGH: 21.3 });
  });

  it('switches exactly at 11.2 and 21.3, each bound belonging to the higher class', () => {
    expect(riskLabel(0)).toBe('LOW');
    expect(riskLabel(11.2 - 1e-12)).toBe('LOW');
    expect(riskLabel(11.2)).toBe('MEDIUM');
    expect(riskLabel(21.3 - 1e-12)).toBe('MEDIUM');
    expect(riskLabel(21.3)).toBe('HIGH');
    expect(riskLabel(150)).toBe('HIGH');
  });

  it('rejects a negative or missing FWI', () => {
    expect(() => riskLabel(-0.1)).toThrow(RangeError);
    expect(() => riskLabel(Number.NaN)).toThrow(RangeError);
  });
});

describe('riskScore', () => {
  it('is 0 at FWI 0, 1/3 at 11.2 and 2/3 at 21.3', () => {
    expect(riskScore(0)).toBe(0);
    expect(riskScore(11.2)).toBe(1 / 3);
    expect(riskScore(21.3)).toBeCloseTo(2 / 3, 15);
  });

  it('follows the documented formula: linear, linear, then 1 − (1/3)·exp(−(FWI − 21.3)/10.1)', () => {
    expect(RISK_SCORE_DECAY).toBe(10.1);
    expect(riskScore(5.6)).toBeCloseTo(1 / 6, 15);
    expect(riskScore(16.25)).toBeCloseTo(0.5, 15);
    expect(riskScore(31.4)).toBeCloseTo(1 - Math.exp(-1) / 3, 15);
  });

  it('matches the landmarks quoted in its documentation', () => {
    expect(riskScore(5.2)).toBeCloseTo(0.155, 3);
    expect(riskScore(38)).toBeCloseTo(0.936, 3);
    expect(riskScore(50)).toBeCloseTo(0.981, 3);
    expect(riskScore(100)).toBeCloseTo(0.9999, 4);
  });

  it('is strictly increasing and within [0, 1] on a 0.01 grid up to FWI 300', () => {
    let previous = -Infinity;
    for (let i = 0; i <= 30_000; i++) {
      const fwi = i / 100;
      const score = riskScore(fwi);
      if (!(score > previous && score >= 0 && score <= 1)) throw new Error(`not increasing or out of [0, 1] at FWI ${fwi}: ${previous} then ${score}`);
      previous = score;
    }
  });

  it('is strictly increasing for random pairs of FWI values', () => {
    const random = seededRandom(11);
    for (let i = 0; i < 5_000; i++) {
      const low = uniform(random, 0, 150);
      const high = low + uniform(random, 1e-6, 20);
      expect({ low, high, increasing: riskScore(high) > riskScore(low) }).toMatchObject({ increasing: true });
    }
  });

  it('saturates towards 1 without passing it', () => {
    expect(riskScore(200)).toBeGreaterThan(0.99999);
    expect(riskScore(1e6)).toBe(1);
    expect(riskScore(Infinity)).toBe(1);
  });

  it('agrees with the label: below 1/3 is LOW, below 2/3 is MEDIUM, otherwise HIGH', () => {
    for (let i = 0; i <= 6_000; i++) {
      const fwi = i / 100;
      const score = riskScore(fwi);
      const fromScore = score < 1 / 3 ? 'LOW' : score < 2 / 3 ? 'MEDIUM' : 'HIGH';
      if (fromScore !== riskLabel(fwi)) throw new Error(`FWI ${fwi}: score ${score} says ${fromScore}, label says ${riskLabel(fwi)}`);
    }
  });

  it('rejects a negative or missing FWI', () => {
    expect(() => riskScore(-1)).toThrow(RangeError);
    expect(() => riskScore(Number.NaN)).toThrow(RangeError);
  });
});
