import { isRecurringDay, seasonAround } from './rules';

describe('the época de peligro around a day', () => {
  it.each([
    ['2025-05-31', false],
    ['2025-06-01', true],
    ['2025-10-15', true],
    ['2025-10-16', false],
  ])('INFOCA 06-01 to 10-15 on %s: in force %p, with that year’s dates', (date, inForce) => {
    expect(seasonAround(date, '06-01', '10-15')).toEqual({ from: '2025-06-01', to: '2025-10-15', inForce });
  });

  it.each([
    ['2025-01-10', '2024-11-15', '2025-03-15', true],
    ['2025-03-15', '2024-11-15', '2025-03-15', true],
    ['2025-03-16', '2025-11-15', '2026-03-15', false],
    ['2025-11-14', '2025-11-15', '2026-03-15', false],
    ['2025-11-15', '2025-11-15', '2026-03-15', true],
    ['2025-12-31', '2025-11-15', '2026-03-15', true],
  ])('a season across New Year (11-15 to 03-15) on %s runs %s to %s, in force %p', (date, from, to, inForce) => {
    expect(seasonAround(date, '11-15', '03-15')).toEqual({ from, to, inForce });
  });

  it('accepts month-days of every year only', () => {
    expect(['01-01', '02-28', '12-31'].map(isRecurringDay)).toEqual([true, true, true]);
    expect(['02-29', '04-31', '13-01', '00-10', '6-01', '06-1'].map(isRecurringDay)).toEqual([false, false, false, false, false, false]);
  });
});
