import { downloadState, expiryOf, isProvisional, isReusable, monthDays, requireServedPeriodo, reuseSince } from './rules';

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

  describe('reuse of a finished report', () => {
    const created = new Date('2025-08-10T10:00:00Z');
    const ready = { status: 'ready' as const, fileKey: 'reports/x.pdf', provisional: false, createdAt: created, expiresAt: expiryOf(created) };

    it('reuses a ready report for the rest of its UTC day, and not from the next one', () => {
      expect(reuseSince(new Date('2025-08-10T23:59:59.999Z')).toISOString()).toBe('2025-08-10T00:00:00.000Z');
      expect(isReusable(ready, created)).toBe(true);
      expect(isReusable(ready, new Date('2025-08-10T23:59:59.999Z'))).toBe(true);
      expect(isReusable(ready, new Date('2025-08-11T00:00:00Z'))).toBe(false);
      // A clock set back before the report never reuses it.
      expect(isReusable(ready, new Date('2025-08-10T09:59:59Z'))).toBe(false);
    });

    it('never reuses a pending, failed, expired or file-less report', () => {
      expect(isReusable({ ...ready, status: 'pending' }, created)).toBe(false);
      expect(isReusable({ ...ready, status: 'failed' }, created)).toBe(false);
      expect(isReusable({ ...ready, fileKey: null }, created)).toBe(false);
      expect(isReusable({ ...ready, expiresAt: created }, created)).toBe(false);
    });

    it('reuses a provisional report only within the same Spanish day, which starts before the UTC one', () => {
      const provisional = { ...ready, provisional: true };
      expect(isReusable(provisional, new Date('2025-08-10T21:59:59Z'))).toBe(true);
      // 00:00 on 11 August in Madrid (CEST), still 10 August in UTC.
      expect(isReusable(provisional, new Date('2025-08-10T22:00:00Z'))).toBe(false);
      expect(isReusable(ready, new Date('2025-08-10T22:00:00Z'))).toBe(true);
    });
  });
});
