import type { FwiDay } from '../fwi';
import { riskLabel, riskScore, type RiskLabel } from '../risk/risk-score';

/** One municipality-day: its noon weather, FWI System outputs and risk. Observed and synthetic data alike. */
export interface Reading extends FwiDay {
  date: string;
  temp: number;
  rh: number;
  ws: number;
  prec: number;
  riskScore: number;
  riskLabel: RiskLabel;
}

/** Completes a computed day with the risk derived from its FWI. */
export function readingOf(date: string, weather: { temp: number; rh: number; ws: number; prec: number }, day: FwiDay): Reading {
  return { date, ...weather, ...day, riskScore: riskScore(day.fwi), riskLabel: riskLabel(day.fwi) };
}
