/**
 * `wildfire ingest weather FILE.csv`: loads noon weather and stores the daily
 * readings computed from it.
 *
 * 1. Every row is validated as the file streams in and kept column by column in typed
 *    arrays (weather-stream.ts); the first bad row, a repeated municipality-day or an unknown municipality
 *    rejects the file with its line number, and the transaction loads nothing. Inside the
 *    transaction, one query checks and locks the file's municipalities (the readings table
 *    has no per-row foreign key check: see tables.ts).
 * 2. The rows are grouped per municipality and date (they need not be contiguous).
 *    One query loads the codes stored for the day before each municipality's first
 *    day in the file, one more the stored readings from that day on.
 * 3. For each municipality, the FWI System runs in date order from there (or from the
 *    standard start values when nothing is stored before), through the file's days
 *    and any stored days after them, which are recomputed since their codes depend on
 *    the new ones (compute-readings.ts).
 * 4. Readings with no stored row are written straight into the table (binary COPY on
 *    Postgres), in primary-key order, which keeps the index insertions at the right
 *    edge of the B-tree, batch by batch as the FWI produces them, so the database
 *    writes one batch while the next is computed; changed ones are merged in one statement; identical ones are left
 *    alone. Loading the same file twice changes nothing; a file that extends a series
 *    continues it.
 * 5. `afterReadings` (the automatic decisions) runs in the same transaction, handed the
 *    runs of days at or above `highFwi` that the FWI loop gathered, so it need not read
 *    back the year of readings just written.
 *
 * Gaps and winters (fwi/carry.ts): the codes carry over a gap of up to
 * MAX_CARRY_GAP_DAYS missing days as if the days were consecutive (cffdrs's
 * behaviour); after a longer gap FFMC and DMC restart from 85 and 6 and the DC carries
 * over. In a community whose series stops for the winter (fwi/winter.ts) the codes
 * start again on the restart day from the overwintered DC; a file whose first day of a
 * municipality falls in a winter, or on its restart day, is computed from the winter's
 * first day on, so the fall DC and the winter's precipitation are those stored (the
 * stored days before the file are recomputed and left alone when unchanged).
 */
import type pg from 'pg';
import type { MergeCounts } from '../db/bulk-merge';
import { isoOfPgDay } from '../db/binary-copy';
import { CsvInputError, unknownMunicipalityError } from '../csv-input';
import { WINTER_RULES, winterStartOf, type WinterRules } from '../fwi/winter';
import { provinceOf } from '../municipalities/provinces';
import type { MunicipalitiesService } from '../municipalities/service';
import { computeReadingsInBatches, emptyComputedReadings } from './compute-readings';
import type { ReadingsRepository, TouchedMunicipality } from './repository';
import { firstRepeat, orderByMunicipalityAndDay, type WeatherColumns } from './weather-columns';
import { readWeatherFile, type WeatherFileRead } from './weather-file';

export { MAX_CARRY_GAP_DAYS } from './compute-readings';

/** New readings per batch handed to the COPY while the next batch is computed. */
const COPY_BATCH_ROWS = 8192;

export interface WeatherIngestSummary extends MergeCounts {
  /** Rows of the file. */
  rows: number;
  municipalities: number;
  first_date: string;
  last_date: string;
  /** Readings computed: the file's days plus stored days after them. */
  computed: number;
  unchanged: number;
  /** Times a series restarted FFMC and DMC from 85 and 6 after a gap of more than MAX_CARRY_GAP_DAYS days (the DC carries over). */
  restarts: number;
  /** Times a series started a new season from an overwintered DC. */
  spring_starts: number;
}

/**
 * The validator's error for a municipality deleted after the file was validated: the
 * earliest line naming any of `gone`.
 */
function unknownMunicipality(weather: WeatherColumns, gone: readonly string[]): CsvInputError {
  const numbers = new Set(gone.map((code) => weather.numberOf.get(code)!));
  let row = -1;
  for (let i = 0; i < weather.length; i++) {
    if (numbers.has(weather.municipality[i]!) && (row === -1 || weather.line[i]! < weather.line[row]!)) row = i;
  }
  const line = weather.line[row]!;
  return unknownMunicipalityError(line, weather.codes[weather.municipality[row]!]!);
}

export interface IngestWeatherDeps {
  repo: Pick<ReadingsRepository, 'withWeatherIngestion'>;
  municipalities: Pick<MunicipalitiesService, 'locations' | 'locationsOf'>;
  /** Today in Spain: the file may hold no later day. */
  today: () => string;
  /**
   * Runs in the ingestion's transaction once the readings are written, over each
   * municipality from its first day in the file, with the runs of consecutive days from
   * there on whose FWI is at or above `highFwi` (worked out as the FWI was computed).
   */
  afterReadings: (tx: pg.ClientBase, touched: readonly TouchedMunicipality[], highRuns: readonly HighFwiRun[]) => Promise<unknown>;
  /** The FWI from which days make the `highRuns` handed to `afterReadings`. */
  highFwi: number;
  /** Each community's winter rule; default the built-in WINTER_RULES. */
  winterRules?: WinterRules;
  /** The instant stamped on the days an ingestion changes (`reading_days`). */
  now: () => Date;
  /** Runs once the ingestion has committed, with its municipalities and newest day: tells every instance's latest-reading cache (readings/latest-cache.ts), then raises the alerts. */
  afterCommit?: (loaded: { municipios: readonly string[]; newestDay: string }) => Promise<unknown>;
}

/** Consecutive days of a municipality (both ends included) at or above an FWI threshold. */
export interface HighFwiRun {
  municipio_id: string;
  from: string;
  to: string;
}

