/**
 * Reading the CSV files `wildfire ingest` loads: line-numbered records, a header
 * located by column name, and strict number parsing, so that every error names
 * the line (1-based, the header is line 1, blank lines count) and the column.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { detectDelimiter, splitFields, type Delimiter } from './fwi/csv-fields';

/** A file `ingest` refuses; nothing of it has been loaded. */
export class CsvInputError extends Error {
  constructor(
    message: string,
    readonly line: number,
    readonly column?: string,
  ) {
    super(message);
    this.name = 'CsvInputError';
  }
}

/** The refusal of a `municipio_id` that names no municipality (weather and ecosystem files alike). */
export function unknownMunicipalityError(line: number, code: string): CsvInputError {
  return new CsvInputError(`line ${line}, column "municipio_id": no municipality has the INE code ${code}`, line, 'municipio_id');
}

export interface CsvHeader {
  delimiter: Delimiter;
  /** Index of each column by its lower-case name. */
  index: Map<string, number>;
}

export interface CsvRecord {
  line: number;
  fields: string[];
}

/** Text of a file that may be UTF-8 (with or without BOM) or Latin-1 (the nomenclator as IGN/CNIG ships it). */
export function decodeText(bytes: Buffer): string {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Not valid UTF-8: windows-1252, the superset of Latin-1 that Spanish Windows software writes.
    text = new TextDecoder('windows-1252').decode(bytes);
  }
  return text.replace(/^\uFEFF/, '');
}

/**
 * The lines of a file, streamed (weather files run to millions of rows). The reader
 * opens on the first pull: readline drops lines emitted before its iterator exists,
 * so opening it early and iterating later can lose the whole file.
 */
export async function* fileLines(path: string): AsyncGenerator<string> {
  const input = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input, crlfDelay: Infinity });
  try {
    for await (const line of lines) yield line;
  } finally {
    lines.close();
    input.destroy();
  }
}

/** The lines of an in-memory text. */
export function textLines(text: string): string[] {
  return text.split(/\r?\n/);
}

/**
 * Splits a file into its header and records. `onHeader` receives the header (its
 * names trimmed, BOM removed) and may throw for a header it cannot use.
 */
export async function* csvRecords(
  lines: AsyncIterable<string> | Iterable<string>,
  onHeader: (header: CsvHeader, names: string[]) => void,
): AsyncGenerator<CsvRecord> {
  let lineNo = 0;
  let delimiter: Delimiter | undefined;
  for await (const raw of lines) {
    lineNo++;
    const line = csvLineText(raw);
    if (line === null) continue;
    if (delimiter === undefined) {
      const { header, names } = csvHeader(line, lineNo);
      delimiter = header.delimiter;
      onHeader(header, names);
      continue;
    }
    yield csvRecord(line, lineNo, delimiter);
  }
  if (delimiter === undefined) throw new CsvInputError('the file is empty: expected a header line and data rows', 1);
}

/** A line without BOM and trailing CR, or null for a blank line (skipped, but counted). */
export function csvLineText(raw: string): string | null {
  const line = raw.replace(/^\uFEFF/, '').replace(/\r$/, '');
  return line.trim() === '' ? null : line;
}

/** The header line: its delimiter, the index of each lower-case name, and the names trimmed. */
export function csvHeader(line: string, lineNo: number): { header: CsvHeader; names: string[] } {
  const delimiter = detectDelimiter(line);
  const split = splitFields(line, delimiter);
  if (!Array.isArray(split)) throw new CsvInputError(`line ${lineNo}: ${split.error}`, lineNo);
  const names = split.map((n) => n.trim());
  const index = new Map<string, number>();
  names.forEach((name, i) => {
    const key = name.toLowerCase();
    if (index.has(key)) throw new CsvInputError(`line ${lineNo}, column "${name}": appears more than once`, lineNo, name);
    index.set(key, i);
  });
  return { header: { delimiter, index }, names };
}

/** A data line split into its fields. */
export function csvRecord(line: string, lineNo: number, delimiter: Delimiter): CsvRecord {
  const fields = splitFields(line, delimiter);
  if (!Array.isArray(fields)) throw new CsvInputError(`line ${lineNo}: ${fields.error}`, lineNo);
  return { line: lineNo, fields };
}

/** The missing names of `required` in a header, for a message listing them all at once. */
export function requireColumns(header: CsvHeader, required: readonly string[], lineNo = 1): void {
  const missing = required.filter((name) => !header.index.has(name.toLowerCase()));
  if (missing.length > 0) {
    throw new CsvInputError(
      `line ${lineNo}: missing column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')} (expected ${required.join(', ')})`,
      lineNo,
      missing[0],
    );
  }
}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A strict decimal (Number() would take "", "0x1F" and "Infinity"); with
 * `decimalComma` a comma is the decimal mark, as in Spanish CSV files.
 */
export function parseNumber(raw: string, decimalComma = false): number | undefined {
  let text = raw.trim();
  if (decimalComma) text = text.replace(',', '.');
  if (!DECIMAL.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Reads one field of a record, throwing a CsvInputError naming line and column when `check` refuses it. */
export function fieldReader(header: CsvHeader, names: string[]) {
  return <T>(record: CsvRecord, column: string, check: (raw: string) => T | undefined, expected: string): T => {
    const i = header.index.get(column.toLowerCase())!;
    const raw = (record.fields[i] ?? '').trim();
    const value = check(raw);
    if (value === undefined) {
      const name = names[i] ?? column;
      throw new CsvInputError(`line ${record.line}, column "${name}": ${expected}, got "${raw}"`, record.line, name);
    }
    return value;
  };
}
