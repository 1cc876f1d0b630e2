import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { eventually, testConfig } from '../__tests__/support';
import { todayInSpain } from '../calendar';
import { pgDayOf } from '../db/binary-copy';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { READING_VALUE_COLUMNS, ReadingColumns } from './reading-columns';
import { createIngestWeather } from './ingest-weather';
import { createReadingsRepository, weatherIngestion } from './repository';

/**
 * The readings table has no foreign key to municipalities (migration 0009): ingestion
 * checks and locks the file's municipalities in one query, and a trigger keeps a
 * municipality that has readings. These are the foreign key's guarantees, kept.
 */
describe('readings name existing municipalities without a per-row foreign key', () => {
  let db: TestDatabase;
  let rt: WildfireRuntime;
  const dir = mkdtempSync(join(tmpdir(), 'wf-integrity-'));
  const readingsOf = async (code: string) =>
    (await rt.database.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM readings WHERE municipio_id = $1', [code])).rows[0]!.n;
  const exists = async (code: string) => (await rt.database.pool.query('SELECT 1 FROM municipalities WHERE ine_code = $1', [code])).rowCount === 1;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_readings_integrity');
    rt = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url, LOG_LEVEL: 'silent' }), 'api');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a municipality deleted after the file was validated rejects the file, naming its first line, and loads nothing', async () => {
    // Lines 2–7: 28079 and 30031 alternate, so 30031 first appears on line 3.
    const rows = ['2024-05-01', '2024-05-02', '2024-05-03'].flatMap((date) => [`28079,${date},25,40,10,0`, `30031,${date},27,35,12,0`]);
    const path = join(dir, 'race.csv');
    writeFileSync(path, ['municipio_id,date,temp,rh,ws,prec', ...rows].join('\n') + '\n');
    const ingest = createIngestWeather({
      repo: createReadingsRepository(rt.database),
      // The file is validated against the municipalities as they were; 30031 is deleted before the transaction starts.
      municipalities: {
        locations: () => rt.municipalities.locations(),
        locationsOf: async (codes) => {
          const known = await rt.municipalities.locationsOf(codes);
          await rt.database.pool.query("DELETE FROM municipalities WHERE ine_code = '30031'");
          return known;
        },
      },
      today: () => todayInSpain(rt.clock()),
      afterReadings: async () => undefined,
      highFwi: Infinity,
      now: rt.clock,
    });
    await expect(ingest(path)).rejects.toMatchObject({
      name: 'CsvInputError',
      line: 3,
      column: 'municipio_id',
      message: 'line 3, column "municipio_id": no municipality has the INE code 30031',
    });
    expect(await readingsOf('28079')).toBe(0);
    expect(await readingsOf('30031')).toBe(0);
  });

  it('a municipality with readings can be neither deleted nor re-coded (23503, as with the foreign key); other changes and other municipalities are free', async () => {
    const path = join(dir, 'madrid.csv');
    writeFileSync(path, 'municipio_id,date,temp,rh,ws,prec\n28079,2024-06-01,30,30,10,0\n28079,2024-06-02,31,28,12,0\n');
    expect(await rt.ingest.weather(path)).toMatchObject({ inserted: 2 });
    const { pool } = rt.database;
    await expect(pool.query("DELETE FROM municipalities WHERE ine_code = '28079'")).rejects.toMatchObject({ code: '23503' });
    await expect(pool.query("UPDATE municipalities SET ine_code = '28999' WHERE ine_code = '28079'")).rejects.toMatchObject({ code: '23503' });
    expect(await exists('28079')).toBe(true);
    expect(await readingsOf('28079')).toBe(2);
    // Enrichment updates the other columns of a municipality with readings.
    await pool.query("UPDATE municipalities SET name = 'Madrid (nomenclátor)', ine_code = '28079' WHERE ine_code = '28079'");
    expect((await pool.query("SELECT name FROM municipalities WHERE ine_code = '28079'")).rows[0].name).toBe('Madrid (nomenclátor)');
    expect((await pool.query("DELETE FROM municipalities WHERE ine_code = '28080'")).rowCount).toBe(1);
  });

  it('an ingestion holds its municipalities until it commits: a delete meanwhile waits, then is refused', async () => {
    const ingesting = await rt.database.pool.connect();
    const deleting = await rt.database.pool.connect();
    try {
      await ingesting.query('BEGIN');
      const ingestion = weatherIngestion(ingesting, 'copy');
      expect(await ingestion.lockMunicipalities(['41091', '99999'])).toEqual(['99999']);
      const deletePid = (await deleting.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      const deleted = deleting.query("DELETE FROM municipalities WHERE ine_code = '41091'").then(
        () => 'deleted',
        (err: { code?: string }) => err.code,
      );
      await eventually(async () => {
        const { rows } = await rt.database.pool.query('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [deletePid]);
        return rows[0]?.wait_event_type === 'Lock' ? true : undefined;
      });
      const reading = new ReadingColumns(1);
      reading.push(0, pgDayOf('2024-07-01'), new Float64Array(READING_VALUE_COLUMNS.length).fill(1), 0);
      expect(await ingestion.insert(() => reading.sources(['41091']), [1])).toBe(1);
      await ingesting.query('COMMIT');
      expect(await deleted).toBe('23503');
      expect(await exists('41091')).toBe(true);
      expect(await readingsOf('41091')).toBe(1);
    } finally {
      ingesting.release();
      deleting.release();
    }
  });
});
