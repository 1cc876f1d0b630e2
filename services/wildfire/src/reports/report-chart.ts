/**
 * The report's daily FWI chart as a pdf-core chart block: the month's FWI as bars over
 * the six EFFIS class bands, the historical mean and maximum of each day as lines, and
 * a caption that states the figures in words (the chart's text alternative). Pure.
 */
import type { LayoutBlock } from '@firma-riesgo/pdf-core';
import { eachDay } from '../calendar';
import type { DangerClass } from '../decision-support/danger-classes';
import { monthLabel, type ReportFormatter } from './report-format';
import type { ReportStrings } from './report-strings';
import type { TReportContent } from './schemas';

/**
 * Band fills, EFFIS's green-to-purple order in light tints whose luminance falls class by
 * class (0.91, 0.84, 0.69, 0.49, 0.35, 0.26), so the bands stay apart in greyscale print;
 * each band is labelled too.
 */
export const BAND_FILLS: Readonly<Record<DangerClass, string>> = {
  very_low: '#eef8e8',
  low: '#f5eeb8',
  moderate: '#f8d490',
  high: '#f2a98a',
  very_high: '#d98a8a',
  extreme: '#b07aa0',
};
/** Dark navy: darker than every band. The historical lines are black, told apart by their dash pattern. */
export const FWI_BAR = '#1f3b63';
const HISTORY_LINE = '#000000';

/** The y axis: from 0 to a round value above everything drawn, with a tick every 5, 10 or 20. */
export function yAxisOf(highest: number): { max: number; step: number } {
  const step = highest <= 25 ? 5 : highest <= 100 ? 10 : 20;
  return { max: Math.max(2 * step, Math.ceil((highest * 1.05) / step) * step), step };
}

export function reportChart(content: TReportContent, s: ReportStrings, f: ReportFormatter): LayoutBlock[] {
  const dates = eachDay(content.period.from, content.period.to);
  const fwiOn = new Map(content.days.map((d) => [d.date, d.fwi]));
  const fwi = dates.map((date) => fwiOn.get(date) ?? null);
  const mean = content.day_history.map((d) => d.mean_fwi);
  const max = content.day_history.map((d) => d.max_fwi);
  const drawn = [...fwi, ...mean, ...max].filter((v): v is number => v !== null);
  const axis = yAxisOf(Math.max(0, ...drawn));
  const { history } = content;
  const hasHistory = history.days > 0 && history.first_year !== null && history.last_year !== null;

  const series: Extract<LayoutBlock, { type: 'chart' }>['series'] = [{ label: s.chart.fwi, kind: 'bars', color: FWI_BAR, values: fwi }];
  if (hasHistory) {
    series.push(
      { label: s.chart.historyMean(history.first_year!, history.last_year!), kind: 'line', pattern: 'dashed', color: HISTORY_LINE, values: mean },
      { label: s.chart.historyMax(history.first_year!, history.last_year!), kind: 'line', pattern: 'dotted', color: HISTORY_LINE, values: max },
    );
  }

  const caption = [
    content.month.max && content.month.mean_fwi !== null
      ? s.chart.caption(monthLabel(content.periodo, s.locale), f.num(content.month.max.fwi), content.month.max.date, f.num(content.month.mean_fwi))
      : '',
    hasHistory && history.max && history.mean_fwi !== null
      ? s.chart.captionHistory(history.first_year!, history.last_year!, f.num(history.mean_fwi), f.num(history.max.fwi), history.max.date)
      : s.chart.captionNoHistory,
  ]
    .filter(Boolean)
    .join(' ');

  return [
    { type: 'heading', level: 2, content: [{ text: s.sections.chart }] },
    {
      type: 'chart',
      x: { title: s.chart.xTitle, categories: dates.map((d) => String(Number(d.slice(8, 10)))) },
      y: {
        title: s.chart.yTitle,
        min: 0,
        max: axis.max,
        ticks: Array.from({ length: axis.max / axis.step + 1 }, (_, i) => ({ value: i * axis.step, label: f.num(i * axis.step, 0) })),
      },
      // The classes the axis reaches, the last one cut at its top.
      bands: content.classes
        .filter((c) => c.min_fwi < axis.max)
        .map((c) => ({ from: c.min_fwi, to: Math.min(c.max_fwi ?? axis.max, axis.max), label: s.classNames[c.code], fill: BAND_FILLS[c.code] })),
      series,
      caption: [{ text: caption }],
    },
  ];
}
