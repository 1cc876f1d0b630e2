/**
 * Streams a weather file into typed columns. Plain lines of a `,`-separated file
 * (ASCII digits, signs, points and commas only: what every weather export writes) are
 * parsed from the bytes without a string or an object per line; any other line (a
 * header, a blank line, quotes, spaces, a BOM, a bad or out-of-range value, a `;`
 * file) goes through `weatherValidator`, which accepts it or throws the error naming
 * its line and column. The fast path accepts exactly what the validator accepts, to
 * the same double, or hands the line over.
 *
 * Lines end at LF, CRLF or a lone CR, as readline splits them (`fileLines`), so line
 * numbers are the same whatever the chunk boundaries.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pgDayOf } from '../db/binary-copy';
import { CsvInputError, csvHeader, csvLineText, csvRecord, type CsvHeader } from '../csv-input';
import { EARLIEST_WEATHER_DATE, weatherValidator, type WeatherContext } from './weather-csv';
import { WeatherColumns } from './weather-columns';

const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;
const DIGIT_0 = 0x30;
const DASH = 0x2d;
const POINT = 0x2e;
const PLUS = 0x2b;
/** 10^k for the digits after the point; with at most 15 digits in all, mantissa / 10^k is the correctly rounded value, as Number() gives. */
const POWERS = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A plain decimal in bytes [from, to), or NaN for anything else (left to the validator). */
function decimalAt(b: Buffer, from: number, to: number): number {
  let i = from;
  let negative = false;
  if (b[i] === DASH || b[i] === PLUS) negative = b[i++] === DASH;
  let mantissa = 0;
  let digits = 0;
  let decimals = -1;
  for (; i < to; i++) {
    const c = b[i]!;
    if (c === POINT && decimals === -1) decimals = 0;
    else if (c >= DIGIT_0 && c <= DIGIT_0 + 9) {
      mantissa = mantissa * 10 + (c - DIGIT_0);
      digits++;
      if (decimals !== -1) decimals++;
    } else return NaN;
  }
  if (digits === 0 || digits > 15) return NaN;
  const value = decimals > 0 ? mantissa / POWERS[decimals]! : mantissa;
  return negative ? -value : value;
}

