/** The words of a CAP `<info>` block in Spanish and English. */
import { DANGER_CLASSES, type DangerClass } from '../decision-support/danger-classes';
import type { CapLanguage } from './cap-types';

export interface CapDayText {
  municipality: string;
  province: string;
  date: string;
  observed: boolean;
  leadDays: number;
  danger_class: DangerClass;
  fwi: string;
}

export interface CapStrings {
  /** RFC 3066 tag for `<language>`. */
  language: string;
  event: string;
  headline(t: CapDayText): string;
  description(t: CapDayText): string;
  /** Lead line of `<instruction>` when the measures are given in Spanish only. */
  measuresInSpanish: string | null;
  className(c: DangerClass): string;
}

const NAME_ES = Object.fromEntries(DANGER_CLASSES.map((row) => [row.code, row.nameEs])) as Record<DangerClass, string>;
const NAME_EN: Record<DangerClass, string> = {
  very_low: 'very low', low: 'low', moderate: 'moderate', high: 'high', very_high: 'very high', extreme: 'extreme',
};

const dayEs = (days: number) => (days === 1 ? '1 día' : `${days} días`);
const dayEn = (days: number) => (days === 1 ? '1 day' : `${days} days`);

export const CAP_STRINGS: Readonly<Record<CapLanguage, CapStrings>> = {
  es: {
    language: 'es-ES',
    event: 'Peligro de incendio forestal',
    className: (c) => NAME_ES[c],
    headline: (t) => `Peligro de incendio forestal ${NAME_ES[t.danger_class]} en ${t.municipality} el ${t.date}`,
    description: (t) =>
      `Índice meteorológico de incendios (FWI) ${t.fwi}, clase EFFIS «${NAME_ES[t.danger_class]}», ` +
      (t.observed ? `observado en ${t.municipality} (${t.province}) el ${t.date}.` : `previsto para ${t.municipality} (${t.province}) el ${t.date}, a ${dayEs(t.leadDays)} vista.`),
    measuresInSpanish: null,
  },
  en: {
    language: 'en-GB',
    event: 'Wildfire danger',
    className: (c) => NAME_EN[c],
    headline: (t) => `${capitalise(NAME_EN[t.danger_class])} wildfire danger in ${t.municipality} on ${t.date}`,
    description: (t) =>
      `Fire Weather Index (FWI) ${t.fwi}, EFFIS class "${NAME_EN[t.danger_class]}", ` +
      (t.observed ? `observed in ${t.municipality} (${t.province}) on ${t.date}.` : `forecast for ${t.municipality} (${t.province}) on ${t.date}, ${dayEn(t.leadDays)} ahead.`),
    measuresInSpanish: 'Measures in force (official Spanish wording):',
  },
};

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
