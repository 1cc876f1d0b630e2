/**
 * CAP 1.2 date-times: local wall time with its offset and no fractional seconds
 * (`2025-07-19T23:59:59+02:00`; the schema's pattern refuses `Z` and fractions).
 * A municipality's day is its own civil day: the Canary Islands (provinces 35 and 38) run
 * on Atlantic/Canary, an hour behind the peninsula, Ceuta and Melilla (Europe/Madrid).
 */

const HOUR_MS = 3_600_000;
const CANARY_PROVINCES = new Set(['35', '38']);

export const SPAIN_ZONE = 'Europe/Madrid';
export const CANARY_ZONE = 'Atlantic/Canary';

/** The time zone of a municipality's civil day, from its INE code's province. */
export function municipalityZone(ine: string): string {
  return CANARY_PROVINCES.has(ine.slice(0, 2)) ? CANARY_ZONE : SPAIN_ZONE;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** `instant` as CAP writes it, in `zone`'s wall time with its offset. */
export function capDateTime(instant: Date, zone: string = SPAIN_ZONE): string {
  if (Number.isNaN(instant.getTime())) throw new RangeError('not a valid instant');
  const parts = Object.fromEntries(formatter(zone).formatToParts(instant).map((p) => [p.type, p.value]));
  // longOffset writes "GMT+02:00", or plain "GMT" when the offset is zero.
  const offset = parts.timeZoneName === 'GMT' ? '+00:00' : String(parts.timeZoneName).slice(3);
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`;
}

/** Minutes `zone` is ahead of UTC at `instant`. */
function offsetMinutes(instant: number, zone: string): number {
  const offset = capDateTime(new Date(instant), zone).slice(19);
  const sign = offset.startsWith('-') ? -1 : 1;
  return sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)));
}

function dayStartUtc(date: string): number {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date) || Number.isNaN(ms)) throw new RangeError(`not a YYYY-MM-DD date: ${JSON.stringify(date)}`);
  return ms;
}

/**
 * 23:59:59 of `date` in `zone`. Spain's clocks change at 01:00 UTC, before the day's noon,
 * so the offset at noon is the offset at the day's end.
 */
export function endOfDay(date: string, zone: string = SPAIN_ZONE): string {
  const start = dayStartUtc(date);
  const offset = offsetMinutes(start + 12 * HOUR_MS, zone);
  return capDateTime(new Date(start + 24 * HOUR_MS - 1000 - offset * 60_000), zone);
}

/** 00:00:00 of `date` in `zone`; the offset in force then is the previous evening's. */
export function startOfDay(date: string, zone: string = SPAIN_ZONE): string {
  const start = dayStartUtc(date);
  const offset = offsetMinutes(start - 12 * HOUR_MS, zone);
  return capDateTime(new Date(start - offset * 60_000), zone);
}

/** The civil date (`YYYY-MM-DD`) of `instant` in `zone`. */
export function dateIn(instant: Date, zone: string = SPAIN_ZONE): string {
  return capDateTime(instant, zone).slice(0, 10);
}
