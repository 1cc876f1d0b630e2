/**
 * `wildfire fwi overwinter < in.csv > out.csv`
 *
 * One spring Drought Code per row, with cffdrs's `overwinter_drought_code` argument
 * names as columns: `dcf` and `rw` required, `a` and `b` optional (a missing column or
 * an empty field takes cffdrs's default, 0.75). The rows come back with `dcs` appended.
 * The format rules are those of `wildfire fwi` (csv-cli.ts): names in any case, `;` if
 * the header has one and `,` otherwise (the output keeps it), `.` as the decimal mark,
 * other columns passed through, blank lines skipped but counted, `dcs` rounded to 4
 * decimals without trailing zeros, and the first unusable line stops the run with its
 * line and column (FwiInputError).
 */
import { CsvInputError, csvHeader, csvLineText, csvRecord, parseNumber, type CsvHeader } from '../csv-input';
import { quoteField } from './csv-fields';
import { OUTPUT_DECIMALS } from './csv-cli';
import { FwiInputError } from './csv-layout';
import { CFFDRS_OVERWINTER_DEFAULTS, inOverwinterRange, OVERWINTER_RANGES, overwinterDc, type OverwinterField } from './overwinter';

export const OVERWINTER_REQUIRED_COLUMNS = ['dcf', 'rw'] as const;
export const OVERWINTER_OPTIONAL_COLUMNS = ['a', 'b'] as const;
export const OVERWINTER_OUTPUT_COLUMN = 'dcs';

export const OVERWINTER_CSV_USAGE = [
  'usage: wildfire fwi overwinter < fall.csv > spring.csv',
  '  input columns (any case, "," or ";" separated): dcf (fall DC, >= 0), rw (winter precipitation, mm, >= 0);',
  `  optional a (carry-over fraction, (0, 1], default ${CFFDRS_OVERWINTER_DEFAULTS.a}) and b (wetting efficiency, [0, 1], default ${CFFDRS_OVERWINTER_DEFAULTS.b})`,
  '  output: the same rows with dcs, the spring start-up Drought Code (Lawson & Armitage 2008)',
].join('\n');

const asFwiError = (err: unknown): never => {
  if (err instanceof CsvInputError) throw new FwiInputError(err.message, err.line, err.column);
  throw err;
};

function checkHeader(header: CsvHeader, names: string[], lineNo: number): void {
  for (const [key, i] of header.index) {
    if (key === OVERWINTER_OUTPUT_COLUMN) throw new FwiInputError(`line ${lineNo}, column "${names[i]}": is an output column; remove it from the input`, lineNo, names[i]);
  }
  const missing = OVERWINTER_REQUIRED_COLUMNS.filter((name) => !header.index.has(name));
  if (missing.length > 0) {
    throw new FwiInputError(
      `line ${lineNo}: missing required column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')} ` +
        `(required: ${OVERWINTER_REQUIRED_COLUMNS.join(', ')}; optional: ${OVERWINTER_OPTIONAL_COLUMNS.join(', ')})`,
      lineNo,
      missing[0],
    );
  }
}

/** Runs the whole table: CSV text in, CSV text out. Throws FwiInputError at the first unusable line. */
export function runOverwinterCsv(input: string): string {
  const lines = input.split(/\r\n|\n|\r/);
  let header: CsvHeader | undefined;
  let names: string[] = [];
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = csvLineText(lines[i] ?? '');
    if (line === null) continue;
    if (!header) {
      try {
        ({ header, names } = csvHeader(line, lineNo));
      } catch (err) {
        asFwiError(err);
      }
      checkHeader(header!, names, lineNo);
      out.push([...names.map((n) => quoteField(n, header!.delimiter)), OVERWINTER_OUTPUT_COLUMN].join(header!.delimiter));
      continue;
    }
    let fields: string[] = [];
    try {
      fields = csvRecord(line, lineNo, header.delimiter).fields;
    } catch (err) {
      asFwiError(err);
    }
    if (fields.length !== names.length) throw new FwiInputError(`line ${lineNo}: expected ${names.length} fields like the header, got ${fields.length}`, lineNo);
    const value = (field: OverwinterField): number | undefined => {
      const at = header!.index.get(field);
      if (at === undefined) return undefined;
      const raw = fields[at] ?? '';
      // An empty a or b takes the default, as a missing column does.
      if (raw.trim() === '' && field !== 'dcf' && field !== 'rw') return undefined;
      const parsed = parseNumber(raw);
      if (parsed === undefined || !inOverwinterRange(field, parsed)) {
        throw new FwiInputError(`line ${lineNo}, column "${names[at]}": ${OVERWINTER_RANGES[field].expected}, got ${JSON.stringify(raw)}`, lineNo, names[at]);
      }
      return parsed;
    };
    const dcs = overwinterDc({ dcf: value('dcf')!, rw: value('rw')!, a: value('a'), b: value('b') });
    out.push([...fields.map((f) => quoteField(f, header!.delimiter)), String(Number(dcs.toFixed(OUTPUT_DECIMALS)))].join(header.delimiter));
  }
  if (!header) {
    throw new FwiInputError(`line 1: the input is empty; expected a header with the columns ${OVERWINTER_REQUIRED_COLUMNS.join(', ')}`, 1);
  }
  return `${out.join('\n')}\n`;
}
