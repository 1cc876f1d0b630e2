import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { testConfig } from '../__tests__/support';
import { eachDay } from '../calendar';
import { withTransaction } from '../db/locked-transaction';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { isoOfPgDay } from '../db/binary-copy';
import { READING_VALUE_COLUMNS } from './reading-columns';
import { weatherIngestion } from './repository';

describe('the stored readings an ingestion compares with: binary COPY (Postgres) and query (embedded) read the same', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const dir = mkdtempSync(join(tmpdir(), 'wf-stored-'));

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_stored_readings');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent' }), 'api');
    const lines = ['municipio_id,date,temp,rh,ws,prec'];
    for (const code of ['28079', '41091', '08019']) {
      eachDay('2024-06-01', '2024-07-31').forEach((date, i) => lines.push(`${code},${date},${20 + (i % 17) * 1.1},${15 + (i % 60)},${(i * 0.7) % 30},${i % 9 === 0 ? 12.5 : 0}`));
    }
    const path = join(dir, 'weather.csv');
    writeFileSync(path, lines.join('\n'));
    await rt.ingest.weather(path);
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const codes = ['28079', '41091', '46250'];
  /** The rows read, as plain objects (the columns' arrays have room beyond their length). */
  const read = async (mode: 'copy' | 'unnest', touched: { municipio_id: string; first: string }[]) => {
    const c = await withTransaction(rt.database.pool, (client) => weatherIngestion(client, mode).storedFrom(touched, (code) => codes.indexOf(code)));
    return Array.from({ length: c.length }, (_, i) => ({
      municipio_id: codes[c.municipality[i]!],
      date: isoOfPgDay(c.day[i]!),
      ...Object.fromEntries(READING_VALUE_COLUMNS.map((name, k) => [name, c.values[k]![i]])),
      label: c.label[i],
    }));
  };

  it('returns every stored reading from each first day on, grouped and in date order, identical both ways', async () => {
    const touched = [
      { municipio_id: '41091', first: '2024-07-30' },
      { municipio_id: '28079', first: '2024-06-01' },
      { municipio_id: '46250', first: '2024-06-01' },
    ];
    const copied = await read('copy', touched);
    expect(copied).toEqual(await read('unnest', touched));
    expect(copied).toHaveLength(61 + 2);
    expect(copied.map((r) => r.municipio_id)).toEqual([...Array(61).fill('28079'), '41091', '41091']);
    expect(copied.slice(0, 3).map((r) => r.date)).toEqual(['2024-06-01', '2024-06-02', '2024-06-03']);
    expect(copied.slice(61).map((r) => r.date)).toEqual(['2024-07-30', '2024-07-31']);
    const stored = (await rt.database.pool.query("SELECT temp, fwi, risk_score, risk_label FROM readings WHERE municipio_id = '41091' AND date = '2024-07-31'")).rows[0];
    expect(copied[62]).toMatchObject({ temp: stored.temp, fwi: stored.fwi, risk_score: stored.risk_score, label: ['LOW', 'MEDIUM', 'HIGH'].indexOf(stored.risk_label) });
  });

  it('returns nothing when nothing is stored from those days on', async () => {
    expect(await read('copy', [{ municipio_id: '28079', first: '2024-08-01' }])).toEqual([]);
  });
});
