/**
 * Fills the templates with one assessment's facts. Pure and deterministic: the same
 * assessment, audience and language give the same text. Every number written comes
 * from a field of the answer, with the language's decimal separator (languages.ts);
 * days are written as the language writes them (day-format.ts), and the level by its
 * name in that language (level-names.ts).
 */
import type { DangerClass } from '../decision-support/danger-classes';
import type { Assessment } from '../decision-support/service';
import { DAY_FORMATS } from './day-format';
import { formatNumber, type FramingLang } from './languages';
import { LEVEL_NAMES } from './level-names';
import { templatesFor } from './templates';
import { toneOf, type Audience } from './templates-es';

export { FRAMING_LANGS, type FramingLang } from './languages';
/** One forecast day as framing takes it: the day, its lead days (days after today in Spain: 1 is tomorrow), and its EFFIS class. */
export interface ForecastDay {
  date: string;
  lead_days: number;
  danger_class: DangerClass;
}

/** The emergency number every call to action gives (112, EU-wide). */
export const EMERGENCY_NUMBER = 112;

const one = (x: number) => Math.round(x * 10) / 10;
/** A filled template starts a sentence or a headline: its first letter is a capital ("el 20 de julio…" → "El 20 de julio…"). */
const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/**
 * The framing of one assessment. `forecast`: the days after the framed one, when the
 * service has a forecast for it; days with `lead_days` below 1 are ignored, and with
 * none left the answer has no `forecast` section.
 */
export function framingOf(a: Assessment, audience: Audience, requested: FramingLang, forecast: readonly ForecastDay[] = []) {
  const { lang, t } = templatesFor(requested);
  const num = (x: number) => formatNumber(x, lang);
  const days = DAY_FORMATS[lang];
  const fill = (template: string, slots: Record<string, string>) => capitalised(template.replace(/\{(\w+)\}/g, (_, k: string) => slots[k] ?? `{${k}}`));
  const cls = a.dangerClass;

  const fwi = one(a.reading.fwi);
  const lastYear = a.lastYear && { date: a.lastYear.date, fwi: one(a.lastYear.fwi), difference: one(fwi - one(a.lastYear.fwi)) };
  const historyMax = a.historyMax && { date: a.historyMax.date, fwi: one(a.historyMax.fwi), difference: one(fwi - one(a.historyMax.fwi)) };
  const trend = { direction: a.trend.direction, change: a.trend.change === null ? null : one(a.trend.change), days: a.trend.days.length };
  const slots = {
    municipio: a.municipality.name,
    fecha: days.on(a.date),
    fwi: num(fwi),
    nivel: LEVEL_NAMES[lang][cls.code],
    telefono: String(EMERGENCY_NUMBER),
  };

  const messages: string[] = [];
  // A sample of the day alone compares it with nothing: no message (the fields still say so).
  if (a.percentile !== null && a.percentileBasis.days > 1) {
    messages.push(
      fill(t.percentile[a.percentileBasis.years === 1 ? 'oneYear' : 'years'], { dias: String(a.percentileBasis.days), anios: String(a.percentileBasis.years), ventana: String(a.percentileBasis.window_days), percentil: num(a.percentile) }),
    );
  }
  if (trend.direction !== null && trend.change !== null) messages.push(fill(t.trend[trend.direction], { cambio: num(Math.abs(trend.change)), dias_tendencia: String(trend.days) }));
  if (lastYear) messages.push(fill(t.lastYear, { fwi_anterior: num(lastYear.fwi) }));
  if (historyMax) messages.push(fill(t.historyMax, { fwi_maximo: num(historyMax.fwi), fecha_maximo: days.of(historyMax.date) }));
  if (toneOf(cls.code) === 'act') messages.push(t.bans);

  const ahead = forecast.filter((d) => d.lead_days >= 1).sort((x, y) => x.lead_days - y.lead_days);
  const dayName = (d: ForecastDay) => (d.lead_days === 1 ? t.forecast.tomorrow : d.lead_days === 2 ? t.forecast.dayAfter : days.on(d.date));
  const forecastSection =
    ahead.length === 0
      ? undefined
      : {
          days: ahead.map((d) => ({ date: d.date, lead_days: d.lead_days, danger_class: d.danger_class })),
          text: `${fill(ahead.map((d) => t.forecast.item.replace('{dia}', dayName(d)).replace('{nivel}', LEVEL_NAMES[lang][d.danger_class])).join('; '), {})}.`,
        };

  return {
    municipio_id: a.municipioId,
    municipality: a.municipality,
    date: a.date,
    audience,
    lang,
    requested_lang: requested,
    danger_class: cls.code,
    fwi,
    headline: fill(t.headline[audience][cls.code], slots),
    summary: fill(t.summary[audience][toneOf(cls.code)], slots),
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
    ...(forecastSection && { forecast: forecastSection }),
  };
}

export type Framing = ReturnType<typeof framingOf>;
