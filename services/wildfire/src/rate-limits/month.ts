import { todayInSpain } from '../calendar';

let memo = { minute: NaN, month: '' };

/** `YYYY-MM` of the instant in Spain: the metering month. Months change on the hour, so one answer serves a whole minute. */
export function monthInSpain(now: Date): string {
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute !== memo.minute) memo = { minute, month: todayInSpain(now).slice(0, 7) };
  return memo.month;
}

let nextStart = { month: '', ms: 0 };

/** Whole seconds from `now` to 00:00 on the 1st of next month in Spain (Europe/Madrid is UTC+1 or UTC+2). */
export function secondsToNextMonthInSpain(now: Date): number {
  const month = monthInSpain(now);
  if (nextStart.month !== month) {
    const [year, m] = month.split('-').map(Number) as [number, number];
    const midnightIfSummer = Date.UTC(year, m, 1) - 2 * 3_600_000;
    nextStart = { month, ms: todayInSpain(new Date(midnightIfSummer)).endsWith('-01') ? midnightIfSummer : midnightIfSummer + 3_600_000 };
  }
  return Math.max(1, Math.ceil((nextStart.ms - now.getTime()) / 1000));
}
