/**
 * `wildfire fwi [--ffmc0 N] [--dmc0 N] [--dc0 N] < weather.csv > indices.csv`
 *
 * Reads daily noon weather in the column layout of the cffdrs R package's `fwi()`
 * (`long, lat, yr, mon, day, temp, rh, ws, prec`, plus an optional `id` naming
 * separate stations or grid points) and writes the same rows with the FWI System
 * outputs appended. Format rules:
 *  - the delimiter is `;` if the header contains one, otherwise `,`; the output
 *    uses the same one. Numbers use `.` as the decimal mark.
 *  - header names are matched case-insensitively; `lat, mon, temp, rh, ws, prec`
 *    are required (the day-length tables need latitude and month), `id, long, yr,
 *    day` optional; any other column is passed through untouched.
 *  - rows are computed in input order; each `id` carries its own codes, all
 *    starting from the same start values. Dates are not checked for continuity:
 *    the codes carry over from a series' previous row whatever the gap (as in
 *    cffdrs), so fill missing days upstream.
 *  - outputs are rounded to OUTPUT_DECIMALS (4) decimal places, trailing zeros
 *    dropped: three more than the one decimal of operational fire-weather
 *    bulletins, and as fine as cffdrs's 6-significant-digit test output for values
 *    from 10 to 100. Near-zero values (DSR after heavy rain) print as 0.
 *  - blank lines are skipped; line numbers in errors count them, header = line 1.
 */
import { detectDelimiter, quoteField, splitFields, type Delimiter } from './csv-fields';
import { DEFAULT_START_CODES, step, type FwiCodes } from './series';

/** The columns appended to every row, in order. */
export const FWI_OUTPUT_COLUMNS = ['ffmc', 'dmc', 'dc', 'isi', 'bui', 'fwi', 'dsr'] as const;

export const OUTPUT_DECIMALS = 4;

export const FWI_CSV_USAGE = [
  'usage: wildfire fwi [--ffmc0 N] [--dmc0 N] [--dc0 N] < weather.csv > indices.csv',
  '  input columns (any case, "," or ";" separated): lat, mon, temp, rh, ws, prec; optional id, long, yr, day',
  '  start values: --ffmc0 in [0, 101] (default 85), --dmc0 >= 0 (default 6), --dc0 >= 0 (default 15)',
].join('\n');

export interface FwiCsvOptions {
  ffmc0?: number;
  dmc0?: number;
  dc0?: number;
}

/** A row or header the calculation cannot use; `line` is 1-based and counts the header. */
export class FwiInputError extends Error {
  readonly line: number;
  readonly column?: string;

  constructor(message: string, line: number, column?: string) {
    super(message);
    this.name = 'FwiInputError';
    this.line = line;
    this.column = column;
  }
}

/** A command-line option (or its programmatic equivalent) out of range or unknown. */
export class FwiUsageError extends Error {
  readonly option?: string;

  constructor(message: string, option?: string) {
    super(message);
    this.name = 'FwiUsageError';
    this.option = option;
  }
}