/** A fixed-width run of digits as a number, or -1. */
function digitsAt(b: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = b[i]! - DIGIT_0;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

/** The day number of a real YYYY-MM-DD day in bytes [from, to), or -Infinity. */
function dayAt(b: Buffer, from: number, to: number): number {
  if (to - from !== 10 || b[from + 4] !== DASH || b[from + 7] !== DASH) return -Infinity;
  const y = digitsAt(b, from, from + 4);
  const m = digitsAt(b, from + 5, from + 7);
  const d = digitsAt(b, from + 8, from + 10);
  if (y < 0 || m < 1 || m > 12 || d < 1) return -Infinity;
  const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
  if (d > DAYS_IN_MONTH[m - 1]! + (m === 2 && leap ? 1 : 0)) return -Infinity;
  return Math.round((Date.UTC(y, m - 1, d) - Date.UTC(2000, 0, 1)) / 86_400_000);
}

/** Where the weather columns sit in a `,`-separated header. */
interface Layout {
  fields: number;
  municipio: number;
  date: number;
  temp: number;
  rh: number;
  ws: number;
  prec: number;
}

/** The shortest weather line: `28079,2024-06-01,1,1,1,0` and its line end. */
const SHORTEST_LINE_BYTES = 25;

/**
 * Room for as many rows as a file of this size can hold, so the columns are not copied
 * over and over as they grow (44 bytes a row: at most 1.8 bytes for each byte of the
 * file). A file whose size is unknown (a pipe) starts small and grows.
 */
async function expectedRows(path: string): Promise<number> {
  const size = await stat(path).then((s) => (s.isFile() ? s.size : 0), () => 0);
  return Math.max(1024, Math.ceil(size / SHORTEST_LINE_BYTES));
}

/** The file's rows in columns; throws CsvInputError at the first bad row. `chunkBytes` is the read size (tests vary it to move the chunk boundaries). */
export async function weatherColumnsOf(
  path: string,
  context: WeatherContext,
  { chunkBytes = 64 * 1024 }: { chunkBytes?: number } = {},
): Promise<WeatherColumns> {
  const columns = new WeatherColumns(await expectedRows(path));
  const validator = weatherValidator(context);
  const firstDay = pgDayOf(EARLIEST_WEATHER_DATE);
  const lastDay = pgDayOf(context.today);
  // INE code (as a number) → municipality number + 1; -1 for a code the validator must refuse.
  const numbers = new Int32Array(100_000);
  let header: CsvHeader | undefined;
  let layout: Layout | undefined;
  let lineNo = 0;
  const starts = new Int32Array(64);
  const ends = new Int32Array(64);

  const viaValidator = (b: Buffer, from: number, to: number) => {
    const line = csvLineText(b.toString('utf8', from, to));
    if (line === null) return;
    if (header === undefined) {
      const parsed = csvHeader(line, lineNo);
      validator.onHeader(parsed.header, parsed.names);
      header = parsed.header;
      const at = (name: string) => parsed.header.index.get(name)!;
      layout =
        header.delimiter === ',' && parsed.names.length <= starts.length
          ? { fields: parsed.names.length, municipio: at('municipio_id'), date: at('date'), temp: at('temp'), rh: at('rh'), ws: at('ws'), prec: at('prec') }
          : undefined;
      return;
    }
    const r = validator.row(csvRecord(line, lineNo, header.delimiter));
    columns.push(r.municipioId, r.date, r.line, r.temp, r.rh, r.ws, r.prec);
  };

  /** The fast path; false hands the line to the validator. */
  const plain = (b: Buffer, from: number, to: number, l: Layout): boolean => {
    let fields = 0;
    let start = from;
    for (let i = from; i <= to; i++) {
      if (i === to || b[i] === COMMA) {
        if (fields === l.fields) return false;
        starts[fields] = start;
        ends[fields++] = i;
        start = i + 1;
      }
    }
    if (fields !== l.fields) return false;
    const ms = starts[l.municipio]!;
    if (ends[l.municipio]! - ms !== 5) return false;
    const code = digitsAt(b, ms, ms + 5);
    if (code < 0) return false;
    let m = numbers[code]!;
    if (m === 0) {
      const text = b.toString('latin1', ms, ms + 5);
      m = context.isKnown(text, lineNo) ? columns.number(text) + 1 : -1;
      numbers[code] = m;
    }
    if (m < 0) return false;
    const day = dayAt(b, starts[l.date]!, ends[l.date]!);
    if (!(day >= firstDay && day <= lastDay)) return false;
    const temp = decimalAt(b, starts[l.temp]!, ends[l.temp]!);
    const rh = decimalAt(b, starts[l.rh]!, ends[l.rh]!);
    const ws = decimalAt(b, starts[l.ws]!, ends[l.ws]!);
    const prec = decimalAt(b, starts[l.prec]!, ends[l.prec]!);
    // NaN fails every comparison, so a value the fast path cannot read goes to the validator too.
    if (!(temp >= -90 && temp <= 60 && rh >= 0 && rh <= 100 && ws >= 0 && ws < Infinity && prec >= 0 && prec < Infinity)) return false;
    columns.pushDay(m - 1, day, lineNo, temp, rh, ws, prec);
    return true;
  };

  const line = (b: Buffer, from: number, to: number) => {
    lineNo++;
    if (layout === undefined || !plain(b, from, to, layout)) viaValidator(b, from, to);
  };

  let rest: Buffer | undefined;
  for await (const chunk of createReadStream(path, { highWaterMark: chunkBytes }) as AsyncIterable<Buffer>) {
    const b = rest ? Buffer.concat([rest, chunk]) : chunk;
    let from = 0;
    for (let i = 0; i < b.length; i++) {
      const c = b[i];
      if (c !== LF && c !== CR) continue;
      // A CR at the end of the chunk may be half of a CRLF: wait for the next byte.
      if (c === CR && i === b.length - 1) break;
      line(b, from, i);
      if (c === CR && b[i + 1] === LF) i++;
      from = i + 1;
    }
    rest = from < b.length ? b.subarray(from) : undefined;
  }
  if (rest) {
    const end = rest[rest.length - 1] === CR ? rest.length - 1 : rest.length;
    line(rest, 0, end);
  }
  if (header === undefined) throw new CsvInputError('the file is empty: expected a header line and data rows', 1);
  return columns;
}
