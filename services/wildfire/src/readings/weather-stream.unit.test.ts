import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isoOfPgDay } from '../db/binary-copy';
import { CsvInputError, fileLines } from '../csv-input';
import { weatherRows } from './weather-csv';
import { weatherColumnsOf } from './weather-stream';

const context = { isKnown: (code: string) => ['28079', '41091', '08019'].includes(code), today: '2025-06-30' };

/** Every row of the columns, in file order, as the validator's rows look. */
async function viaStream(path: string, chunkBytes?: number) {
  const w = await weatherColumnsOf(path, context, { chunkBytes });
  return Array.from({ length: w.length }, (_, i) => ({
    line: w.line[i],
    municipioId: w.codes[w.municipality[i]!],
    date: isoOfPgDay(w.day[i]!),
    temp: w.temp[i],
    rh: w.rh[i],
    ws: w.ws[i],
    prec: w.prec[i],
  }));
}

/** The reference: readline lines through the validator, row by row. */
async function viaValidator(path: string) {
  const rows = [];
  for await (const row of weatherRows(fileLines(path), context)) rows.push(row);
  return rows;
}

async function errorOf(work: Promise<unknown>): Promise<{ message: string; line: number; column?: string }> {
  const err = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof CsvInputError)) throw new Error(`expected a CsvInputError, got ${String(err)}`);
  return { message: err.message, line: err.line, column: err.column };
}

describe('weatherColumnsOf: the weather file streamed into typed columns', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wf-weather-stream-'));
  let n = 0;
  const file = (text: string | Buffer) => {
    const path = join(dir, `w${n++}.csv`);
    writeFileSync(path, text);
    return path;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Plain lines (the fast path) beside lines only the validator reads: spaces, quotes,
  // an exponent, 16 digits, signs, "1." and ".5", a blank line and a whitespace-only one.
  const body = [
    'municipio_id,date,temp,rh,ws,prec',
    '28079,2024-06-01,31.4,22,12.5,0',
    '41091,2024-06-01,-0,100,0,0.25',
    '',
    '28079,2024-06-02, 30.1 ,40,3,1',
    '"41091",2024-06-02,29,35,1e1,0',
    '08019,2024-02-29,12.3456789012345,50.5,+3,1234567890123456',
    '   ',
    '28079,2024-06-03,1.,.5,0.1,2.675',
    '41091,2024-06-03,-89.99,0,7,0',
  ];

  it.each([
    ['LF, ending with one', body.join('\n') + '\n'],
    ['CRLF, ending without one', body.join('\r\n')],
    ['lone CRs', body.join('\r') + '\r'],
    ['mixed, with a BOM', '\uFEFF' + body.slice(0, 4).join('\r\n') + '\n' + body.slice(4).join('\r') + '\r\n'],
  ])('reads %s exactly as the line-by-line validator does, whatever the chunk size', async (_label, text) => {
    const path = file(text);
    const expected = await viaValidator(path);
    expect(expected).toHaveLength(7);
    for (const chunkBytes of [1, 2, 3, 7, 64, 64 * 1024]) expect(await viaStream(path, chunkBytes)).toEqual(expected);
  });

  it('numbers lines across chunk boundaries and names the bad line and column as the validator does', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `28079,${isoOfPgDay(6000 + i)},20.5,40,10,0`);
    for (const [index, bad, column] of [
      [1234, '28079,2022-01-01,20.5,140,10,0', 'rh'],
      [2000, '99999,2022-01-01,20.5,40,10,0', 'municipio_id'],
      [2999, '28079,2023-02-29,20.5,40,10,0', 'date'],
      [2500, '28079,2026-01-01,20.5,40,10,0', 'date'],
      [17, '28079,2022-01-01,20.5,40,-1,0', 'ws'],
    ] as const) {
      const lines = ['municipio_id,date,temp,rh,ws,prec', ...rows];
      lines[index] = bad;
      const path = file(lines.join('\r\n'));
      const expected = await errorOf(viaValidator(path));
      expect(expected).toMatchObject({ line: index + 1, column });
      for (const chunkBytes of [3, 1000, 64 * 1024]) expect(await errorOf(weatherColumnsOf(path, context, { chunkBytes }))).toEqual(expected);
    }
  });

  it('reads a `;`-separated file with decimal commas and columns in another order', async () => {
    const path = file('date;municipio_id;prec;ws;rh;temp\n2024-09-01;28079;0;12,5;40;28,5\n');
    expect(await viaStream(path, 5)).toEqual([{ line: 2, municipioId: '28079', date: '2024-09-01', temp: 28.5, rh: 40, ws: 12.5, prec: 0 }]);
  });

  it.each([
    ['an empty file', '', 'the file is empty'],
    ['blank lines only', '\n\r\n  \n', 'the file is empty'],
    ['a missing column', 'municipio_id,date,temp,rh,ws\n28079,2024-01-01,10,50,5\n', 'line 1: missing column "prec"'],
    ['an unclosed quote', 'municipio_id,date,temp,rh,ws,prec\n28079,2024-01-01,10,50,5,"0\n', 'line 2: a quoted field is not closed'],
  ])('refuses %s', async (_label, text, message) => {
    expect((await errorOf(weatherColumnsOf(file(text), context, { chunkBytes: 4 }))).message).toContain(message);
  });
});
