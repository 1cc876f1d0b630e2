/** The languages framing accepts (interface: `lang`, default es). */
export const FRAMING_LANGS = ['es', 'ca', 'gl', 'eu', 'en'] as const;
export type FramingLang = (typeof FRAMING_LANGS)[number];

/** Every number in a text is written with this decimal separator: a comma in es, ca, gl and eu, a point in en. */
const DECIMAL_SEPARATOR: Record<FramingLang, ',' | '.'> = { es: ',', ca: ',', gl: ',', eu: ',', en: '.' };

/**
 * A figure as the language writes it, with no thousands separator (the figures are
 * FWI values, percentages, day counts and years, all below 10000, and a year is never
 * grouped): 40.4 is "40,4" in es, ca, gl and eu, "40.4" in en.
 */
export function formatNumber(x: number, lang: FramingLang): string {
  return String(x).replace('.', DECIMAL_SEPARATOR[lang]);
}
