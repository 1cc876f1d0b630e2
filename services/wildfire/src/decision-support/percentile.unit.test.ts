import { percentileOf, percentileWindows } from './percentile';

describe('the percentile of a day against its own history (±15 days, every year)', () => {
  it('takes one window per year from 2015, clipped at today', () => {
    const windows = percentileWindows('2025-07-20', '2025-07-25');
    expect(windows).toHaveLength(11);
    expect(windows[0]).toEqual({ from: '2015-07-05', to: '2015-08-04' });
    expect(windows[10]).toEqual({ from: '2025-07-05', to: '2025-07-25' });
  });

  it('clips the first window at 2015-01-01 and crosses the turn of the year', () => {
    const windows = percentileWindows('2016-01-05', '2016-03-01');
    expect(windows).toEqual([
      { from: '2015-01-01', to: '2015-01-20' },
      { from: '2015-12-21', to: '2016-01-20' },
    ]);
  });

  it('centres 29 February on the 28th in common years', () => {
    expect(percentileWindows('2024-02-29', '2024-12-31')[0]).toEqual({ from: '2015-02-13', to: '2015-03-15' });
  });

  it('gives the share of the sample at or below the day, to one decimal (hand-computed)', () => {
    // 7 days, 5 of them at or below 40 (30, 36, 40, 20, 39): 5/7 = 71.43 %.
    const sample = [
      { date: '2025-07-18', fwi: 30 },
      { date: '2025-07-19', fwi: 36 },
      { date: '2025-07-20', fwi: 40 },
      { date: '2024-07-10', fwi: 20 },
      { date: '2024-08-04', fwi: 45 },
      { date: '2023-07-05', fwi: 50 },
      { date: '2016-07-25', fwi: 39 },
    ];
    expect(percentileOf(40, sample)).toEqual({
      percentile: 71.4,
      basis: { years: 4, days: 7, first_date: '2016-07-25', last_date: '2025-07-20', window_days: 15 },
    });
    expect(percentileOf(50, sample).percentile).toBe(100);
    expect(percentileOf(19, sample).percentile).toBe(0);
  });

  it('answers null with an empty sample', () => {
    expect(percentileOf(12, [])).toEqual({ percentile: null, basis: { years: 0, days: 0, first_date: null, last_date: null, window_days: 15 } });
  });
});
