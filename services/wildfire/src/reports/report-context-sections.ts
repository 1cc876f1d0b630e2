/**
 * The report's sections from other features: the decisions in force during the month
 * and the fuel and ecosystem context (m10). Pure: figures from the content, words from
 * report-strings.ts.
 */
import type { LayoutBlock, LayoutInline } from '@firma-riesgo/pdf-core';
import type { ReportFormatter } from './report-format';
import type { ReportStrings } from './report-strings';
import type { TReportContent } from './schemas';

const heading = (text: string): LayoutBlock => ({ type: 'heading', level: 2, content: [{ text }] });
const paragraph = (text: string): LayoutBlock => ({ type: 'paragraph', content: [{ text }] });

/** One list item per decision: title, type, scope and dates, then its measures, legal basis and source where it has them. */
export function decisionsSection(content: TReportContent, s: ReportStrings): LayoutBlock[] {
  const d = s.decisions;
  if (content.decisions.length === 0) return [heading(s.sections.decisions), paragraph(d.none)];
  const items = content.decisions.map((decision): LayoutInline[] => {
    const parts = [`${d.types[decision.type]}, ${d.scope(d.levels[decision.scope.level], decision.scope.name)}, ${d.dates(decision.date_from, decision.date_to)}.`];
    if (decision.measures.length > 0) parts.push(`${d.measures}: ${decision.measures.join('; ')}.`);
    if (decision.legal_basis) parts.push(`${d.legalBasis}: ${decision.legal_basis}.`);
    if (decision.source_url) parts.push(`${d.source}: ${decision.source_url}`);
    if (decision.origin === 'automatic') parts.push(d.automatic);
    return [{ text: decision.title, bold: true }, { text: `: ${parts.join(' ')}` }];
  });
  return [heading(s.sections.decisions), paragraph(d.intro(content.decisions.length)), { type: 'list', items }];
}

export function ecosystemSection(content: TReportContent, s: ReportStrings, f: ReportFormatter): LayoutBlock[] {
  const e = s.ecosystem;
  const eco = content.ecosystem;
  if (!eco) return [heading(s.sections.ecosystem), paragraph(e.none)];
  const line = (label: string, value: string): LayoutInline[] => [{ text: `${label}: `, bold: true }, { text: value }];
  return [
    heading(s.sections.ecosystem),
    paragraph(e.intro),
    {
      type: 'list',
      items: [
        line(e.vegetation, eco.vegetation_type_name),
        line(e.fuelModel, eco.fuel_model === null ? e.noFuelModel : `${eco.fuel_model} — ${eco.fuel_model_name}`),
        line(e.fuelLoad, `${f.num(eco.fuel_load_t_ha)} t/ha`),
        line(e.forestCover, `${f.num(eco.forest_cover_pct)} %`),
        line(e.data, eco.source === 'synthetic' ? e.synthetic : e.observed(eco.updated_at?.slice(0, 10) ?? null)),
      ],
    },
  ];
}
