import { trendOf } from './trend';

const days = (...fwis: number[]) => fwis.map((fwi, i) => ({ date: `2025-07-${String(18 + i).padStart(2, '0')}`, fwi }));

describe('the 3-day FWI trend (±3 FWI units)', () => {
  it.each([
    [[10, 11, 13], 3, 'rising'],
    [[10, 20, 12.99], 2.99, 'steady'],
    [[13, 12, 10], -3, 'falling'],
    [[13, 5, 10.01], -2.99, 'steady'],
  ])('days %p change %p: %s', (fwis, change, direction) => {
    expect(trendOf(days(...(fwis as number[])))).toMatchObject({ change, direction, threshold: 3 });
  });

  it('keeps only the last 3 days, rounded to 2 decimals, and compares the last with the first of them', () => {
    const trend = trendOf(days(50, 10.004, 11, 14.006));
    expect(trend.days.map((d) => d.fwi)).toEqual([10, 11, 14.01]);
    expect(trend).toMatchObject({ change: 4.01, direction: 'rising' });
  });

  it('has no direction with a single day', () => {
    expect(trendOf(days(20))).toEqual({ days: [{ date: '2025-07-18', fwi: 20 }], change: null, direction: null, threshold: 3 });
  });
});