export function createIngestWeather(deps: IngestWeatherDeps) {
  const ingestColumns = createIngestWeatherColumns(deps);
  /**
   * `reading`: the file already being read (the CLI starts it on a worker thread before
   * the runtime, with the same `today`: weather-file.ts); by default it is read here.
   */
  return async function ingestWeather(path: string, reading?: Promise<WeatherFileRead>): Promise<WeatherIngestSummary> {
    // Validation reads no transaction: a refused file never opens one. The file is read first,
    // each code noted with its first line; then only the file's municipalities are looked up.
    const { weather, firstLine, failure } = await (reading ?? readWeatherFile(path, deps.today()));
    const locations = await deps.municipalities.locationsOf([...firstLine.keys()]);
    // The first bad row wins, as when each code was checked as it was read: an unknown code
    // is refused on its first line, before that line's other columns are read.
    let unknown: { code: string; line: number } | undefined;
    for (const [code, line] of firstLine) if (!locations.has(code) && (unknown === undefined || line < unknown.line)) unknown = { code, line };
    if (unknown && (failure === undefined || (failure instanceof CsvInputError && unknown.line <= failure.line))) throw unknownMunicipalityError(unknown.line, unknown.code);
    if (failure !== undefined) throw failure;
    if (weather!.length === 0) throw new CsvInputError('the file has a header but no weather rows', 2);
    return ingestColumns(weather!, locations);
  };
}

/**
 * The same ingestion for weather already validated in memory (AEMET's observations):
 * `alongside` runs in the ingestion's transaction after the readings are written, so
 * what it writes commits or rolls back with them.
 */
export function createIngestWeatherColumns(deps: IngestWeatherDeps) {
  return async function ingestColumns(
    weather: WeatherColumns,
    known?: ReadonlyMap<string, { lat: number | null }>,
    alongside?: (tx: pg.ClientBase) => Promise<void>,
  ): Promise<WeatherIngestSummary> {
    const locations = known ?? (await deps.municipalities.locations());
    const grouped = orderByMunicipalityAndDay(weather);
    const repeat = firstRepeat(weather, grouped);
    if (repeat) {
      throw new CsvInputError(`line ${repeat.again}: municipality ${repeat.municipio_id} on ${isoOfPgDay(repeat.day)} already appears on line ${repeat.first}`, repeat.again);
    }
    const { order, start } = grouped;
    const touched = weather.codes.map((municipio_id, m) => ({ municipio_id, first: isoOfPgDay(weather.day[order[start[m]!]!]!) }));
    let firstDay = Infinity;
    let lastDay = -Infinity;
    for (let m = 0; m < weather.codes.length; m++) {
      firstDay = Math.min(firstDay, weather.day[order[start[m]!]!]!);
      lastDay = Math.max(lastDay, weather.day[order[start[m + 1]! - 1]!]!);
    }
    // Latitude picks the day-length tables; a municipality without coordinates takes its province capital's.
    const lats = weather.codes.map((code) => locations.get(code)!.lat ?? provinceOf(code)!.lat);
    const rules = deps.winterRules ?? WINTER_RULES;
    const winters = weather.codes.map((code) => rules[provinceOf(code)!.communityCode] ?? null);
    // Inside a winter, the computation goes back to its first day: the spring start needs the fall DC and the winter's rain.
    const walked = touched.map((t, m) => {
      const rule = winters[m];
      const from = rule ? winterStartOf(t.first, rule) : null;
      return from === null ? t : { municipio_id: t.municipio_id, first: from };
    });
    const summary = await deps.repo.withWeatherIngestion(async (ingestion): Promise<WeatherIngestSummary> => {
      const gone = await ingestion.lockMunicipalities(weather.codes);
      if (gone.length > 0) throw unknownMunicipality(weather, gone);
      const starts = await ingestion.starts(walked);
      const stored = await ingestion.storedFrom(walked, (code) => weather.numberOf.get(code)!);
      // The FWI runs as the COPY pulls batches of new readings: the database writes one while the next is computed.
      const result = emptyComputedReadings(weather.length, deps.highFwi);
      const batches = computeReadingsInBatches(weather, grouped, (m) => lats[m]!, starts, stored, result, COPY_BATCH_ROWS, (m) => winters[m]!);
      const inserted = await ingestion.insert(() => result.inserts.sources(weather.codes), batches);
      const merged = await ingestion.update(result.updates.sources(weather.codes), result.updates.length);
      if (inserted + merged.inserted + merged.updated > 0) await ingestion.markDaysChanged(isoOfPgDay(firstDay), isoOfPgDay(lastDay), weather.codes, deps.now());
      const { municipality, from, to } = result.highRuns;
      const highRuns = municipality.map((m, k) => ({ municipio_id: weather.codes[m]!, from: isoOfPgDay(from[k]!), to: isoOfPgDay(to[k]!) }));
      // The days recomputed from a winter's start are touched too: their runs were gathered with the rest.
      await deps.afterReadings(ingestion.transaction, walked, highRuns);
      await alongside?.(ingestion.transaction);
      return {
        rows: weather.length,
        municipalities: weather.codes.length,
        first_date: isoOfPgDay(firstDay),
        last_date: isoOfPgDay(lastDay),
        computed: result.computed,
        inserted: inserted + merged.inserted,
        updated: merged.updated,
        unchanged: result.computed - inserted - merged.inserted - merged.updated,
        restarts: result.restarts,
        spring_starts: result.springStarts,
      };
    });
    await deps.afterCommit?.({ municipios: weather.codes, newestDay: summary.last_date });
    return summary;
  };
}
