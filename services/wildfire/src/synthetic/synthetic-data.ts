/**
 * What test tokens read: the synthetic climate (climate-model.ts) run through the
 * FWI engine as one series per municipality, started with the standard start values
 * on 1 January of SYNTHETIC_SPIN_UP_YEAR (a year before the earliest date the API
 * serves) and carried from year to year as observed series are (fwi/carry.ts): the
 * codes continue over New Year, and a community whose series stops for the winter
 * (fwi/winter.ts) starts each season from the overwintered DC, so a dry winter's DC
 * carries into spring. A year before the spin-up year starts afresh on 1 January.
 * Computed one municipality-year at a time, cached in a bounded LRU (and each year's
 * final state in a larger one), so repeated requests cost a lookup. Same request, same
 * answer: nothing here reads the clock or the database.
 */
import { eachDay, monthOf } from '../calendar';
import { CodeCarrier, dayLengthForSpanishProvince, initialState, step, WINTER_RULES, type CarriedState, type WinterRules } from '../fwi';
import { provinceOf } from '../municipalities/provinces';
import { EARLIEST_DATE } from '../readings/date-range';
import { readingOf, type Reading } from '../readings/reading';
import { yearOfWeather } from './climate-model';
import { LruCache } from './lru-cache';

/** Municipality-years kept (about 70 kB each). */
export const DEFAULT_SYNTHETIC_CACHE_SIZE = 512;
/** The first year of every synthetic series: the year before the earliest date served. */
export const SYNTHETIC_SPIN_UP_YEAR = Number(EARLIEST_DATE.slice(0, 4)) - 1;
/** Final states kept per municipality-year of readings kept (a state is a few numbers). */
const STATES_PER_YEAR = 32;

const DAY_MS = 86_400_000;

export function createSyntheticData(options: { cacheSize?: number; winterRules?: WinterRules } = {}) {
  const cacheSize = options.cacheSize ?? DEFAULT_SYNTHETIC_CACHE_SIZE;
  const years = new LruCache<string, Reading[]>(cacheSize);
  const finalStates = new LruCache<string, CarriedState>(cacheSize * STATES_PER_YEAR);
  const rules = options.winterRules ?? WINTER_RULES;

  function computeYear(ineCode: string, year: number): Reading[] {
    return computeDays(ineCode, year, eachDay(`${year}-01-01`, `${year}-12-31`));
  }

  /**
   * The series over `days` (consecutive, from 1 January of `year`, carried from the year
   * before): each day depends only on the days before it. A whole year also records its
   * final state, which the next year starts from.
   */
  function computeDays(ineCode: string, year: number, days: string[]): Reading[] {
    const province = provinceOf(ineCode);
    if (!province) throw new RangeError(`no province for municipality code ${ineCode}`);
    const weather = yearOfWeather(ineCode, province, days);
    const dayLength = dayLengthForSpanishProvince(province.code);
    const carrier = new CodeCarrier(rules[province.communityCode] ?? null, year <= SYNTHETIC_SPIN_UP_YEAR ? initialState() : finalState(ineCode, year - 1));
    const first = Date.UTC(year, 0, 1) / DAY_MS;
    const readings = days.map((date, i) => {
      const w = weather[i]!;
      carrier.beginDay(first + i, date);
      const today = step(carrier.current, w, province.lat, monthOf(date), { dayLength });
      carrier.endDay(first + i, date, today.ffmc, today.dmc, today.dc, w.prec);
      return readingOf(date, w, today);
    });
    if (days.at(-1) === `${year}-12-31`) finalStates.set(`${ineCode}|${year}`, carrier.state());
    return readings;
  }

  function year(ineCode: string, year: number): Reading[] {
    return years.getOrCreate(`${ineCode}|${year}`, () => computeYear(ineCode, year));
  }

  /** The state on 31 December of `y`; computing it computes the years before it that are not cached, from the spin-up year on. */
  function finalState(ineCode: string, y: number): CarriedState {
    const key = `${ineCode}|${y}`;
    const known = finalStates.get(key);
    if (known) return known;
    // Oldest first from the latest year known, so each year finds the one before it cached.
    let from = y;
    while (from > SYNTHETIC_SPIN_UP_YEAR && !finalStates.get(`${ineCode}|${from - 1}`)) from--;
    for (let k = from; k <= y; k++) computeYear(ineCode, k);
    return finalStates.get(key)!;
  }

  return {
    /** Every day from `from` to `to` (valid ISO dates, `from` <= `to`), in order. */
    readings(ineCode: string, from: string, to: string): Reading[] {
      const out: Reading[] = [];
      for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++) {
        for (const reading of year(ineCode, y)) if (reading.date >= from && reading.date <= to) out.push(reading);
      }
      return out;
    },
    /**
     * The reading of one day (a valid ISO date): from the cached year when there is one,
     * else the series from 1 January to that day, left out of the cache so that an area
     * of thousands of municipalities does not evict the years single requests use.
     * Equal to `readings(ineCode, date, date)[0]`.
     */
    day(ineCode: string, date: string): Reading {
      const cached = years.peek(`${ineCode}|${date.slice(0, 4)}`);
      if (cached) return cached.find((r) => r.date === date)!;
      const y = Number(date.slice(0, 4));
      return computeDays(ineCode, y, eachDay(`${y}-01-01`, date)).at(-1)!;
    },
    /** How many municipality-years the cache holds (for tests and metrics). */
    cachedYears: () => years.size,
  };
}

export type SyntheticData = ReturnType<typeof createSyntheticData>;
