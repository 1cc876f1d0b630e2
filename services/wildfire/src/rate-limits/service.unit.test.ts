import { monthInSpain, secondsToNextMonthInSpain } from './service';

describe('the metering month (Spanish calendar)', () => {
  it('is the month in Madrid, which starts before midnight UTC', () => {
    expect(monthInSpain(new Date('2026-03-31T21:59:59Z'))).toBe('2026-03');
    expect(monthInSpain(new Date('2026-03-31T22:00:00Z'))).toBe('2026-04');
    expect(monthInSpain(new Date('2026-12-31T23:00:00Z'))).toBe('2027-01');
  });

  it('ends at 00:00 in Madrid on the 1st, on winter (UTC+1) and summer (UTC+2) time', () => {
    expect(secondsToNextMonthInSpain(new Date('2026-01-31T22:00:00Z'))).toBe(3600);
    expect(secondsToNextMonthInSpain(new Date('2026-07-31T21:00:00Z'))).toBe(3600);
    expect(secondsToNextMonthInSpain(new Date('2026-12-31T22:59:59.500Z'))).toBe(1);
  });
});
