/**
 * Where a recurring época de peligro (`MM-DD` to `MM-DD`, both included) falls around
 * a day. A season within one year (06-01 to 10-15) is that year's; a season across
 * New Year (11-15 to 03-15) is the one the day is in, else the next one to start.
 * 29 February is never a recurring bound (the CSV refuses it), so every bound is a
 * real day in every year.
 */
export interface ConcreteSeason {
  from: string;
  to: string;
  inForce: boolean;
}

const at = (year: number, monthDay: string) => `${String(year).padStart(4, '0')}-${monthDay}`;

export function seasonAround(date: string, fromDay: string, toDay: string): ConcreteSeason {
  const year = Number(date.slice(0, 4));
  const md = date.slice(5);
  if (fromDay <= toDay) {
    const from = at(year, fromDay);
    const to = at(year, toDay);
    return { from, to, inForce: from <= date && date <= to };
  }
  if (md <= toDay) return { from: at(year - 1, fromDay), to: at(year, toDay), inForce: true };
  return { from: at(year, fromDay), to: at(year + 1, toDay), inForce: md >= fromDay };
}

/** A recurring bound `MM-DD` that is a day of every year (so not 02-29). */
export function isRecurringDay(monthDay: string): boolean {
  const m = /^(\d{2})-(\d{2})$/.exec(monthDay);
  if (!m) return false;
  const month = Number(m[1]);
  const day = Number(m[2]);
  const days = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return days !== undefined && day >= 1 && day <= days;
}
