/**
 * The FWI System over every municipality of a weather file in one tight loop over
 * typed columns: each series runs in date order from the municipality's first day in
 * the file, continuing from the stored codes of the day before (or the start values),
 * through the file's days and the stored days after them (the file's weather wins on
 * a day both have). Each computed reading is compared with the stored one, so only
 * new readings (to insert) and changed ones (to update) leave this module, both in
 * primary-key order.
 */
import * as fwi from '../fwi/components';
import { dayLengthTables } from '../fwi/day-length';
import { CodeCarrier, initialState } from '../fwi/carry';
import type { WinterRule } from '../fwi/winter';
import { isoOfPgDay } from '../db/binary-copy';
import { riskLabel, riskScore } from '../risk/risk-score';
import { LABEL_NUMBER, READING_VALUE_COLUMNS, ReadingColumns } from './reading-columns';
import type { WeatherColumns, WeatherOrder } from './weather-columns';

export { MAX_CARRY_GAP_DAYS } from '../fwi/carry';

/** The stored day just before a municipality's first day in the file, where its codes continue from. */
export interface StoredStart {
  municipio_id: string;
  day: number;
  ffmc: number;
  dmc: number;
  dc: number;
}

/** Runs of consecutive days, per municipality number: run k spans days `from[k]`..`to[k]` of municipality `municipality[k]`. */
export interface DayRuns {
  municipality: number[];
  from: number[];
  to: number[];
}

export interface ComputedReadings {
  /** Readings with no stored row. */
  inserts: ReadingColumns;
  /** Readings whose stored row differs. */
  updates: ReadingColumns;
  computed: number;
  /** Series whose FFMC and DMC restarted after a gap of more than MAX_CARRY_GAP_DAYS days (fwi/carry.ts). */
  restarts: number;
  /** Series that started a new season from an overwintered DC (fwi/carry.ts). */
  springStarts: number;
  /**
   * The runs of consecutive computed days whose FWI is at or above `highFwi` (every
   * computed day: new, changed and unchanged), in municipality and date order, so the
   * automatic decisions need not read back the readings just written.
   */
  highRuns: DayRuns;
  highFwi: number;
}

/** ISO day and month (1–12) of a day number, cached: a file spans few distinct days, and a string cut per reading was garbage to collect. */
function dayTable() {
  const isos = new Map<number, string>();
  const months = new Map<number, number>();
  const iso = (day: number) => {
    let text = isos.get(day);
    if (text === undefined) {
      text = isoOfPgDay(day);
      isos.set(day, text);
      months.set(day, Number(text.slice(5, 7)));
    }
    return text;
  };
  /** After `iso(day)`. */
  const month = (day: number) => months.get(day)!;
  return { iso, month };
}

/**
 * Room for the readings computed from a file of `rows` rows: only the file's days can be
 * new. `highFwi`: the FWI from which days are gathered into `highRuns` (none by default).
 */
export function emptyComputedReadings(rows: number, highFwi = Infinity): ComputedReadings {
  return { inserts: new ReadingColumns(rows), updates: new ReadingColumns(), computed: 0, restarts: 0, springStarts: 0, highRuns: { municipality: [], from: [], to: [] }, highFwi };
}

/**
 * Computes every municipality of the file. `stored` holds the stored readings of the
 * file's municipalities from each one's first day in the file on, grouped per
 * municipality and in date order (numbered as in `w`); `latOf(m)` is municipality
 * number m's latitude, `winterOf(m)` its community's winter rule (fwi/winter.ts).
 */
export function computeReadings(
  w: WeatherColumns,
  order: WeatherOrder,
  latOf: (m: number) => number,
  starts: readonly StoredStart[],
  stored: ReadingColumns,
  winterOf: (m: number) => WinterRule | null = () => null,
): ComputedReadings {
  const result = emptyComputedReadings(w.length);
  for (const _ of computeReadingsInBatches(w, order, latOf, starts, stored, result, Infinity, winterOf));
  return result;
}

/**
 * As `computeReadings`, into `result` (from `emptyComputedReadings(w.length)`), one
 * municipality at a time: yields how many inserts are ready each time at least
 * `batchRows` more are, and once at the end, which is what `bulkLoadColumnsAsFilled`
 * takes, so the database writes each batch while the next is computed.
 */
