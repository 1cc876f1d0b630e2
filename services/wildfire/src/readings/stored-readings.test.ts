import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { testConfig } from '../__tests__/support';
import { eachDay } from '../calendar';
import { withTransaction } from '../db/locked-transaction';
import { startWildfire, type WildfireRuntime } from '../runtime';
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

  const read = (mode: 'copy' | 'unnest', touched: { municipio_id: string; first: string }[]) =>
    withTransaction(rt.database.pool, (client) => weatherIngestion(client, mode).storedFrom(touched));

  it('returns every stored reading from each first day on, grouped and in date order, identical both ways', async () => {
    const touched = [
      { municipio_id: '41091', first: '2024-07-30' },
      { municipio_id: '28079', first: '2024-06-01' },
      { municipio_id: '46250', first: '2024-06-01' },
    ];
    const copied = await read('copy', touched);
    expect(copied).toEqual(await read('unnest', touched));
    expect(copied).toHaveLength(61 + 2);
    expect(copied[0]!.slice(0, 2)).toEqual(['28079', 8918]); // 2024-06-01 is day 8918 since 2000-01-01
    expect(copied[61]!.slice(0, 2)).toEqual(['41091', 8977]);
    expect(copied[62]![14]).toMatch(/^(LOW|MEDIUM|HIGH)$/);
    expect(typeof copied[62]![13]).toBe('number');
  });

  it('returns nothing when nothing is stored from those days on', async () => {
    expect(await read('copy', [{ municipio_id: '28079', first: '2024-08-01' }])).toEqual([]);
  });
});
