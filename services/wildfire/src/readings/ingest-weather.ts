/**
 * `wildfire ingest weather FILE.csv`: loads noon weather and stores the daily
 * readings computed from it.
 *
 * 1. Every row is validated while it streams into a staging table (COPY on Postgres);
 *    the first bad row, a repeated municipality-day or an unknown municipality
 *    rejects the file with its line number, and the transaction loads nothing.
 * 2. For each municipality, the FWI System runs in date order from its first day in
 *    the file, continuing from the codes stored for the day before (or the standard
 *    start values when there is none), through the file's days and any stored days
 *    after them, which are recomputed since their codes depend on the new ones.
 * 3. The readings are upserted; identical rows are left alone. Loading the same file
 *    twice changes nothing; a file that extends a series continues it.
 *
 * Gaps: the codes carry over a gap of up to MAX_CARRY_GAP_DAYS missing days as if
 * the days were consecutive (cffdrs's behaviour); after a longer gap the series
 * restarts from the start values, as after a winter.
 */
import type pg from 'pg';
import type { MergeCounts } from '../db/bulk-merge';
import { daysBetween, monthOf } from '../calendar';
import { CsvInputError, fileLines } from '../csv-input';
import { DEFAULT_START_CODES, step, type FwiCodes } from '../fwi';
import { provinceOf } from '../municipalities/provinces';
import { readingOf } from './reading';
import type { MunicipalitiesService } from '../municipalities/service';
import type { ReadingsRepository, SeriesDay, SeriesStart } from './repository';
import { weatherRows } from './weather-csv';

export const MAX_CARRY_GAP_DAYS = 7;
/** Municipalities computed per round trip; bounds memory whatever the file size. */
const MUNICIPALITIES_PER_BATCH = 250;

export interface WeatherIngestSummary extends MergeCounts {
  /** Rows of the file. */
  rows: number;
  municipalities: number;
  first_date: string;
  last_date: string;
  /** Readings computed: the file's days plus stored days after them. */
  computed: number;
  unchanged: number;
  /** Times a series restarted from the start values after a gap of more than MAX_CARRY_GAP_DAYS days. */
  restarts: number;
}

export interface IngestWeatherDeps {
  repo: Pick<ReadingsRepository, 'withWeatherIngestion'>;
  municipalities: Pick<MunicipalitiesService, 'locations'>;
  /** Today in Spain: the file may hold no later day. */
  today: () => string;
  /** Runs in the ingestion's transaction once the readings are written, over each municipality from its first day in the file. */
  afterReadings: (tx: pg.ClientBase, touched: readonly { municipio_id: string; first: string }[]) => Promise<unknown>;
}

/** Runs the FWI System over one municipality's merged series; returns reading rows in the staging column order. */
export function computeMunicipality(lat: number, days: readonly SeriesDay[], start: SeriesStart | undefined): { rows: (string | number)[][]; restarts: number } {
  let codes: FwiCodes = start ? { ffmc: start.ffmc, dmc: start.dmc, dc: start.dc } : { ...DEFAULT_START_CODES };
  let previous = start?.date;
  let restarts = 0;
  const rows = days.map((day) => {
    if (previous !== undefined && daysBetween(previous, day.date) > MAX_CARRY_GAP_DAYS + 1) {
      codes = { ...DEFAULT_START_CODES };
      restarts++;
    }
    const out = step(codes, day, lat, monthOf(day.date));
    codes = out;
    previous = day.date;
    const r = readingOf(day.date, day, out);
    return [day.municipio_id, r.date, r.temp, r.rh, r.ws, r.prec, r.ffmc, r.dmc, r.dc, r.isi, r.bui, r.fwi, r.dsr, r.riskScore, r.riskLabel];
  });
  return { rows, restarts };
}

export function createIngestWeather(deps: IngestWeatherDeps) {
  return async function ingestWeather(path: string): Promise<WeatherIngestSummary> {
    const locations = await deps.municipalities.locations();
    const today = deps.today();
    return deps.repo.withWeatherIngestion(async (ingestion) => {
      const rows = await ingestion.stage(weatherRows(fileLines(path), { isKnown: (code) => locations.has(code), today }));
      if (rows === 0) throw new CsvInputError('the file has a header but no weather rows', 2);
      const duplicate = await ingestion.firstDuplicate();
      if (duplicate) {
        const [first, again] = duplicate.lines;
        throw new CsvInputError(`line ${again}: municipality ${duplicate.municipio_id} on ${duplicate.date} already appears on line ${first}`, again!);
      }
      const staged = await ingestion.stagedMunicipalities();
      await ingestion.createReadingsStaging();
      let computed = 0;
      let restarts = 0;
      for (let i = 0; i < staged.length; i += MUNICIPALITIES_PER_BATCH) {
        const batch = staged.slice(i, i + MUNICIPALITIES_PER_BATCH).map((m) => m.municipio_id);
        const { days, starts } = await ingestion.series(batch);
        const startOf = new Map(starts.map((s) => [s.municipio_id, s]));
        const out: (string | number)[][] = [];
        let from = 0;
        while (from < days.length) {
          const id = days[from]!.municipio_id;
          let to = from;
          while (to < days.length && days[to]!.municipio_id === id) to++;
          const where = locations.get(id)!;
          // Latitude picks the day-length tables; a municipality without coordinates takes its province capital's.
          const lat = where.lat ?? provinceOf(id)!.lat;
          const result = computeMunicipality(lat, days.slice(from, to), startOf.get(id));
          for (const row of result.rows) out.push(row);
          restarts += result.restarts;
          from = to;
        }
        computed += await ingestion.stageReadings(out);
      }
      const { inserted, updated } = await ingestion.merge();
      await deps.afterReadings(ingestion.transaction, staged);
      return {
        rows,
        municipalities: staged.length,
        first_date: staged.reduce((min, m) => (m.first < min ? m.first : min), staged[0]!.first),
        last_date: staged.reduce((max, m) => (m.last > max ? m.last : max), staged[0]!.last),
        computed,
        inserted,
        updated,
        unchanged: computed - inserted - updated,
        restarts,
      };
    });
  };
}
