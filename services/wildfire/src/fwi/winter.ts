/**
 * When a community's FWI series stops for the winter and restarts in spring, and the
 * overwintering fractions of its Drought Code (overwinter.ts).
 *
 * A rule `{stop, restart}` (recurring `MM-DD` days) makes the days from `stop` to the
 * day before `restart` the winter. The daily equations still run through it, so every
 * day has a reading, but they are not carried into spring: on the restart day the
 * codes start again from FFMC 85, DMC 6 and the overwintered DC, computed from the DC
 * of the day before `stop` (the fall DC) and the precipitation of the winter's days.
 * A community without a rule (null) never stops: its series simply continues.
 *
 * Built-in table, the project's reading of the Spanish climate (AEMET/IM Iberian
 * Climate Atlas 2011), overridable per community by WILDFIRE_DC_WINTER (config.ts):
 *  - the continental interior (Aragón, Castilla y León, Castilla-La Mancha, Madrid,
 *    Navarra, La Rioja), with frost and snow cover from December to February, stops
 *    on 1 December and restarts on 1 March;
 *  - the Cantabrian coast (Galicia, Asturias, Cantabria, País Vasco) burns in February
 *    and March under dry southerly winds, and the Mediterranean coast, Andalucía,
 *    Extremadura, the Balearic and Canary Islands, Ceuta and Melilla have mild winters
 *    with fires in any month: their series never stops.
 * Fractions: a = 1.0, as Lawson & Armitage's table 1 gives when the daily DC ran until
 * freeze-up or snow cover (here: until the stop day); b = 0.75, their value for
 * moderately drained sites where the ground does not freeze deeply before late fall.
 */
import { COMMUNITIES } from '../municipalities/provinces';

export interface WinterRule {
  /** First day of the winter, `MM-DD`. */
  stop: string;
  /** First day of the new season, `MM-DD`; the codes restart on it. */
  restart: string;
  /** Carry-over fraction, (0, 1]. */
  a: number;
  /** Wetting efficiency, [0, 1]. */
  b: number;
}

/** Community code (INE, two digits) → its winter rule, or null where the series never stops. */
export type WinterRules = Readonly<Record<string, WinterRule | null>>;

export const DEFAULT_WINTER_FRACTIONS = Object.freeze({ a: 1.0, b: 0.75 });

const INTERIOR: WinterRule = Object.freeze({ stop: '12-01', restart: '03-01', ...DEFAULT_WINTER_FRACTIONS });
const INTERIOR_COMMUNITIES = new Set(['02', '07', '08', '13', '15', '17']);

/** The built-in rules, one per community of COMMUNITIES. */
export const WINTER_RULES: WinterRules = Object.freeze(Object.fromEntries(Object.keys(COMMUNITIES).map((code) => [code, INTERIOR_COMMUNITIES.has(code) ? INTERIOR : null])));

/** `MM-DD` of an ISO day. */
export const monthDayOf = (iso: string) => iso.slice(5, 10);

/** Whether a day (`MM-DD`) is in the winter of `rule`; a winter may run across New Year (12-01 to 03-01). */
export function inWinter(monthDay: string, rule: WinterRule): boolean {
  return rule.stop <= rule.restart ? monthDay >= rule.stop && monthDay < rule.restart : monthDay >= rule.stop || monthDay < rule.restart;
}

/** The year of the latest restart day on or before `iso`: it grows by one each time a restart day is passed. */
export function seasonYearOf(iso: string, rule: WinterRule): number {
  const year = Number(iso.slice(0, 4));
  return monthDayOf(iso) >= rule.restart ? year : year - 1;
}

/** The first day (ISO) of the winter holding `iso`, or ending on it (its restart day); null when neither. */
export function winterStartOf(iso: string, rule: WinterRule): string | null {
  const md = monthDayOf(iso);
  if (!inWinter(md, rule) && md !== rule.restart) return null;
  const year = Number(iso.slice(0, 4));
  const sameYear = `${iso.slice(0, 4)}-${rule.stop}`;
  return sameYear <= iso ? sameYear : `${String(year - 1).padStart(4, '0')}-${rule.stop}`;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isMonthDay = (text: string) => {
  const m = /^(\d{2})-(\d{2})$/.exec(text);
  return m !== null && Number(m[2]) >= 1 && Number(m[2]) <= (MONTH_DAYS[Number(m[1]) - 1] ?? 0);
};
const fraction = (text: string, aboveZero: boolean) => {
  const value = /^(?:0|1)(?:\.\d+)?$/.test(text) ? Number(text) : NaN;
  return value <= 1 && (aboveZero ? value > 0 : value >= 0) ? value : undefined;
};

/**
 * WILDFIRE_DC_WINTER: comma-separated `CC=MM-DD>MM-DD[:a:b]` (a community's winter
 * stop and restart, and optionally its fractions, default 1.0 and 0.75) or `CC=none`
 * (no winter stop), over the built-in table; e.g. `07=11-15>03-15:1:0.9,13=none`.
 * 29 February is never a bound. Throws an Error naming the entry.
 */
export function parseWinterRules(text: string, base: WinterRules = WINTER_RULES): WinterRules {
  const rules: Record<string, WinterRule | null> = { ...base };
  const seen = new Set<string>();
  const hint = 'expected CC=MM-DD>MM-DD, CC=MM-DD>MM-DD:a:b or CC=none, e.g. 07=11-15>03-15:1:0.75';
  for (const entry of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const [code = '', value = '', ...extra] = entry.split('=').map((s) => s.trim());
    if (extra.length > 0 || value === '') throw new Error(`"${entry}": ${hint}`);
    if (!(code in COMMUNITIES)) throw new Error(`"${entry}": "${code}" is not a community code (01 to 19)`);
    if (seen.has(code)) throw new Error(`"${entry}": community ${code} is listed more than once`);
    seen.add(code);
    if (value === 'none') {
      rules[code] = null;
      continue;
    }
    const [span = '', aText, bText, ...more] = value.split(':');
    const [stop = '', restart = '', ...rest] = span.split('>');
    if (more.length > 0 || rest.length > 0 || (aText === undefined) !== (bText === undefined)) throw new Error(`"${entry}": ${hint}`);
    if (!isMonthDay(stop) || !isMonthDay(restart)) throw new Error(`"${entry}": the stop and restart must be days MM-DD other than 02-29`);
    if (stop === restart) throw new Error(`"${entry}": the stop and restart must differ`);
    const a = aText === undefined ? DEFAULT_WINTER_FRACTIONS.a : fraction(aText, true);
    const b = bText === undefined ? DEFAULT_WINTER_FRACTIONS.b : fraction(bText, false);
    if (a === undefined) throw new Error(`"${entry}": a must be a fraction above 0 and at most 1`);
    if (b === undefined) throw new Error(`"${entry}": b must be a fraction from 0 to 1`);
    rules[code] = { stop, restart, a, b };
  }
  return Object.freeze(rules);
}
