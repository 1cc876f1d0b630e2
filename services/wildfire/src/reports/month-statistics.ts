/**
 * The figures of a monthly report: days per EFFIS class and per interface label, the
 * dominant class, the worst day, mean, maximum and 90th percentile of the FWI, and the
 * same for the same month of the municipality's other years. Pure: the caller reads
 * the days.
 */
import { DANGER_CLASS_CODES, dangerClass, type DangerClass } from '../decision-support/danger-classes';
import { percentileOf } from '../decision-support/percentile';
import { riskLabel, type RiskLabel } from '../risk/risk-score';

export const RISK_LABELS: readonly RiskLabel[] = ['LOW', 'MEDIUM', 'HIGH'];

export interface FwiDayPoint {
  date: string;
  fwi: number;
}

export interface DaySetStatistics {
  days: number;
  /** Distinct years among the days. */
  years: number[];
  classDays: Record<DangerClass, number>;
  labelDays: Record<RiskLabel, number>;
  /** The class with the most days; a tie goes to the more dangerous class. Null without days. */
  dominantClass: DangerClass | null;
  mean: number | null;
  /** The highest FWI and its first day. */
  max: FwiDayPoint | null;
  p90: number | null;
}

/**
 * The q-quantile (0..1) of the values by linear interpolation between order statistics
 * (Hyndman and Fan type 7, the default of R and NumPy); null for no values.
 */
export function quantile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, sorted.length - 1);
  return sorted[lo]! + (h - lo) * (sorted[hi]! - sorted[lo]!);
}

export function statisticsOf(days: readonly FwiDayPoint[]): DaySetStatistics {
  const classDays = Object.fromEntries(DANGER_CLASS_CODES.map((c) => [c, 0])) as Record<DangerClass, number>;
  const labelDays: Record<RiskLabel, number> = { LOW: 0, MEDIUM: 0, HIGH: 0 };
  let max: FwiDayPoint | null = null;
  let sum = 0;
  for (const day of days) {
    classDays[dangerClass(day.fwi)] += 1;
    labelDays[riskLabel(day.fwi)] += 1;
    sum += day.fwi;
    if (max === null || day.fwi > max.fwi || (day.fwi === max.fwi && day.date < max.date)) max = { date: day.date, fwi: day.fwi };
  }
  let dominantClass: DangerClass | null = null;
  for (const code of DANGER_CLASS_CODES) if (classDays[code] > 0 && (dominantClass === null || classDays[code] >= classDays[dominantClass])) dominantClass = code;
  return {
    days: days.length,
    years: [...new Set(days.map((d) => Number(d.date.slice(0, 4))))].sort((a, b) => a - b),
    classDays,
    labelDays,
    dominantClass,
    mean: days.length === 0 ? null : sum / days.length,
    max,
    p90: quantile(
      days.map((d) => d.fwi),
      0.9,
    ),
  };
}

export interface MonthComparison {
  month: DaySetStatistics;
  history: DaySetStatistics;
  /** Percent (1 decimal) of the historical days at or below the month's 90th percentile; null without history. */
  p90Percentile: number | null;
  /** Percent of the historical days at or below the month's mean. */
  meanPercentile: number | null;
}

/** The month against its history: the same month of the other years. */
export function compareWithHistory(month: readonly FwiDayPoint[], history: readonly FwiDayPoint[]): MonthComparison {
  const m = statisticsOf(month);
  const h = statisticsOf(history);
  return {
    month: m,
    history: h,
    p90Percentile: m.p90 === null ? null : percentileOf(m.p90, history).percentile,
    meanPercentile: m.mean === null ? null : percentileOf(m.mean, history).percentile,
  };
}

export interface DayOfMonthHistory {
  /** Day of the month, 1–31. */
  day: number;
  /** Years with a value for that day. */
  years: number;
  mean: number | null;
  max: number | null;
}

/**
 * For each day of the month 1..`days`, the mean and maximum FWI of that day across the
 * other years (what the chart draws beside the month's own days); null where no year
 * has that day.
 */
export function dayOfMonthHistory(history: readonly FwiDayPoint[], days: number): DayOfMonthHistory[] {
  const byDay = Array.from({ length: days }, () => ({ sum: 0, n: 0, max: null as number | null }));
  for (const point of history) {
    const slot = byDay[Number(point.date.slice(8, 10)) - 1];
    if (!slot) continue;
    slot.sum += point.fwi;
    slot.n += 1;
    if (slot.max === null || point.fwi > slot.max) slot.max = point.fwi;
  }
  return byDay.map((s, i) => ({ day: i + 1, years: s.n, mean: s.n === 0 ? null : s.sum / s.n, max: s.max }));
}
