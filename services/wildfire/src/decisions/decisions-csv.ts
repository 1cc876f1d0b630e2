/**
 * The file of `wildfire ingest decisions FILE.csv`:
 *
 *   scope_code,date_from,date_to,type,title,measures,legal_basis,source_url
 *   CA01,2025-06-01,2025-10-15,season,Época de peligro alto (INFOCA),Prohibido el uso del fuego|Quemas suspendidas,Decreto 247/2001,https://...
 *
 * scope_code: see scope.ts; dates YYYY-MM-DD, date_to empty for open-ended and never
 * before date_from; type one of DECISION_TYPES; title required; measures separated by
 * `|`; legal_basis optional; source_url empty or an http(s) URL. A decision (scope,
 * type, date_from, title) appears once per file. Errors name line and column.
 */
import { parseIsoDay } from '../calendar';
import { CsvInputError, csvRecords, fieldReader, requireColumns, type CsvHeader } from '../csv-input';
import { parseScopeCode, type Scope } from './scope';
import { DECISION_TYPES } from './tables';

export const DECISION_COLUMNS = ['scope_code', 'date_from', 'date_to', 'type', 'title', 'measures', 'legal_basis', 'source_url'] as const;

export interface DecisionRow {
  line: number;
  scope: Scope;
  dateFrom: string;
  dateTo: string | null;
  type: (typeof DECISION_TYPES)[number];
  title: string;
  measures: string[];
  legalBasis: string | null;
  sourceUrl: string | null;
}

const day = (raw: string) => (parseIsoDay(raw) ? raw : undefined);
const optional = (raw: string) => (raw === '' ? null : raw);

export async function* decisionRows(lines: AsyncIterable<string> | Iterable<string>, context: { isMunicipality(ine: string): boolean }): AsyncGenerator<DecisionRow> {
  let read: ReturnType<typeof fieldReader> | undefined;
  const onHeader = (header: CsvHeader, names: string[]) => {
    requireColumns(header, DECISION_COLUMNS);
    read = fieldReader(header, names);
  };
  const seen = new Map<string, number>();
  for await (const record of csvRecords(lines, onHeader)) {
    const field = read!;
    const scopeCode = field(record, 'scope_code', (raw) => raw, '');
    const scope = parseScopeCode(scopeCode, context.isMunicipality);
    if ('error' in scope) throw new CsvInputError(`line ${record.line}, column "scope_code": ${scope.error}, got "${scopeCode}"`, record.line, 'scope_code');
    const dateFrom = field(record, 'date_from', day, 'expected a date YYYY-MM-DD');
    const dateTo = field(record, 'date_to', (raw) => (raw === '' ? null : day(raw)), 'expected a date YYYY-MM-DD or nothing (open-ended)');
    if (dateTo !== null && dateTo < dateFrom) {
      throw new CsvInputError(`line ${record.line}, column "date_to": ${dateTo} is before date_from ${dateFrom}`, record.line, 'date_to');
    }
    const type = field(record, 'type', (raw) => DECISION_TYPES.find((t) => t === raw.toLowerCase()), `expected one of ${DECISION_TYPES.join(', ')}`);
    const title = field(record, 'title', (raw) => (raw === '' ? undefined : raw), 'expected a title');
    const measures = field(record, 'measures', (raw) => raw.split('|').map((m) => m.trim()).filter(Boolean), '');
    const legalBasis = field(record, 'legal_basis', optional, '');
    const sourceUrl = field(record, 'source_url', (raw) => (raw === '' ? null : /^https?:\/\/\S+$/.test(raw) ? raw : undefined), 'expected an http(s) URL or nothing');
    const key = [scope.code, type, dateFrom, title].join('\u0000');
    const first = seen.get(key);
    if (first !== undefined) {
      throw new CsvInputError(`line ${record.line}: the same decision (scope, type, date_from, title) already appears on line ${first}`, record.line, 'title');
    }
    seen.set(key, record.line);
    yield { line: record.line, scope, dateFrom, dateTo, type, title, measures, legalBasis, sourceUrl };
  }
}
