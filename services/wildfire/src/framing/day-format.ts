/**
 * A day (YYYY-MM-DD) written out in each framing language, in the three shapes the
 * texts need: on its own (`day`), as "on that day" (`on`) and as "from that day"
 * (`of`). Written by hand rather than with `Intl.DateTimeFormat`: ICU writes Basque as
 * "2025(e)ko uztailaren 14(a)", leaving the suffix choice to the reader, writes
 * Catalan "del 2025" with a typographic apostrophe, and its data changes between Node
 * releases, which would change texts that must stay the same for the same inputs.
 *
 * - es "14 de julio de 2025"; on "el 14 de julio de 2025"; of "del 14 de julio de 2025".
 * - ca "14 de juliol de 2025", "d'abril", "d'agost", "d'octubre" (elision before a
 *   vowel); the article elides before 1 and 11 ("l'1 d'abril", "de l'11 de setembre").
 * - gl "14 de xullo de 2025"; on "o 14 …"; of "do 14 …".
 * - eu "2025eko uztailaren 14a"; on "2025eko uztailaren 14an"; of "2025eko uztailaren
 *   14koa": Basque declines the number itself, see `basqueEnding`.
 * - en "14 July 2025"; on "on 14 July 2025"; of "from 14 July 2025".
 */
import type { FramingLang } from './languages';

export interface DayFormat {
  /** The date on its own. */
  day(iso: string): string;
  /** The date as an adverbial of time ("on 14 July 2025"), lower case: the caller capitalises a sentence. */
  on(iso: string): string;
  /** The date a figure is from ("from 14 July 2025"). */
  of(iso: string): string;
}

const parts = (iso: string) => ({ year: Number(iso.slice(0, 4)), month: Number(iso.slice(5, 7)) - 1, day: Number(iso.slice(8, 10)) });

const ES_MONTHS = ['enero', 'febrero', 'marzo', 'abril', 'mayo', 'junio', 'julio', 'agosto', 'septiembre', 'octubre', 'noviembre', 'diciembre'];
const CA_MONTHS = ['gener', 'febrer', 'març', 'abril', 'maig', 'juny', 'juliol', 'agost', 'setembre', 'octubre', 'novembre', 'desembre'];
const GL_MONTHS = ['xaneiro', 'febreiro', 'marzo', 'abril', 'maio', 'xuño', 'xullo', 'agosto', 'setembro', 'outubro', 'novembro', 'decembro'];
/** Basque month names in the genitive ("of July"), as a date writes them. */
const EU_MONTHS_GENITIVE = ['urtarrilaren', 'otsailaren', 'martxoaren', 'apirilaren', 'maiatzaren', 'ekainaren', 'uztailaren', 'abuztuaren', 'irailaren', 'urriaren', 'azaroaren', 'abenduaren'];
const EN_MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

const esDay = (iso: string) => {
  const p = parts(iso);
  return `${p.day} de ${ES_MONTHS[p.month]} de ${p.year}`;
};

/** Catalan "de" elides before a vowel: "d'abril", "d'agost", "d'octubre". */
const caDe = (word: string) => (/^[aeiouàèéíòóú]/i.test(word) ? `d'${word}` : `de ${word}`);
/** The Catalan article elides before a number said with a vowel: 1 ("u") and 11 ("onze"). */
const caElides = (n: number) => n === 1 || n === 11;
const caDay = (iso: string) => {
  const p = parts(iso);
  return `${p.day} ${caDe(CA_MONTHS[p.month]!)} de ${p.year}`;
};

const glDay = (iso: string) => {
  const p = parts(iso);
  return `${p.day} de ${GL_MONTHS[p.month]} de ${p.year}`;
};

/**
 * How a Basque number takes its suffixes depends on the last word said: "bat" (1),
 * "bost" (5), "hamar" (10), "hamabost" (15) and "-ehun" (hundreds) end in a consonant
 * and take an epenthetic e (2025eko, 1ean, 10ean, 1900eko); "hamaika" (11) and "mila"
 * (thousands) end in a: no e, and no second a (2011ko, 11n, 2000n; the article is
 * already there: "11"); every other number ends in another vowel (2024ko, 14an, 20an).
 * Numbers from 20 are said by twenties ("hogeita hamar" 30, "berrogeita hamaika" 51),
 * so what counts is the last two digits modulo 20. Source: Euskaltzaindia's rules for
 * writing dates and numbers, as the Euskara Batuaren Eskuliburua gives them ("2001eko
 * abenduaren 13an", "11n", "31ra", "71ko").
 */
export type BasqueEnding = 'consonant' | 'a' | 'vowel';
export function basqueEnding(n: number): BasqueEnding {
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`a whole number >= 1 is needed, got ${n}`);
  const lastTwo = n % 100;
  if (lastTwo === 0) return n % 1000 === 0 ? 'a' : 'consonant';
  const unit = lastTwo < 20 ? lastTwo : lastTwo % 20;
  if (unit === 0) return 'vowel';
  if (unit === 1 || unit === 5 || unit === 10 || unit === 15) return 'consonant';
  return unit === 11 ? 'a' : 'vowel';
}

/** The suffixes a Basque date uses: -ko ("of", locative genitive), -n ("on", inessive) and -a (the article). */
const EU_SUFFIX: Record<'ko' | 'n' | 'a', Record<BasqueEnding, string>> = {
  ko: { consonant: 'eko', vowel: 'ko', a: 'ko' },
  n: { consonant: 'ean', vowel: 'an', a: 'n' },
  a: { consonant: 'a', vowel: 'a', a: '' },
};
export const basqueSuffix = (n: number, suffix: keyof typeof EU_SUFFIX) => `${n}${EU_SUFFIX[suffix][basqueEnding(n)]}`;

const euDate = (iso: string, daySuffix: (day: number) => string) => {
  const p = parts(iso);
  return `${basqueSuffix(p.year, 'ko')} ${EU_MONTHS_GENITIVE[p.month]} ${daySuffix(p.day)}`;
};

const enDay = (iso: string) => {
  const p = parts(iso);
  return `${p.day} ${EN_MONTHS[p.month]} ${p.year}`;
};

export const DAY_FORMATS: Record<FramingLang, DayFormat> = {
  es: { day: esDay, on: (iso) => `el ${esDay(iso)}`, of: (iso) => `del ${esDay(iso)}` },
  ca: {
    day: caDay,
    on: (iso) => (caElides(parts(iso).day) ? `l'${caDay(iso)}` : `el ${caDay(iso)}`),
    of: (iso) => (caElides(parts(iso).day) ? `de l'${caDay(iso)}` : `del ${caDay(iso)}`),
  },
  gl: { day: glDay, on: (iso) => `o ${glDay(iso)}`, of: (iso) => `do ${glDay(iso)}` },
  eu: {
    day: (iso) => euDate(iso, (d) => basqueSuffix(d, 'a')),
    on: (iso) => euDate(iso, (d) => basqueSuffix(d, 'n')),
    // "-koa": the -ko form with the article, "the one of the 25th".
    of: (iso) => euDate(iso, (d) => `${basqueSuffix(d, 'ko')}a`),
  },
  en: { day: enDay, on: (iso) => `on ${enDay(iso)}`, of: (iso) => `from ${enDay(iso)}` },
};
