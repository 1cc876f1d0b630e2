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
import { quoteField, splitFields } from './csv-fields';
import { FWI_OUTPUT_COLUMNS, FwiInputError, parseDecimal, readHeader, readRow, REQUIRED_COLUMNS } from './csv-layout';
import { DEFAULT_START_CODES, step, type FwiCodes } from './series';

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

/** A command-line option (or its programmatic equivalent) out of range or unknown. */
export class FwiUsageError extends Error {
  readonly option?: string;

  constructor(message: string, option?: string) {
    super(message);
    this.name = 'FwiUsageError';
    this.option = option;
  }
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
