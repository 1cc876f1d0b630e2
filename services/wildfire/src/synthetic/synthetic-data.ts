/**
 * What test tokens read: the synthetic climate (climate-model.ts) run through the
 * FWI engine from 1 January of each year with the standard start values, one
 * municipality-year at a time, cached in a bounded LRU so that repeated requests
 * cost a lookup. Same request, same answer: nothing here reads the clock or the
 * database.
 */
import { eachDay, monthOf } from '../calendar';
import { computeSeries, dayLengthForSpanishProvince } from '../fwi';
import { provinceOf } from '../municipalities/provinces';
import { readingOf, type Reading } from '../readings/reading';
import { yearOfWeather } from './climate-model';
import { LruCache } from './lru-cache';

/** Municipality-years kept (about 70 kB each). */
export const DEFAULT_SYNTHETIC_CACHE_SIZE = 512;

export function createSyntheticData(options: { cacheSize?: number } = {}) {
  const years = new LruCache<string, Reading[]>(options.cacheSize ?? DEFAULT_SYNTHETIC_CACHE_SIZE);

  function computeYear(ineCode: string, year: number): Reading[] {
    return computeDays(ineCode, eachDay(`${year}-01-01`, `${year}-12-31`));
  }

  /** The series over `days` (consecutive, from 1 January): each day depends only on the days before it. */
  function computeDays(ineCode: string, days: string[]): Reading[] {
    const province = provinceOf(ineCode);
    if (!province) throw new RangeError(`no province for municipality code ${ineCode}`);
    const weather = yearOfWeather(ineCode, province, days);
    const series = computeSeries(
      weather.map((w, i) => ({ ...w, lat: province.lat, month: monthOf(days[i]!) })),
      {},
      { dayLength: dayLengthForSpanishProvince(province.code) },
    );
    return series.map((day, i) => readingOf(days[i]!, weather[i]!, day));
  }

  function year(ineCode: string, year: number): Reading[] {
    return years.getOrCreate(`${ineCode}|${year}`, () => computeYear(ineCode, year));
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
      return computeDays(ineCode, eachDay(`${date.slice(0, 4)}-01-01`, date)).at(-1)!;
    },
    /** How many municipality-years the cache holds (for tests and metrics). */
    cachedYears: () => years.size,
  };
}

export type SyntheticData = ReturnType<typeof createSyntheticData>;
