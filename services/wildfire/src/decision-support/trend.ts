/**
 * The FWI of the last 3 days (the day and the two before it) and its direction, as
 * NFDRS reports an index trend: rising when the day is at least 3 FWI units above
 * the first day of the window, falling when at least 3 below, steady otherwise.
 * With fewer than two days stored there is no direction (null).
 */
export const TREND_DAYS = 3;
export const TREND_THRESHOLD_FWI = 3;

export type TrendDirection = 'rising' | 'steady' | 'falling';

export interface Trend {
  days: { date: string; fwi: number }[];
  /** FWI of the day minus FWI of the first day of the window (rounded to 2 decimals). */
  change: number | null;
  direction: TrendDirection | null;
  threshold: number;
}

/** `days` in date order, ending on the day itself. */
export function trendOf(days: readonly { date: string; fwi: number }[]): Trend {
  const last = days.slice(-TREND_DAYS).map((d) => ({ date: d.date, fwi: round2(d.fwi) }));
  if (last.length < 2) return { days: last, change: null, direction: null, threshold: TREND_THRESHOLD_FWI };
  const change = round2(last[last.length - 1]!.fwi - last[0]!.fwi);
  const direction: TrendDirection = change >= TREND_THRESHOLD_FWI ? 'rising' : change <= -TREND_THRESHOLD_FWI ? 'falling' : 'steady';
  return { days: last, change, direction, threshold: TREND_THRESHOLD_FWI };
}

const round2 = (x: number) => Math.round(x * 100) / 100;