type Check = { value: number } | { expected: string };

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Strict: Number() would accept "", " ", "0x1F" and "Infinity". */
function parseDecimal(raw: string): number | undefined {
  const text = raw.trim();
  if (!DECIMAL.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

function numberIn(raw: string, min: number, max: number, expected: string): Check {
  const value = parseDecimal(raw);
  return value !== undefined && value >= min && value <= max ? { value } : { expected };
}

function integerIn(raw: string, min: number, max: number, expected: string): Check {
  const checked = numberIn(raw, min, max, expected);
  return 'value' in checked && !Number.isInteger(checked.value) ? { expected } : checked;
}

const REQUIRED_COLUMNS = ['lat', 'mon', 'temp', 'rh', 'ws', 'prec'] as const;
const OPTIONAL_COLUMNS = ['id', 'long', 'yr', 'day'] as const;
type NumericColumn = (typeof REQUIRED_COLUMNS)[number] | 'long' | 'yr';

/**
 * Per-column checks. Temperatures beyond the recorded extremes are refused so that
 * Kelvin input (ERA5 ships Kelvin), and most summer Fahrenheit values, fail loudly
 * instead of producing plausible-looking codes.
 */
const CHECKS: Record<NumericColumn, (raw: string) => Check> = {
  lat: (raw) => numberIn(raw, -90, 90, 'expected a latitude between -90 and 90'),
  long: (raw) => numberIn(raw, -Infinity, Infinity, 'expected a number'),
  yr: (raw) => integerIn(raw, -Infinity, Infinity, 'expected a whole number'),
  mon: (raw) => integerIn(raw, 1, 12, 'expected a month from 1 to 12'),
  temp: (raw) => numberIn(raw, -90, 60, 'expected a temperature in °C between -90 and 60'),
  rh: (raw) => numberIn(raw, 0, 100, 'expected a number between 0 and 100'),
  ws: (raw) => numberIn(raw, 0, Infinity, 'expected a wind speed in km/h, 0 or more'),
  prec: (raw) => numberIn(raw, 0, Infinity, 'expected a precipitation in mm, 0 or more'),
};

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

interface Layout {
  delimiter: Delimiter;
  names: string[];
  /** Index of each known column (lower-case name) in the header. */
  index: Map<string, number>;
}

function readHeader(line: string, lineNo: number): Layout {
  const delimiter = detectDelimiter(line);
  const split = splitFields(line, delimiter);
  if (!Array.isArray(split)) throw new FwiInputError(`line ${lineNo}: ${split.error}`, lineNo);
  const names = split.map((name) => name.trim());
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    const key = name.toLowerCase();
    if ((FWI_OUTPUT_COLUMNS as readonly string[]).includes(key)) {
      throw new FwiInputError(`line ${lineNo}, column "${name}": is an output column; remove it from the input`, lineNo, name);
    }
    if (index.has(key)) throw new FwiInputError(`line ${lineNo}, column "${name}": appears more than once`, lineNo, name);
    index.set(key, i);
  });
  const missing = REQUIRED_COLUMNS.filter((name) => !index.has(name));
  if (missing.length > 0) {
    throw new FwiInputError(
      `line ${lineNo}: missing required column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')} ` +
        `(required: ${REQUIRED_COLUMNS.join(', ')}; optional: ${OPTIONAL_COLUMNS.join(', ')})`,
      lineNo,
      missing[0],
    );
  }
  return { delimiter, names, index };
}

/** What the calculation needs from a row; `long`, `yr` and `day` are only validated and passed through. */
interface RowWeather {
  lat: number;
  month: number;
  temp: number;
  rh: number;
  ws: number;
  prec: number;
}

function readRow(fields: readonly string[], layout: Layout, lineNo: number): RowWeather {
  const raw = (column: string): string | undefined => {
    const i = layout.index.get(column);
    return i === undefined ? undefined : (fields[i] ?? '');
  };
  const fail = (column: string, text: string, expected: string): never => {
    const name = layout.names[layout.index.get(column) ?? -1] ?? column;
    throw new FwiInputError(`line ${lineNo}, column "${name}": ${expected}, got ${JSON.stringify(text)}`, lineNo, name);
  };
  const values = new Map<string, number>();
  for (const column of Object.keys(CHECKS) as NumericColumn[]) {
    const text = raw(column);
    if (text === undefined) continue;
    const checked = CHECKS[column](text);
    if ('expected' in checked) return fail(column, text, checked.expected);
    values.set(column, checked.value);
  }
  const value = (column: (typeof REQUIRED_COLUMNS)[number]): number => {
    const v = values.get(column);
    if (v === undefined) throw new Error(`column ${column} passed the header check but has no value`);
    return v;
  };
  const month = value('mon');
  const dayText = raw('day');
  if (dayText !== undefined) {
    // Without a year, 29 February is allowed.
    const lastDay = daysInMonth(values.get('yr') ?? 2000, month);
    const day = integerIn(dayText, 1, lastDay, `expected a day of the month from 1 to ${lastDay}`);
    if ('expected' in day) fail('day', dayText, day.expected);
  }
  return { lat: value('lat'), month, temp: value('temp'), rh: value('rh'), ws: value('ws'), prec: value('prec') };
}

