import { CsvInputError } from '../csv-input';
import { decisionRows } from './decisions-csv';

const HEADER = 'scope_code,date_from,date_to,type,title,measures,legal_basis,source_url';
const known = { isMunicipality: (code: string) => code === '41091' };

async function parse(...rows: string[]) {
  const out = [];
  for await (const r of decisionRows([HEADER, ...rows], known)) out.push(r);
  return out;
}

async function failure(...rows: string[]): Promise<CsvInputError> {
  return parse(...rows).then(
    () => {
      throw new Error('expected the file to be refused');
    },
    (err: unknown) => err as CsvInputError,
  );
}

describe('the decisions CSV', () => {
  it('reads each scope form, `|`-separated measures and an open end', async () => {
    const rows = await parse(
      '41091,2025-07-01,2025-07-03,prohibition,Bando municipal,Sin barbacoas| Sin pirotecnia ,Bando 12/2025,https://sevilla.org/bando',
      '41,2025-06-01,,alert,Alerta provincial,,,',
      'CA01,2025-06-01,2025-10-15,season,Época de peligro alto,Prohibido el fuego,Decreto,https://juntadeandalucia.es/infoca',
      'ES,2025-08-01,2025-08-01,other,Nacional,,,',
    );
    expect(rows.map((r) => [r.line, r.scope, r.dateTo])).toEqual([
      [2, { level: 'municipality', code: '41091' }, '2025-07-03'],
      [3, { level: 'province', code: '41' }, null],
      [4, { level: 'community', code: 'CA01' }, '2025-10-15'],
      [5, { level: 'national', code: 'ES' }, '2025-08-01'],
    ]);
    expect(rows[0]!.measures).toEqual(['Sin barbacoas', 'Sin pirotecnia']);
    expect(rows[1]).toMatchObject({ measures: [], legalBasis: null, sourceUrl: null });
  });

  it.each([
    ['99999,2025-07-01,,alert,T,,,', 2, 'scope_code', 'no municipality has the INE code 99999'],
    ['53,2025-07-01,,alert,T,,,', 2, 'scope_code', 'no province'],
    ['CA20,2025-07-01,,alert,T,,,', 2, 'scope_code', 'no autonomous community'],
    ['EU,2025-07-01,,alert,T,,,', 2, 'scope_code', 'expected a 5-digit INE code'],
    ['ES,2025-02-30,,alert,T,,,', 2, 'date_from', 'expected a date'],
    ['ES,2025-07-02,2025-07-01,alert,T,,,', 2, 'date_to', 'before date_from'],
    ['ES,2025-07-01,,ban,T,,,', 2, 'type', 'expected one of prohibition'],
    ['ES,2025-07-01,,alert,,,,', 2, 'title', 'expected a title'],
    ['ES,2025-07-01,,alert,T,,,ftp://x', 2, 'source_url', 'expected an http(s) URL'],
  ])('refuses %s at line %p, column %s', async (row, line, column, message) => {
    const err = await failure(row);
    expect(err).toBeInstanceOf(CsvInputError);
    expect([err.line, err.column]).toEqual([line, column]);
    expect(err.message).toContain(`line ${line}, column "${column}"`);
    expect(err.message).toContain(message);
  });

  it('refuses a repeated decision at its second line, naming the first', async () => {
    const err = await failure('ES,2025-07-01,,alert,T,a,,', 'ES,2025-07-02,,alert,T,,,', 'ES,2025-07-01,,alert,T,b,,');
    expect([err.line, err.message]).toEqual([4, 'line 4: the same decision (scope, type, date_from, title) already appears on line 2']);
  });

  it('refuses a header without the required columns', async () => {
    const err = await (async () => {
      try {
        for await (const _ of decisionRows(['scope_code,date_from', 'ES,2025-07-01'], known));
      } catch (e) {
        return e as CsvInputError;
      }
      throw new Error('expected a refusal');
    })();
    expect(err.message).toMatch(/^line 1: missing columns "date_to", "type"/);
  });
});
