/**
 * A report's content laid out as a LayoutDocument for pdf-core's `render-layout`
 * worker op: the header of every page names the municipality, its province and the
 * period (and PROVISIONAL for a month not over), the footer the report id and the page.
 * Pure: figures come from the content, words from report-strings.ts; the chart and the
 * decisions and ecosystem sections are built in their own files.
 */
import type { LayoutBlock, LayoutDocument, LayoutInline } from '@firma-riesgo/pdf-core';
import { reportChart } from './report-chart';
import { decisionsSection, ecosystemSection } from './report-context-sections';
import { formatter, monthLabel, monthName } from './report-format';
import { REPORT_STRINGS, type ReportStrings } from './report-strings';
import type { TReportContent } from './schemas';

const t = (text: string): LayoutInline[] => [{ text }];
const b = (text: string): LayoutInline[] => [{ text, bold: true }];
const p = (text: string): LayoutBlock => ({ type: 'paragraph', content: t(text) });
const h = (text: string): LayoutBlock => ({ type: 'heading', level: 2, content: t(text) });

/** The header line of every page. */
export function reportHeader(content: TReportContent): string {
  const s = REPORT_STRINGS[content.lang];
  const parts = [content.municipality.name, s.headerProvince(content.municipality.province), monthLabel(content.periodo, s.locale)];
  if (content.provisional) parts.push(s.provisionalMark);
  if (content.source === 'synthetic') parts.push(s.syntheticMark);
  return parts.join(' · ');
}

/** The province map of a PDF report (report-map.ts): the SVG, its day and how many municipalities it draws. */
export interface ReportMap {
  svg: string;
  date: string;
  drawn: number;
  /** The token that asked for the report sees only some of the province's municipalities. */
  restricted: boolean;
}

