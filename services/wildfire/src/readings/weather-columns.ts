/**
 * A weather file held column by column in typed arrays (no object per row), and its
 * rows ordered per municipality and date whatever their order in the file.
 */
import { pgDayOf } from '../db/binary-copy';

function grown<T extends Int32Array | Float64Array>(array: T, size: number): T {
  const next = new (array.constructor as new (n: number) => T)(size);
  next.set(array);
  return next;
}

/** The arrays and codes of a WeatherColumns (`parts()`), as they cross a thread. */
export type WeatherColumnsParts = Pick<WeatherColumns, 'length' | 'codes' | 'municipality' | 'day' | 'line' | 'temp' | 'rh' | 'ws' | 'prec'>;

/** The validated rows of a weather file. Municipalities are numbered in order of first appearance. */
export class WeatherColumns {
  length = 0;
  /** INE code of each municipality number. */
  readonly codes: string[] = [];
  readonly numberOf = new Map<string, number>();
  municipality: Int32Array;
  /** Days since 2000-01-01. */
  day: Int32Array;
  line: Int32Array;
  temp: Float64Array;
  rh: Float64Array;
  ws: Float64Array;
  prec: Float64Array;

  /** The columns as plain data, to post to another thread (`transfer` lists their buffers) and rebuild there with `fromParts`. */
  parts(): { parts: WeatherColumnsParts; transfer: ArrayBuffer[] } {
    const { length, codes, municipality, day, line, temp, rh, ws, prec } = this;
    const parts = { length, codes, municipality, day, line, temp, rh, ws, prec };
    return { parts, transfer: [municipality, day, line, temp, rh, ws, prec].map((a) => a.buffer as ArrayBuffer) };
  }

  static fromParts(parts: WeatherColumnsParts): WeatherColumns {
    const columns = new WeatherColumns(0);
    for (const code of parts.codes) columns.number(code);
    Object.assign(columns, { length: parts.length, municipality: parts.municipality, day: parts.day, line: parts.line, temp: parts.temp, rh: parts.rh, ws: parts.ws, prec: parts.prec });
    return columns;
  }

  /** `capacity`: the rows expected, so the arrays rarely grow. */
  constructor(capacity = 1024) {
    this.municipality = new Int32Array(capacity);
    this.day = new Int32Array(capacity);
    this.line = new Int32Array(capacity);
    this.temp = new Float64Array(capacity);
    this.rh = new Float64Array(capacity);
    this.ws = new Float64Array(capacity);
    this.prec = new Float64Array(capacity);
  }

  push(municipioId: string, isoDate: string, line: number, temp: number, rh: number, ws: number, prec: number): void {
    this.pushDay(this.number(municipioId), pgDayOf(isoDate), line, temp, rh, ws, prec);
  }

  /** The municipality's number, given on its first appearance. */
  number(municipioId: string): number {
    let m = this.numberOf.get(municipioId);
    if (m === undefined) {
      m = this.codes.length;
      this.codes.push(municipioId);
      this.numberOf.set(municipioId, m);
    }
    return m;
  }

  /** A row of municipality number `m` on day number `day` (days since 2000-01-01). */
  pushDay(m: number, day: number, line: number, temp: number, rh: number, ws: number, prec: number): void {
    if (this.length === this.day.length) this.grow(this.length * 2);
    const i = this.length++;
    this.municipality[i] = m;
    this.day[i] = day;
    this.line[i] = line;
    this.temp[i] = temp;
    this.rh[i] = rh;
    this.ws[i] = ws;
    this.prec[i] = prec;
  }

  private grow(size: number): void {
    this.municipality = grown(this.municipality, size);
    this.day = grown(this.day, size);
    this.line = grown(this.line, size);
    this.temp = grown(this.temp, size);
    this.rh = grown(this.rh, size);
    this.ws = grown(this.ws, size);
    this.prec = grown(this.prec, size);
  }
}

/** The rows grouped per municipality (in municipality-number order) and sorted by date, then line, inside each. */
export interface WeatherOrder {
  /** Row indexes: municipality m's rows are order[start[m]] … order[start[m + 1] - 1]. */
  order: Int32Array;
  start: Int32Array;
}

export function orderByMunicipalityAndDay(w: WeatherColumns): WeatherOrder {
  const count = w.codes.length;
  const start = new Int32Array(count + 1);
  for (let i = 0; i < w.length; i++) start[w.municipality[i]! + 1]!++;
  for (let m = 0; m < count; m++) start[m + 1]! += start[m]!;
  // A stable counting sort by municipality keeps each one's rows in file (line) order.
  const next = start.slice(0, count);
  const order = new Int32Array(w.length);
  for (let i = 0; i < w.length; i++) order[next[w.municipality[i]!]!++] = i;
  const { day, line } = w;
  for (let m = 0; m < count; m++) {
    const rows = order.subarray(start[m]!, start[m + 1]!);
    let sorted = true;
    for (let k = 1; k < rows.length && sorted; k++) sorted = day[rows[k - 1]!]! < day[rows[k]!]!;
    if (!sorted) rows.sort((a, b) => day[a]! - day[b]! || line[a]! - line[b]!);
  }
  return { order, start };
}

/**
 * The municipality-day repeated earliest in the file: of all repeats, the one whose
 * second appearance has the lowest line, with the line of its first appearance.
 */
export function firstRepeat(w: WeatherColumns, { order, start }: WeatherOrder): { municipio_id: string; day: number; first: number; again: number } | null {
  let found: { municipio_id: string; day: number; first: number; again: number } | null = null;
  for (let m = 0; m < w.codes.length; m++) {
    let runStart = start[m]!;
    for (let k = start[m]! + 1; k < start[m + 1]!; k++) {
      const row = order[k]!;
      if (w.day[row] !== w.day[order[k - 1]!]) {
        runStart = k;
        continue;
      }
      // Inside a run of one day the lines ascend: the run's second row is its earliest repeat.
      if (k === runStart + 1 && (found === null || w.line[row]! < found.again)) {
        found = { municipio_id: w.codes[m]!, day: w.day[row]!, first: w.line[order[runStart]!]!, again: w.line[row]! };
      }
    }
  }
  return found;
}
