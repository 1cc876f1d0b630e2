/**
 * Calendar days as `YYYY-MM-DD` strings, the form the API and the `date` columns use.
 * Arithmetic goes through UTC midnights, so no daylight-saving change can shift a day.
 */
const DAY_MS = 86_400_000;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A YYYY-MM-DD calendar date as 00:00 UTC of that day; null when malformed or not a real date. */
export function parseIsoDay(text: string): Date | null {
  const match = DAY.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day ? date : null;
}


/** Europe/Madrid: the latest civil date anywhere in Spain (the Canaries run an hour behind). */
const SPAIN_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Madrid', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The date in Spain (peninsular time) at the instant `now`: what "today" means to the API. */
export function todayInSpain(now: Date): string {
  return SPAIN_DAY.format(now);
}

/** The day of a valid ISO date string; throws on anything else (callers validate input first). */
function utcDay(iso: string): Date {
  const day = parseIsoDay(iso);
  if (!day) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(iso)}`);
  return day;
}

export function addDays(iso: string, days: number): string {
  return new Date(utcDay(iso).getTime() + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((utcDay(to).getTime() - utcDay(from).getTime()) / DAY_MS);
}

/** Month 1–12 of an ISO date. */
export function monthOf(iso: string): number {
  return Number(iso.slice(5, 7));
}

/** Every day from `from` to `to`, both included. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) days.push(d);
  return days;
}