export function reportLayout(content: TReportContent, map?: ReportMap): LayoutDocument {
  const s = REPORT_STRINGS[content.lang];
  const f = formatter(s);
  const cls = (code: keyof ReportStrings['classNames']) => s.classNames[code];
  const month = monthLabel(content.periodo, s.locale);
  const name = monthName(content.periodo, s.locale);
  const { history } = content;
  const total = content.period.days_with_data;

  const details: LayoutInline[][] = [
    [...b(`${s.details.municipality}: `), { text: `${content.municipality.name} (${s.details.ineCode} ${content.municipio_id})` }],
    [...b(`${s.details.province}: `), { text: content.municipality.province }],
    [...b(`${s.details.community}: `), { text: content.municipality.community }],
    [...b(`${s.details.period}: `), { text: `${month}, ${s.details.periodRange(content.period.from, content.period.to)}` }],
    t(s.details.daysWithData(total, content.period.days)),
    [...b(`${s.details.dataSource}: `), { text: content.source === 'synthetic' ? s.details.synthetic : s.details.observed }],
    [...b(`${s.details.status}: `), { text: content.provisional ? s.details.provisional : s.details.final }],
    [...b(`${s.details.generatedAt}: `), { text: `${content.generated_at.slice(0, 16).replace('T', ' ')} UTC · ${s.reportIdLabel} ${content.report_id}` }],
  ];

  const summary: LayoutBlock[] = [h(s.sections.summary)];
  if (content.provisional) summary.push(p(s.summary.provisional(content.period.to)));
  const dominant = content.month.dominant_class;
  if (dominant) {
    const label = content.classes.find((c) => c.code === dominant)!;
    summary.push(p(s.summary.dominant(cls(dominant), label.risk_label, label.days, total)));
  }
  if (content.worst_day) summary.push(p(s.summary.worst(content.worst_day.date, f.num(content.worst_day.fwi), cls(content.worst_day.danger_class))));
  if (history.days > 0 && history.dominant_class && history.max && history.mean_fwi !== null) {
    summary.push(
      p(s.summary.history(name, history.first_year!, history.last_year!, history.years, cls(history.dominant_class), f.num(history.mean_fwi), f.num(history.max.fwi), history.max.date)),
    );
    if (content.month.mean_fwi !== null) summary.push(p(s.summary.comparedMean(f.num(content.month.mean_fwi), f.signed(content.month.mean_fwi - history.mean_fwi))));
  } else {
    summary.push(p(s.summary.noHistory(name)));
  }

  const classRows = content.classes.map((c) => [
    t(cls(c.code)),
    t(c.max_fwi === null ? `≥ ${f.num(c.min_fwi)}` : `${f.num(c.min_fwi)} – ${f.num(c.max_fwi)}`),
    t(c.risk_label),
    t(String(c.days)),
    t(f.share(c.days, total)),
    t(f.opt(c.history_days_per_year)),
  ]);
  const labelRange = { LOW: '< 11,2', MEDIUM: '11,2 – 21,3', HIGH: '≥ 21,3' } as const;
  const labelRows = content.labels.map((l) => [
    t(l.label),
    t(labelRange[l.label].replace(/,/g, s.decimal)),
    t(String(l.days)),
    t(f.share(l.days, total)),
    t(f.opt(l.history_days_per_year)),
  ]);

  const historyColumn = history.days > 0 ? s.statsTable.history(history.first_year!, history.last_year!) : s.statsTable.noHistory;
  const statsRows = [
    [t(s.statsTable.mean), t(f.opt(content.month.mean_fwi)), t(f.opt(history.mean_fwi))],
    [
      t(s.statsTable.max),
      t(content.month.max ? `${f.num(content.month.max.fwi)} (${content.month.max.date})` : '—'),
      t(history.max ? `${f.num(history.max.fwi)} (${history.max.date})` : '—'),
    ],
    [t(s.statsTable.p90), t(f.opt(content.month.p90_fwi)), t(f.opt(history.p90_fwi))],
  ];

  const daily = content.days.map((d) => [
    t(d.date),
    t(f.num(d.fwi)),
    t(f.num(d.ffmc)),
    t(f.num(d.dmc)),
    t(f.num(d.dc)),
    t(f.num(d.isi)),
    t(f.num(d.bui)),
    t(cls(d.danger_class)),
    t(f.num(d.temp)),
    t(f.num(d.rh, 0)),
    t(f.num(d.ws)),
    t(f.num(d.prec)),
  ]);

  const m = s.methodology;
  const blocks: LayoutBlock[] = [
    { type: 'title', content: t(s.title) },
    { type: 'list', items: details },
    ...summary,
    h(s.sections.classes),
    {
      type: 'table',
      align: ['left', 'left', 'left', 'right', 'right', 'right'],
      header: [t(s.classTable.cls), t(s.classTable.fwi), t(s.classTable.label), t(s.classTable.days), t(s.classTable.share), t(s.classTable.historyPerYear)],
      rows: classRows,
    },
    {
      type: 'table',
      align: ['left', 'left', 'right', 'right', 'right'],
      header: [t(s.labelTable.label), t(s.labelTable.fwi), t(s.labelTable.days), t(s.labelTable.share), t(s.labelTable.historyPerYear)],
      rows: labelRows,
    },
    h(s.sections.statistics),
    { type: 'table', align: ['left', 'right', 'right'], header: [t(s.statsTable.statistic), t(s.statsTable.month), t(historyColumn)], rows: statsRows },
    ...(content.p90_percentile !== null && content.month.p90_fwi !== null && history.days > 0
      ? [p(s.p90Sentence(f.num(content.month.p90_fwi), f.num(content.p90_percentile), name, history.first_year!, history.last_year!))]
      : []),
    ...reportChart(content, s, f),
    h(s.sections.daily),
    p(s.dailyTable.legend),
    {
      type: 'table',
      align: ['left', 'right', 'right', 'right', 'right', 'right', 'right', 'left', 'right', 'right', 'right', 'right'],
      header: [t(s.dailyTable.date), t('FWI'), t('FFMC'), t('DMC'), t('DC'), t('ISI'), t('BUI'), t(s.dailyTable.cls), t(s.dailyTable.temp), t(s.dailyTable.rh), t(s.dailyTable.ws), t(s.dailyTable.prec)],
      rows: daily,
      // Twelve columns: at the usual size, four-digit codes (DC, BUI late in a dry summer) push the last one off the page.
      compact: true,
    },
    ...decisionsSection(content, s),
    ...ecosystemSection(content, s, f),
    h(s.sections.methodology),
    p(m.fwi),
    p(m.classes),
    p(m.labels),
    p(m.statistics),
    p(m.history),
    p(content.source === 'synthetic' ? m.dataSynthetic : m.dataObserved),
    p(content.provisional ? m.provisional : m.final),
    p(m.digest),
    { type: 'list', items: [t(content.data_sha256)] },
    p(m.seal),
    p(m.chart),
    p(m.decisions),
    p(m.ecosystem),
    p(m.sources),
    { type: 'list', items: content.sources.map((src) => t(`${m.sourceNames[src.id] ?? src.name}: ${src.url}`)) },
    // The province map: a page of its own at the end, so it never splits the sections before it.
    ...(map
      ? ([
          { type: 'page-break' },
          { type: 'heading', level: 2, content: t(s.map.heading(content.municipality.province, map.date)) },
          { type: 'svg', svg: map.svg, caption: t(s.map.caption(content.municipality.name, map.drawn, map.date, map.restricted)) },
        ] satisfies LayoutBlock[])
      : []),
  ];

  return {
    metadata: {
      title: `${s.title}: ${content.municipality.name}, ${month}`,
      author: 'wildfire',
      subject: `${content.municipio_id} ${content.periodo}`,
      keywords: [content.municipio_id, content.periodo, 'FWI', 'EFFIS'],
      creationDate: content.generated_at,
      language: s.language,
      producer: 'firma-riesgo wildfire (pdfmake)',
    },
    header: reportHeader(content),
    footer: `${s.reportIdLabel} ${content.report_id} · ${s.page}`,
    blocks,
  };
}