export function* computeReadingsInBatches(
  w: WeatherColumns,
  { order, start }: WeatherOrder,
  latOf: (m: number) => number,
  starts: readonly StoredStart[],
  stored: ReadingColumns,
  result: ComputedReadings,
  batchRows: number,
  winterOf: (m: number) => WinterRule | null = () => null,
): Generator<number> {
  const startOf = new Map(starts.map((s) => [w.numberOf.get(s.municipio_id)!, s]));
  const storedRange = new Map<number, [number, number]>();
  for (let k = 0; k < stored.length; ) {
    const m = stored.municipality[k]!;
    let end = k;
    while (end < stored.length && stored.municipality[end] === m) end++;
    storedRange.set(m, [k, end]);
    k = end;
  }
  const storedDay = stored.day;
  const [storedTemp, storedRh, storedWs, storedPrec] = stored.values as [Float64Array, Float64Array, Float64Array, Float64Array];
  const { iso: isoOf, month: monthOf } = dayTable();
  const { inserts, updates, highRuns, highFwi } = result;
  const out = new Float64Array(READING_VALUE_COLUMNS.length);
  let computed = 0;
  let restarts = 0;
  let springStarts = 0;
  let sent = inserts.length;
  // Municipalities in code order, so the readings leave in the primary key's order
  // (municipio_id, date): the index grows at its right edge instead of splitting pages
  // all over (a year of readings in date order took twice as long to COPY). Codes are ASCII digits:
  // JavaScript's order is the database's.
  const byCode = Array.from(w.codes.keys()).sort((a, b) => (w.codes[a]! < w.codes[b]! ? -1 : 1));
  for (const m of byCode) {
    const lat = latOf(m);
    const tables = dayLengthTables(lat);
    const begin = startOf.get(m);
    const carrier = new CodeCarrier(winterOf(m), begin ? { ...initialState(begin), day: begin.day, iso: isoOf(begin.day) } : initialState());
    const codes = carrier.current;
    let f = start[m]!;
    const fileEnd = start[m + 1]!;
    let [s, storedEnd] = storedRange.get(m) ?? [0, 0];
    while (f < fileEnd || s < storedEnd) {
      const fileDay = f < fileEnd ? w.day[order[f]!]! : Infinity;
      const nextStored = s < storedEnd ? storedDay[s]! : Infinity;
      const day = Math.min(fileDay, nextStored);
      const before = nextStored === day ? s++ : -1;
      let temp: number, rh: number, ws: number, prec: number;
      if (fileDay === day) {
        const row = order[f++]!;
        temp = w.temp[row]!;
        rh = w.rh[row]!;
        ws = w.ws[row]!;
        prec = w.prec[row]!;
      } else {
        temp = storedTemp[before]!;
        rh = storedRh[before]!;
        ws = storedWs[before]!;
        prec = storedPrec[before]!;
      }
      const iso = isoOf(day);
      carrier.beginDay(day, iso);
      // As fwi/series.ts `step`, without an object per day.
      const month = monthOf(day);
      const ffmc = fwi.ffmc(codes.ffmc, temp, rh, ws, prec);
      const dmc = fwi.dmc(codes.dmc, temp, rh, prec, lat, month, tables.dmc);
      const dc = fwi.dc(codes.dc, temp, rh, prec, lat, month, tables.dc);
      carrier.endDay(day, iso, ffmc, dmc, dc, prec);
      const isi = fwi.isi(ffmc, ws);
      const bui = fwi.bui(dmc, dc);
      const index = fwi.fwi(isi, bui);
      out[0] = temp;
      out[1] = rh;
      out[2] = ws;
      out[3] = prec;
      out[4] = ffmc;
      out[5] = dmc;
      out[6] = dc;
      out[7] = isi;
      out[8] = bui;
      out[9] = index;
      out[10] = fwi.dsr(index);
      out[11] = riskScore(index);
      const label = riskLabel(index);
      if (index >= highFwi) {
        const last = highRuns.to.length - 1;
        if (last >= 0 && highRuns.municipality[last] === m && highRuns.to[last] === day - 1) highRuns.to[last] = day;
        else {
          highRuns.municipality.push(m);
          highRuns.from.push(day);
          highRuns.to.push(day);
        }
      }
      computed++;
      if (before === -1) inserts.push(m, day, out, LABEL_NUMBER[label]);
      else if (!sameReading(stored, before, out, LABEL_NUMBER[label])) updates.push(m, day, out, LABEL_NUMBER[label]);
    }
    restarts += carrier.gapRestarts;
    springStarts += carrier.springStarts;
    result.computed = computed;
    result.restarts = restarts;
    result.springStarts = springStarts;
    if (inserts.length - sent >= batchRows) {
      sent = inserts.length;
      yield sent;
    }
  }
  yield inserts.length;
}

/** Equal values, as `IS DISTINCT FROM` compares them (floats round-trip exactly). */
function sameReading(stored: ReadingColumns, row: number, values: Float64Array, label: number): boolean {
  for (let k = 0; k < values.length; k++) if (stored.values[k]![row] !== values[k]) return false;
  return stored.label[row] === label;
}

