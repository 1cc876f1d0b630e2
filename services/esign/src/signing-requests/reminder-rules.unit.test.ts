import { afterReminder, firstReminderAt, manualReminderAllowance, reminderDue } from './rules';

describe('the reminder rules', () => {
  const now = new Date('2026-12-01T09:00:00Z');
  const h = (n: number) => new Date(now.getTime() + n * 3600_000);

  it('schedules the first reminder reminder_every_hours after the request becomes pending, none for 0 or a max of 0', () => {
    expect(firstReminderAt({ reminderEveryHours: 72, reminderMax: 3 }, now)).toEqual(h(72));
    expect(firstReminderAt({ reminderEveryHours: 0, reminderMax: 3 }, now)).toBeNull();
    expect(firstReminderAt({ reminderEveryHours: 24, reminderMax: 0 }, now)).toBeNull();
  });

  it('counts each reminder and stops scheduling at reminder_max', () => {
    expect(afterReminder({ reminderEveryHours: 24, reminderMax: 2, remindersSent: 0 }, now)).toEqual({ remindersSent: 1, lastReminderAt: now, nextReminderAt: h(24) });
    expect(afterReminder({ reminderEveryHours: 24, reminderMax: 2, remindersSent: 1 }, now)).toEqual({ remindersSent: 2, lastReminderAt: now, nextReminderAt: null });
  });

  it('owes the expiry warning from 24 h before expiry (once), before a scheduled reminder, and nothing to a request that is not pending', () => {
    const row = { status: 'pending' as const, expiresAt: h(30), nextReminderAt: h(1), expiryWarnedAt: null };
    expect(reminderDue(row, now)).toBeNull();
    expect(reminderDue(row, h(1))).toBe('reminder');
    expect(reminderDue(row, h(6))).toBe('expiry_warning');
    expect(reminderDue({ ...row, expiryWarnedAt: h(6) }, h(7))).toBe('reminder');
    expect(reminderDue({ ...row, status: 'waiting' as const }, h(7))).toBeNull();
    expect(reminderDue(row, h(30))).toBeNull();
  });

  it('lets a manual reminder go an hour after the last one, and says how long to wait before', () => {
    expect(manualReminderAllowance(null, now)).toEqual({ allowed: true });
    expect(manualReminderAllowance(new Date(now.getTime() - 20 * 60_000), now)).toEqual({ allowed: false, retryAfterSeconds: 2400 });
    expect(manualReminderAllowance(new Date(now.getTime() - 3600_000), now)).toEqual({ allowed: true });
  });
});