function formatIndex(value: number): string {
  return String(Number(value.toFixed(OUTPUT_DECIMALS)));
}

const START_RULES = [
  { key: 'ffmc0', option: '--ffmc0', min: 0, max: 101, expected: 'a number between 0 and 101' },
  { key: 'dmc0', option: '--dmc0', min: 0, max: Infinity, expected: 'a number >= 0' },
  { key: 'dc0', option: '--dc0', min: 0, max: Infinity, expected: 'a number >= 0' },
] as const;

function startCodes(options: FwiCsvOptions): FwiCodes {
  for (const rule of START_RULES) {
    const value = options[rule.key];
    if (value !== undefined && !(Number.isFinite(value) && value >= rule.min && value <= rule.max)) {
      throw new FwiUsageError(`${rule.option} must be ${rule.expected}, got ${value}`, rule.option);
    }
  }
  return {
    ffmc: options.ffmc0 ?? DEFAULT_START_CODES.ffmc,
    dmc: options.dmc0 ?? DEFAULT_START_CODES.dmc,
    dc: options.dc0 ?? DEFAULT_START_CODES.dc,
  };
}

/**
 * Parses the arguments after `fwi`: `--ffmc0 N`, `--dmc0 N`, `--dc0 N`, each also
 * as `--name=N`. Throws FwiUsageError for an unknown or repeated option, a
 * missing or non-numeric value, or a value out of range.
 */
export function parseFwiArgs(argv: readonly string[]): FwiCsvOptions {
  const options: FwiCsvOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const option = eq === -1 ? arg : arg.slice(0, eq);
    const rule = START_RULES.find((r) => r.option === option);
    if (!rule) throw new FwiUsageError(`unknown argument "${arg}"\n${FWI_CSV_USAGE}`);
    if (options[rule.key] !== undefined) throw new FwiUsageError(`${rule.option} given more than once`, rule.option);
    const text = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (text === undefined) throw new FwiUsageError(`${rule.option} needs a value: ${rule.expected}`, rule.option);
    const value = parseDecimal(text);
    if (value === undefined || value < rule.min || value > rule.max) {
      throw new FwiUsageError(`${rule.option} must be ${rule.expected}, got ${JSON.stringify(text)}`, rule.option);
    }
    options[rule.key] = value;
  }
  return options;
}

/**
 * Runs the whole table: CSV text in, CSV text out (see the format rules at the top
 * of this file). Throws FwiInputError at the first unusable line and FwiUsageError
 * for out-of-range start values.
 */
export function runFwiCsv(input: string, options: FwiCsvOptions = {}): string {
  const start = startCodes(options);
  const lines = input.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const headerAt = lines.findIndex((line) => line.trim() !== '');
  if (headerAt === -1) {
    throw new FwiInputError(`line 1: the input is empty; expected a header with the columns ${REQUIRED_COLUMNS.join(', ')}`, 1);
  }
  const layout = readHeader(lines[headerAt] ?? '', headerAt + 1);
  const { delimiter } = layout;
  const idIndex = layout.index.get('id');
  const states = new Map<string, FwiCodes>();
  const out = [[...layout.names.map((name) => quoteField(name, delimiter)), ...FWI_OUTPUT_COLUMNS].join(delimiter)];

  for (let i = headerAt + 1; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') continue;
    const lineNo = i + 1;
    const fields = splitFields(line, delimiter);
    if (!Array.isArray(fields)) throw new FwiInputError(`line ${lineNo}: ${fields.error}`, lineNo);
    if (fields.length !== layout.names.length) {
      throw new FwiInputError(`line ${lineNo}: expected ${layout.names.length} fields like the header, got ${fields.length}`, lineNo);
    }
    const row = readRow(fields, layout, lineNo);
    const id = idIndex === undefined ? '' : (fields[idIndex] ?? '').trim();
    const today = step(states.get(id) ?? start, row, row.lat, row.month);
    states.set(id, today);
    const indices = FWI_OUTPUT_COLUMNS.map((column) => formatIndex(today[column]));
    out.push([...fields.map((field) => quoteField(field, delimiter)), ...indices].join(delimiter));
  }
  return `${out.join('\n')}\n`;
}
