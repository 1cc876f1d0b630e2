import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CsvInputError } from '../csv-input';
import { readWeatherFile, startReadingWeatherFile, type WeatherFileRead } from './weather-file';

// `wildfire ingest weather` reads its file on a worker thread (startReadingWeatherFile) while
// the runtime starts; every other caller reads it on its own thread (readWeatherFile). The
// two must give the same rows, the same first lines and the same refusal.

const TODAY = '2025-06-30';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'weather-file-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** What a read holds, as plain data to compare. */
function plain(read: WeatherFileRead) {
  const w = read.weather;
  const failure = read.failure as (Error & { line?: number; column?: string; code?: string }) | undefined;
  return {
    rows: w && Array.from({ length: w.length }, (_, i) => [w.codes[w.municipality[i]!], w.day[i], w.line[i], w.temp[i], w.rh[i], w.ws[i], w.prec[i]]),
    numbers: w && [...w.numberOf],
    firstLine: [...read.firstLine],
    failure: failure && { csv: failure instanceof CsvInputError, message: failure.message, line: failure.line, column: failure.column, code: failure.code },
  };
}

async function both(path: string) {
  const here = await readWeatherFile(path, TODAY);
  const there = await startReadingWeatherFile(path, TODAY).read;
  return { here: plain(here), there: plain(there) };
}

describe('reading a weather file on a worker thread', () => {
  it('gives the rows, municipality numbers and first lines read on this thread, whatever the row order', async () => {
    const path = file(
      'good.csv',
      'municipio_id,date,temp,rh,ws,prec\n41091,2025-06-02,31.5,20,12.25,0\n28079,2025-06-01,25,35.5,8,1.2\n41091,2025-06-01,30,22,10,0\n',
    );
    const { here, there } = await both(path);
    expect(there).toEqual(here);
    expect(there.rows).toHaveLength(3);
    expect(there.firstLine).toEqual([
      ['41091', 2],
      ['28079', 3],
    ]);
    expect(there.failure).toBeUndefined();
  });

  it('refuses a bad row with the same line, column and message, and keeps the codes met before it', async () => {
    const path = file('bad.csv', 'municipio_id,date,temp,rh,ws,prec\n28079,2025-06-01,25,35,8,0\n08019,2025-06-02,25,300,8,0\n41091,2025-06-03,25,30,8,0\n');
    const { here, there } = await both(path);
    expect(there).toEqual(here);
    expect(there.failure).toMatchObject({ csv: true, line: 3, column: 'rh' });
    expect(there.failure!.message).toMatch(/relative humidity/);
    expect(there.firstLine).toEqual([
      ['28079', 2],
      ['08019', 3],
    ]);
  });

  it('refuses a day after today as this thread does', async () => {
    const path = file('future.csv', 'municipio_id,date,temp,rh,ws,prec\n28079,2025-07-01,25,35,8,0\n');
    const { here, there } = await both(path);
    expect(there).toEqual(here);
    expect(there.failure).toMatchObject({ csv: true, line: 2, column: 'date' });
  });

  it('reports a missing file with its ENOENT code, which the CLI answers as "no such file"', async () => {
    const { here, there } = await both(join(dir, 'absent.csv'));
    expect(there).toEqual(here);
    expect(there.failure).toMatchObject({ csv: false, code: 'ENOENT' });
  });

  it('stops when cancelled, before it answers', async () => {
    const reading = startReadingWeatherFile(file('any.csv', 'municipio_id,date,temp,rh,ws,prec\n28079,2025-06-01,25,35,8,0\n'), TODAY);
    await reading.cancel();
    await expect(reading.read).rejects.toThrow(/stopped .* before it answered/);
  });
});
