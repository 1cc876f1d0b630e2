/**
 * The content of a monthly report as data: what the PDF prints, what the json format
 * answers and what the csv format's rows hold. Pure: the generator reads the days and
 * passes them in, so the same inputs always give the same content.
 */
import { createHash } from 'node:crypto';
import { daysBetween } from '../calendar';
import { DANGER_CLASSES, dangerClass } from '../decision-support/danger-classes';
import type { SourceRef } from '../decision-support/sources';
import type { TDecisionsResponse } from '../decisions/schemas';
import { fuelModelInfo, vegetationTypeInfo } from '../ecosystem/classes';
import type { EcosystemProfile } from '../ecosystem/service';
import type { MunicipalityNames } from '../municipalities/service';
import type { Reading } from '../readings/reading';
import { riskLabel } from '../risk/risk-score';
import { compareWithHistory, dayOfMonthHistory, RISK_LABELS, type DaySetStatistics, type FwiDayPoint } from './month-statistics';
import { dailyCsv } from './report-csv';
import type { TReportContent, TReportDay } from './schemas';

export interface ReportContentInput {
  reportId: string;
  municipioId: string;
  municipality: MunicipalityNames;
  periodo: string;
  lang: 'es' | 'en';
  provisional: boolean;
  source: 'observed' | 'synthetic';
  generatedAt: Date;
  period: { from: string; to: string };
  /** The month's readings, in date order. */
  days: readonly Reading[];
  /** FWI of every day of the same month in the other years. */
  history: readonly FwiDayPoint[];
  sources: readonly SourceRef[];
  /** The decisions in force on some day of the period, as the decisions service answers them. */
  decisions: readonly TDecisionsResponse['data'][number][];
  /** m10's profile of the municipality; null when no ecosystem data is loaded for it. */
  ecosystem: Pick<EcosystemProfile, 'vegetationType' | 'fuelModel' | 'fuelLoadTHa' | 'forestCoverPct' | 'source' | 'updatedAt'> | null;
}

const round = (n: number, digits: number) => Number(n.toFixed(digits));
const round2 = (n: number | null) => (n === null ? null : round(n, 2));

function dayOf(r: Reading): TReportDay {
  const r4 = (n: number) => round(n, 4);
  return {
    date: r.date,
    fwi: r4(r.fwi),
    ffmc: r4(r.ffmc),
    dmc: r4(r.dmc),
    dc: r4(r.dc),
    isi: r4(r.isi),
    bui: r4(r.bui),
    dsr: r4(r.dsr),
    temp: r4(r.temp),
    rh: r4(r.rh),
    ws: r4(r.ws),
    prec: r4(r.prec),
    risk_score: round(r.riskScore, 6),
    risk_label: r.riskLabel,
    danger_class: dangerClass(r.fwi),
  };
}

function daySet(s: DaySetStatistics) {
  return {
    days: s.days,
    mean_fwi: round2(s.mean),
    max: s.max && { date: s.max.date, fwi: round(s.max.fwi, 2) },
    p90_fwi: round2(s.p90),
    dominant_class: s.dominantClass,
  };
}

function ecosystemOf(e: NonNullable<ReportContentInput['ecosystem']>, lang: 'es' | 'en'): TReportContent['ecosystem'] {
  const vegetation = vegetationTypeInfo(e.vegetationType)!;
  const fuel = e.fuelModel === null ? undefined : fuelModelInfo(e.fuelModel);
  return {
    vegetation_type: e.vegetationType,
    vegetation_type_name: lang === 'es' ? vegetation.mfe : vegetation.name,
    fuel_model: e.fuelModel,
    fuel_model_name: fuel ? (lang === 'es' ? fuel.nameEs : fuel.name) : null,
    fuel_load_t_ha: e.fuelLoadTHa,
    forest_cover_pct: e.forestCoverPct,
    source: e.source,
    updated_at: e.updatedAt?.toISOString() ?? null,
  };
}

export function buildReportContent(input: ReportContentInput): TReportContent {
  const days = input.days.map(dayOf);
  const { month, history, p90Percentile, meanPercentile } = compareWithHistory(
    input.days.map((r) => ({ date: r.date, fwi: r.fwi })),
    input.history,
  );
  const years = history.years.length;
  const perYear = (count: number) => (years === 0 ? null : round(count / years, 1));
  return {
    report_id: input.reportId,
    municipio_id: input.municipioId,
    municipality: input.municipality,
    periodo: input.periodo,
    lang: input.lang,
    provisional: input.provisional,
    source: input.source,
    generated_at: input.generatedAt.toISOString(),
    period: { from: input.period.from, to: input.period.to, days: daysBetween(input.period.from, input.period.to) + 1, days_with_data: days.length },
    month: daySet(month),
    history: { ...daySet(history), first_year: history.years[0] ?? null, last_year: history.years[years - 1] ?? null, years },
    worst_day: month.max ? (days.find((d) => d.date === month.max!.date) ?? null) : null,
    p90_percentile: p90Percentile,
    mean_percentile: meanPercentile,
    classes: DANGER_CLASSES.map((c, i) => ({
      code: c.code,
      min_fwi: c.minFwi,
      max_fwi: DANGER_CLASSES[i + 1]?.minFwi ?? null,
      risk_label: riskLabel(c.minFwi),
      days: month.classDays[c.code],
      history_days_per_year: perYear(history.classDays[c.code]),
    })),
    labels: RISK_LABELS.map((label) => ({ label, days: month.labelDays[label], history_days_per_year: perYear(history.labelDays[label]) })),
    days,
    day_history: dayOfMonthHistory(input.history, daysBetween(input.period.from, input.period.to) + 1).map((d) => ({
      day: d.day,
      years: d.years,
      mean_fwi: round2(d.mean),
      max_fwi: round2(d.max),
    })),
    decisions: [...input.decisions].sort((a, b) => a.date_from.localeCompare(b.date_from) || a.decision_id.localeCompare(b.decision_id)),
    ecosystem: input.ecosystem && ecosystemOf(input.ecosystem, input.lang),
    data_sha256: createHash('sha256').update(dailyCsv(days)).digest('hex'),
    sources: [...input.sources],
  };
}
