/**
 * The file of `wildfire ingest seasons FILE.csv`, one row per autonomous community:
 *
 *   community_code,name,from,to,authority,source_title,source_url,measures,note
 *   01,Época de peligro alto (Plan INFOCA),06-01,10-15,Junta de Andalucía,Decreto 371/2010,https://...,Prohibido el fuego|Quemas suspendidas,
 *   05,,,,Gobierno de Canarias,Decreto 180/2025,https://...,,Sin época fija: alertas por episodios
 *
 * community_code: the INE code 01–19 (or CA01–CA19, as decisions write it); name, from
 * and to all given (from/to `MM-DD`, not 02-29; to before from spans New Year) or all
 * empty (no fixed season, and then `note` says why); authority and source_title
 * required; source_url empty or http(s); measures separated by `|`. A community appears
 * once per file. Errors name line and column.
 */
import { CsvInputError, csvRecords, fieldReader, requireColumns, type CsvHeader } from '../csv-input';
import { COMMUNITIES } from '../municipalities/provinces';
import { isRecurringDay } from './rules';
import type { SeasonRow } from './seasons-table';

export const SEASON_COLUMNS = ['community_code', 'name', 'from', 'to', 'authority', 'source_title', 'source_url', 'measures', 'note'] as const;

const optional = (raw: string) => (raw === '' ? null : raw);
const required = (raw: string) => (raw === '' ? undefined : raw);
const monthDay = (raw: string) => (raw === '' ? null : isRecurringDay(raw) ? raw : undefined);

export async function* seasonRows(lines: AsyncIterable<string> | Iterable<string>): AsyncGenerator<SeasonRow & { line: number }> {
  let read: ReturnType<typeof fieldReader> | undefined;
  const onHeader = (header: CsvHeader, names: string[]) => {
    requireColumns(header, SEASON_COLUMNS);
    read = fieldReader(header, names);
  };
  const seen = new Map<string, number>();
  for await (const record of csvRecords(lines, onHeader)) {
    const field = read!;
    const communityCode = field(record, 'community_code', (raw) => {
      const code = /^(?:CA)?(\d{2})$/i.exec(raw)?.[1];
      return code !== undefined && code in COMMUNITIES ? code : undefined;
    }, 'expected an INE autonomous community code 01–19 (or CA01–CA19)');
    const name = field(record, 'name', optional, '');
    const fromDay = field(record, 'from', monthDay, 'expected a recurring day MM-DD (not 02-29) or nothing');
    const toDay = field(record, 'to', monthDay, 'expected a recurring day MM-DD (not 02-29) or nothing');
    const given = [name, fromDay, toDay].filter((v) => v !== null).length;
    if (given !== 0 && given !== 3) {
      const column = name === null ? 'name' : fromDay === null ? 'from' : 'to';
      throw new CsvInputError(`line ${record.line}, column "${column}": name, from and to go together (all given, or all empty for no fixed season)`, record.line, column);
    }
    const authority = field(record, 'authority', required, 'expected the authority that fixes the season');
    const sourceTitle = field(record, 'source_title', required, 'expected the order or plan the row comes from');
    const sourceUrl = field(record, 'source_url', (raw) => (raw === '' ? null : /^https?:\/\/\S+$/.test(raw) ? raw : undefined), 'expected an http(s) URL or nothing');
    const measures = field(record, 'measures', (raw) => raw.split('|').map((m) => m.trim()).filter(Boolean), '');
    const note = field(record, 'note', optional, '');
    if (given === 0 && note === null) {
      throw new CsvInputError(`line ${record.line}, column "note": a community without a fixed season needs a note saying why`, record.line, 'note');
    }
    const first = seen.get(communityCode);
    if (first !== undefined) {
      throw new CsvInputError(`line ${record.line}, column "community_code": community ${communityCode} already appears on line ${first}`, record.line, 'community_code');
    }
    seen.set(communityCode, record.line);
    yield { line: record.line, communityCode, name, fromDay, toDay, authority, sourceTitle, sourceUrl, measures, note };
  }
}
