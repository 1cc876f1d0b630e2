import { compareWithHistory, dayOfMonthHistory, quantile, statisticsOf } from './month-statistics';

const days = (fwis: number[], month = '2025-07') => fwis.map((fwi, i) => ({ date: `${month}-${String(i + 1).padStart(2, '0')}`, fwi }));

describe('month statistics', () => {
  it('takes the 90th percentile by linear interpolation between order statistics, as R and NumPy do by default', () => {
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBeCloseTo(9.1, 10);
    expect(quantile([10, 1, 5], 0.9)).toBeCloseTo(9, 10);
    expect(quantile([7], 0.9)).toBe(7);
    expect(quantile([], 0.9)).toBeNull();
  });

  it('counts days per EFFIS class at the class bounds (lower bound included) and per interface label', () => {
    const s = statisticsOf(days([5.19, 5.2, 11.19, 11.2, 21.29, 21.3, 37.99, 38, 49.99, 50]));
    expect(s.classDays).toEqual({ very_low: 1, low: 2, moderate: 2, high: 2, very_high: 2, extreme: 1 });
    expect(s.labelDays).toEqual({ LOW: 3, MEDIUM: 2, HIGH: 5 });
  });

  it('breaks a tie for the dominant class towards the more dangerous class, and keeps the first day of the maximum', () => {
    const s = statisticsOf(days([3, 4, 40, 42, 42]));
    expect(s.dominantClass).toBe('very_high');
    expect(s.max).toEqual({ date: '2025-07-04', fwi: 42 });
    expect(s.mean).toBeCloseTo(26.2, 10);
  });

  it('ranks the month’s 90th percentile and mean against the history, and says nothing without history', () => {
    const c = compareWithHistory(days([10, 20, 30]), [...days([5, 15, 25, 35], '2024-07')]);
    // p90 of 10, 20, 30 is 28: at or above 3 of the 4 historical days; the mean, 20, at or above 2.
    expect([c.p90Percentile, c.meanPercentile]).toEqual([75, 50]);
    expect(c.history.years).toEqual([2024]);
    expect(compareWithHistory(days([10]), [])).toMatchObject({ p90Percentile: null, meanPercentile: null, history: { days: 0, dominantClass: null, mean: null, max: null } });
  });

  it('gives each day of the month the mean and maximum of that day in the other years, and null where no year has it', () => {
    const history = [...days([10, 20, 30], '2023-07'), ...days([30, 40], '2024-07'), { date: '2022-07-31', fwi: 99 }];
    expect(dayOfMonthHistory(history, 4)).toEqual([
      { day: 1, years: 2, mean: 20, max: 30 },
      { day: 2, years: 2, mean: 30, max: 40 },
      { day: 3, years: 1, mean: 30, max: 30 },
      { day: 4, years: 0, mean: null, max: null },
    ]);
  });
});
