import { downloadState, expiryOf, isProvisional, monthDays, requireServedPeriodo } from './rules';

describe('report rules', () => {
  it('serves months from 2015-01 to the current month in Spain, answering 422 DATE_OUT_OF_RANGE otherwise', () => {
    expect(() => requireServedPeriodo('2015-01', '2025-08-10')).not.toThrow();
    expect(() => requireServedPeriodo('2025-08', '2025-08-10')).not.toThrow();
    for (const periodo of ['2014-12', '2025-09']) {
      expect(() => requireServedPeriodo(periodo, '2025-08-10')).toThrow(expect.objectContaining({ status: 422, code: 'DATE_OUT_OF_RANGE', param: 'periodo' }));
    }
  });

  it('makes only the current month provisional, covering it up to today', () => {
    expect(isProvisional('2025-08', '2025-08-10')).toBe(true);
    expect(isProvisional('2025-07', '2025-08-01')).toBe(false);
    expect(monthDays('2025-08', '2025-08-10')).toEqual({ from: '2025-08-01', to: '2025-08-10' });
    expect(monthDays('2024-02', '2025-08-10')).toEqual({ from: '2024-02-01', to: '2024-02-29' });
  });

  it('expires a report 12 calendar months after it was created, the 29th of February on the 28th', () => {
    expect(expiryOf(new Date('2025-08-10T10:00:00Z')).toISOString()).toBe('2026-08-10T10:00:00.000Z');
    expect(expiryOf(new Date('2024-02-29T23:30:00Z')).toISOString()).toBe('2025-02-28T23:30:00.000Z');
  });

  it('answers expired from the expiry instant on, whatever the status, and the status before it', () => {
    const expiresAt = new Date('2026-08-10T10:00:00Z');
    expect(downloadState({ status: 'ready', expiresAt }, new Date('2026-08-10T09:59:59.999Z'))).toBe('ready');
    expect(downloadState({ status: 'ready', expiresAt }, expiresAt)).toBe('expired');
    expect(downloadState({ status: 'failed', expiresAt }, new Date('2027-01-01T00:00:00Z'))).toBe('expired');
    expect(downloadState({ status: 'pending', expiresAt }, new Date('2025-08-10T10:00:00Z'))).toBe('pending');
  });
});
