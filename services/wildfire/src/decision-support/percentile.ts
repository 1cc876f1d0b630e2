/**
 * The day's FWI against the municipality's own history for the same time of year, as
 * GWIS ranks a day against its climatology: the sample is every available day within
 * ±15 calendar days of the same date in every year from 2015 to today (the day
 * itself included), and the percentile is the share of the sample at or below the
 * day's FWI, 0–100, one decimal.
 */
import { addDays } from '../calendar';
import { EARLIEST_DATE } from '../readings/date-range';
import type { DateRange } from '../readings/date-range';

export const PERCENTILE_HALF_WINDOW_DAYS = 15;

/** The same month and day in `year`; 29 February becomes the 28th in common years. */
export function sameDayIn(date: string, year: number): string {
  const md = date.slice(5);
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return `${String(year).padStart(4, '0')}-${md === '02-29' && !leap ? '02-28' : md}`;
}

/** One window per year from 2015 to today's year, clipped to 2015-01-01..today. */
export function percentileWindows(date: string, today: string): DateRange[] {
  const windows: DateRange[] = [];
  for (let year = Number(EARLIEST_DATE.slice(0, 4)); year <= Number(today.slice(0, 4)); year++) {
    const centre = sameDayIn(date, year);
    const from = maxDay(addDays(centre, -PERCENTILE_HALF_WINDOW_DAYS), EARLIEST_DATE);
    const to = minDay(addDays(centre, PERCENTILE_HALF_WINDOW_DAYS), today);
    if (from <= to) windows.push({ from, to });
  }
  return windows;
}

export interface PercentileBasis {
  /** Distinct years with at least one day in the sample. */
  years: number;
  /** Days in the sample. */
  days: number;
  first_date: string | null;
  last_date: string | null;
  window_days: number;
}

/** Percent (one decimal) of `sample` at or below `fwi`; null for an empty sample. */
export function percentileOf(fwi: number, sample: readonly { date: string; fwi: number }[]): { percentile: number | null; basis: PercentileBasis } {
  const atOrBelow = sample.filter((d) => d.fwi <= fwi).length;
  const dates = sample.map((d) => d.date).sort();
  return {
    percentile: sample.length === 0 ? null : Math.round((1000 * atOrBelow) / sample.length) / 10,
    basis: {
      years: new Set(dates.map((d) => d.slice(0, 4))).size,
      days: sample.length,
      first_date: dates[0] ?? null,
      last_date: dates[dates.length - 1] ?? null,
      window_days: PERCENTILE_HALF_WINDOW_DAYS,
    },
  };
}

const maxDay = (a: string, b: string) => (a > b ? a : b);
const minDay = (a: string, b: string) => (a < b ? a : b);
