/**
 * Fills the templates with one assessment's facts. Pure and deterministic: the same
 * assessment, audience and language give the same text. Every number written comes
 * from a field of the answer, formatted with a Spanish decimal comma.
 */
import type { Assessment } from '../decision-support/service';
import { DANGER_CLASSES } from '../decision-support/danger-classes';
import { TEMPLATES, toneOf, type Audience, type LanguageTemplates } from './templates-es';

export const FRAMING_LANGS = ['es', 'ca', 'gl', 'eu', 'en'] as const;
export type FramingLang = (typeof FRAMING_LANGS)[number];
/** The emergency number every call to action gives (112, EU-wide). */
export const EMERGENCY_NUMBER = 112;

const one = (x: number) => Math.round(x * 10) / 10;

export function framingOf(a: Assessment, audience: Audience, requested: FramingLang) {
  const lang: FramingLang = TEMPLATES[requested] ? requested : 'es';
  const t = TEMPLATES[lang] as LanguageTemplates;
  const num = (x: number) => String(x).replace('.', ',');
  const day = (iso: string) => `${Number(iso.slice(8, 10))} de ${t.months[Number(iso.slice(5, 7)) - 1]} de ${iso.slice(0, 4)}`;
  const fill = (template: string, slots: Record<string, string>) => template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? `{${k}}`);
  const cls = DANGER_CLASSES.find((c) => c.code === a.dangerClass.code)!;

  const fwi = one(a.reading.fwi);
  const lastYear = a.lastYear && { date: a.lastYear.date, fwi: one(a.lastYear.fwi), difference: one(fwi - one(a.lastYear.fwi)) };
  const historyMax = a.historyMax && { date: a.historyMax.date, fwi: one(a.historyMax.fwi), difference: one(fwi - one(a.historyMax.fwi)) };
  const trend = { direction: a.trend.direction, change: a.trend.change === null ? null : one(a.trend.change), days: a.trend.days.length };
  const slots = {
    municipio: a.municipality.name,
    fecha: day(a.date),
    fwi: num(fwi),
    nivel: cls.nameEs,
    telefono: String(EMERGENCY_NUMBER),
  };

  const messages: string[] = [];
  if (a.percentile !== null) {
    messages.push(
      fill(t.percentile, { dias: String(a.percentileBasis.days), anios: String(a.percentileBasis.years), ventana: String(a.percentileBasis.window_days), percentil: num(a.percentile) }),
    );
  }
  if (trend.direction !== null && trend.change !== null) messages.push(fill(t.trend[trend.direction], { cambio: num(Math.abs(trend.change)), dias_tendencia: String(trend.days) }));
  if (lastYear) messages.push(fill(t.lastYear, { fwi_anterior: num(lastYear.fwi) }));
  if (historyMax) messages.push(fill(t.historyMax, { fwi_maximo: num(historyMax.fwi), fecha_maximo: day(historyMax.date) }));
  if (toneOf(cls.code) === 'act') messages.push(t.bans);

  return {
    municipio_id: a.municipioId,
    municipality: a.municipality,
    date: a.date,
    audience,
    lang,
    requested_lang: requested,
    danger_class: cls.code,
    fwi,
    headline: fill(t.headline[cls.code], slots),
    summary: fill(t.summary, slots),
    key_messages: messages,
    call_to_action: fill(t.callToAction[audience][toneOf(cls.code)], slots),
    emergency_number: EMERGENCY_NUMBER,
    context: {
      percentile: a.percentile,
      percentile_basis: { years: a.percentileBasis.years, days: a.percentileBasis.days, window_days: a.percentileBasis.window_days },
      vs_last_year: lastYear,
      vs_history_max: historyMax,
      trend,
      season: a.season,
    },
    measures_in_force: a.measures.filter((m) => m.legal_basis !== null).map((m) => ({ code: m.code, title: m.title, legal_basis: m.legal_basis! })),
    uncertainty: t.uncertainty[a.source],
    source: a.source,
    sources: a.sources,
  };
}

export type Framing = ReturnType<typeof framingOf>;
