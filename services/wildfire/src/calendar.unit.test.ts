import { addDays, daysBetween, eachDay, todayInSpain } from './calendar';

describe('calendar', () => {
  it('takes today from the peninsular Spanish calendar, a day ahead of UTC late in the evening', () => {
    expect(todayInSpain(new Date('2025-07-20T21:59:00Z'))).toBe('2025-07-20');
    expect(todayInSpain(new Date('2025-07-20T22:00:00Z'))).toBe('2025-07-21');
    expect(todayInSpain(new Date('2025-01-20T22:59:00Z'))).toBe('2025-01-20');
    expect(todayInSpain(new Date('2025-01-20T23:00:00Z'))).toBe('2025-01-21');
  });

  it('counts days across month ends, leap days and daylight-saving changes', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2024-03-31', -365)).toBe('2023-04-01');
    expect(daysBetween('2024-01-01', '2024-12-31')).toBe(365);
    expect(daysBetween('2025-03-29', '2025-03-31')).toBe(2);
    expect(eachDay('2024-12-30', '2025-01-02')).toEqual(['2024-12-30', '2024-12-31', '2025-01-01', '2025-01-02']);
  });
});
