import { detectDelimiter, splitFields, type Delimiter } from './csv-fields';

// The CSV layout of `wildfire fwi`: the output columns it appends, and the weather input read
// and checked, its header, then each row's values (csv-cli.ts runs the calculation on them).

/** The columns appended to every row, in order. */
export const FWI_OUTPUT_COLUMNS = ['ffmc', 'dmc', 'dc', 'isi', 'bui', 'fwi', 'dsr'] as const;

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

type Check = { value: number } | { expected: string };

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Strict: Number() would accept "", " ", "0x1F" and "Infinity". */
export function parseDecimal(raw: string): number | undefined {
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

export const REQUIRED_COLUMNS = ['lat', 'mon', 'temp', 'rh', 'ws', 'prec'] as const;
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

export interface Layout {
  delimiter: Delimiter;
  names: string[];
  /** Index of each known column (lower-case name) in the header. */
  index: Map<string, number>;
}

export function readHeader(line: string, lineNo: number): Layout {
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
export interface RowWeather {
  lat: number;
  month: number;
  temp: number;
  rh: number;
  ws: number;
  prec: number;
}

export function readRow(fields: readonly string[], layout: Layout, lineNo: number): RowWeather {
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
