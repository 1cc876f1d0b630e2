/** What the framing tests read in an answer's texts: its numbers and any Spanish left in it. */
import type { FramingLang } from '../languages';

type Body = Record<string, unknown>;
export const TEXT_FIELDS = ['headline', 'summary', 'key_messages', 'call_to_action'];

/** Every number of the answer outside its texts (absolute values), and the day and year of every date in it. */
export function fieldNumbers(value: unknown, key = '', out = new Set<number>()): Set<number> {
  if (TEXT_FIELDS.includes(key) || key === 'uncertainty' || key === 'sources' || key === 'measures_in_force') return out;
  if (typeof value === 'number') out.add(Math.abs(value));
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) [Number(value.slice(0, 4)), Number(value.slice(8, 10))].forEach((n) => out.add(n));
  else if (Array.isArray(value)) value.forEach((v) => fieldNumbers(v, '', out));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) fieldNumbers(v, k, out);
  return out;
}

/** The numbers written in the answer's texts, read with the decimal separator of `lang` (a point in en, a comma otherwise). */
export function textNumbers(body: Body, lang: FramingLang): number[] {
  const text = TEXT_FIELDS.flatMap((f) => body[f] as string | string[]).join(' ');
  const pattern = lang === 'en' ? /\d+(?:\.\d+)?/g : /\d+(?:,\d+)?/g;
  return (text.match(pattern) ?? []).map((n) => Number(n.replace(',', '.')));
}

/** Asserts that every number in the texts equals a field of the answer. */
export function expectNumbersEqualFields(body: Body): void {
  const allowed = fieldNumbers(body);
  for (const n of textNumbers(body, body.lang as FramingLang)) expect([n, allowed.has(n)]).toEqual([n, true]);
}

/**
 * Spanish words that none of ca, gl, eu and en uses, so one found in their texts is
 * Spanish left behind: the month names other than marzo, abril, agosto and octubre
 * (Galician or Catalan words too), and common words of the Spanish templates.
 */
const SPANISH_ONLY = [
  'enero', 'febrero', 'mayo', 'junio', 'julio', 'septiembre', 'noviembre', 'diciembre',
  'peligro', 'muy', 'bajo', 'fuego', 'humo', 'llame', 'aléjese', 'ley', 'año', 'años', 'los', 'las', 'días', 'tuvo', 'según', 'índice meteorológico', 'prohibido el uso',
];

/** The Spanish-only words in every text of the answer (uncertainty included), whole words, case-insensitive. */
export function spanishWordsIn(body: Body, lang: FramingLang): string[] {
  const text = [...TEXT_FIELDS, 'uncertainty'].flatMap((f) => body[f] as string | string[]).join(' ');
  // Galician writes "días" too.
  const words = SPANISH_ONLY.filter((w) => !(lang === 'gl' && w === 'días'));
  return words.filter((w) => new RegExp(`(?<!\\p{L})${w}(?!\\p{L})`, 'iu').test(text));
}
