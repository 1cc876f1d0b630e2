/**
 * The date rules of `GET /api/v3/m1` (DESIGN §4): days from 2015-01-01 to today (in
 * Spain), at most 366 days per request, `date_from` not after `date_to`.
 */
import { UnprocessableError } from '../errors';
import { addDays, daysBetween } from '../calendar';

/** The first day the API serves. */
export const EARLIEST_DATE = '2015-01-01';
/** Most days one range request may cover, both ends included: a leap year. */
export const MAX_RANGE_DAYS = 366;

export interface DateRange {
  from: string;
  to: string;
}

/**
 * The range a request asks for. Only `date_from`: up to today. Only `date_to`: the
 * longest allowed range ending there (366 days, not before 2015-01-01). Both dates
 * must already be well-formed (the route's schema checks that).
 */
export function resolveDateRange(query: { date_from?: string; date_to?: string }, today: string): DateRange {
  for (const param of ['date_from', 'date_to'] as const) {
    const value = query[param];
    if (value !== undefined) requireServedDay(param, value, today);
  }
  const from = query.date_from ?? maxDate(EARLIEST_DATE, addDays(query.date_to!, -(MAX_RANGE_DAYS - 1)));
  const to = query.date_to ?? today;
  if (query.date_from !== undefined && query.date_to !== undefined && from > to) {
    throw new UnprocessableError(`date_from ${from} is after date_to ${to}`, 'INVALID_DATE_RANGE', { param: 'date_from' });
  }
  const days = daysBetween(from, to) + 1;
  if (days > MAX_RANGE_DAYS) {
    const implied = query.date_to === undefined ? ' (date_to defaults to today)' : '';
    throw new UnprocessableError(`${from} to ${to}${implied} covers ${days} days; at most ${MAX_RANGE_DAYS} per request`, 'DATE_RANGE_TOO_LARGE', {
      param: query.date_to === undefined ? 'date_from' : 'date_to',
    });
  }
  return { from, to };
}

/** 422 DATE_OUT_OF_RANGE unless `value` (a well-formed day) is from 2015-01-01 to `today`; every dated endpoint shares it. */
export function requireServedDay(param: string, value: string, today: string): void {
  if (value < EARLIEST_DATE) {
    throw new UnprocessableError(`${param} ${value} is before ${EARLIEST_DATE}, the first day served`, 'DATE_OUT_OF_RANGE', { param });
  }
  if (value > today) {
    throw new UnprocessableError(`${param} ${value} is in the future (today is ${today} in Spain)`, 'DATE_OUT_OF_RANGE', { param });
  }
}

function maxDate(a: string, b: string): string {
  return a > b ? a : b;
}
