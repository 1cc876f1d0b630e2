import pg from 'pg';
import { createTestDatabase, type TestDatabase, testPool } from '@firma-riesgo/service-kit/testing';
import { bulkLoadColumns, bulkLoadColumnsAsFilled, type BulkMode } from './bulk-load';
import { isoOfPgDay, pgDayOf, type ColumnSource } from './binary-copy';
import { withTransaction } from './locked-transaction';

/** Rows that cross the binary COPY's 1 MB chunks (about 50 bytes each) and values that test the encoding. */
function sample(length: number): ColumnSource[] {
  const days = new Int32Array(length);
  const amounts = new Float64Array(length);
  const counts = new Int32Array(length);
  const names = new Uint8Array(length);
  // -0 is stored as 0 both ways (its text form is "0").
  const awkward = [0.1 + 0.2, -0, 1e-300, -123456.789, Number.MAX_VALUE, 5e-324];
  for (let i = 0; i < length; i++) {
    days[i] = (i % 20_000) - 5_000; // 1986 to 2040: before and after the 2000-01-01 epoch
    amounts[i] = i < awkward.length ? awkward[i]! : i / 7;
    counts[i] = i % 2 === 0 ? -i : i;
    names[i] = i % 4;
  }
  return [
    { name: 'day', data: { type: 'date', days } },
    { name: 'amount', data: { type: 'float8', values: amounts } },
    { name: 'count', data: { type: 'int4', values: counts } },
    { name: 'name', data: { type: 'text', index: names, dictionary: ['Alcalá de Henares', 'a "quoted", comma', '', 'x\ny'] } },
  ];
}

describe('bulkLoadColumns: typed columns into a table, binary COPY on Postgres and unnest batches on embedded', () => {
  let db: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_bulk_load');
    pool = testPool(db.url);
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const load = async (mode: BulkMode, table: string, columns: ColumnSource[], length: number) => {
    await pool.query(`CREATE TABLE ${table} (day date, amount float8, count int4, name text)`);
    const loaded = await withTransaction(pool, (client) => bulkLoadColumns(client, mode, table, columns, length));
    const { rows } = await pool.query(`SELECT day::text AS day, amount, count, name FROM ${table} ORDER BY ctid`);
    return { loaded, rows };
  };

  it('stores the same rows both ways, exactly, across chunk boundaries', async () => {
    const length = 30_000;
    const columns = sample(length);
    const copy = await load('copy', 'by_copy', columns, length);
    const unnest = await load('unnest', 'by_unnest', columns, length);
    expect(copy.loaded).toBe(length);
    expect(unnest.loaded).toBe(length);
    expect(copy.rows).toHaveLength(length);
    expect(copy.rows).toEqual(unnest.rows);
    expect(copy.rows.slice(0, 4)).toEqual([
      { day: '1986-04-24', amount: 0.1 + 0.2, count: 0, name: 'Alcalá de Henares' },
      { day: '1986-04-25', amount: 0, count: 1, name: 'a "quoted", comma' },
      { day: '1986-04-26', amount: 1e-300, count: -2, name: '' },
      { day: '1986-04-27', amount: -123456.789, count: 3, name: 'x\ny' },
    ]);
    expect(copy.rows[5].amount).toBe(5e-324);
    expect(copy.rows[length - 1]).toEqual({ day: isoOfPgDay((length - 1) % 20_000 - 5_000), amount: (length - 1) / 7, count: -(length - 1) + 2 * (length - 1), name: 'x\ny' });
  });

  it('loads only the first `length` rows, and nothing for 0', async () => {
    const columns = sample(10);
    expect((await load('copy', 'first_three', columns, 3)).rows.map((r) => r.count)).toEqual([0, 1, -2]);
    expect(await load('copy', 'none', columns, 0)).toEqual({ loaded: 0, rows: [] });
  });

  describe('bulkLoadColumnsAsFilled: columns loaded batch by batch as they are filled', () => {
    const length = 30_000;
    // Ready counts as a computation reports them: none yet, a few, the same again, then more across chunk boundaries.
    const filled = [0, 7, 7, 12_000, 29_999, length];

    it.each<BulkMode>(['copy', 'unnest'])('%s: the same rows as one bulkLoadColumns, every ready count taken', async (mode) => {
      const columns = sample(length);
      const reads: number[] = [];
      const table = `filled_${mode}`;
      await pool.query(`CREATE TABLE ${table} (day date, amount float8, count int4, name text)`);
      const loaded = await withTransaction(pool, (client) =>
        bulkLoadColumnsAsFilled(client, mode, table, () => columns, (function* () {
          for (const ready of filled) {
            reads.push(ready);
            yield ready;
          }
        })()),
      );
      expect(loaded).toBe(length);
      expect(reads).toEqual(filled);
      const whole = await load(mode, `whole_${mode}`, columns, length);
      expect((await pool.query(`SELECT day::text AS day, amount, count, name FROM ${table} ORDER BY ctid`)).rows).toEqual(whole.rows);
    });

    it('a throw while the columns are being filled aborts the COPY with it: nothing is written', async () => {
      await pool.query('CREATE TABLE filled_then_failed (day date, amount float8, count int4, name text)');
      const columns = sample(length);
      const failing = function* () {
        yield 12_000;
        throw new Error('the computation failed');
      };
      await expect(withTransaction(pool, (client) => bulkLoadColumnsAsFilled(client, 'copy', 'filled_then_failed', () => columns, failing()))).rejects.toThrow('the computation failed');
      expect((await pool.query('SELECT count(*)::int AS n FROM filled_then_failed')).rows[0].n).toBe(0);
    });
  });

  it('aborts with the transaction: a failing COPY leaves nothing', async () => {
    await pool.query('CREATE TABLE strict (day date, amount float8, count int4 CHECK (count >= 0), name text)');
    await expect(withTransaction(pool, (client) => bulkLoadColumns(client, 'copy', 'strict', sample(100), 100))).rejects.toThrow(/check constraint/);
    expect((await pool.query('SELECT count(*)::int AS n FROM strict')).rows[0].n).toBe(0);
  });
});

describe('day numbers (days since 2000-01-01, the binary date)', () => {
  it.each([
    ['2000-01-01', 0],
    ['1999-12-31', -1],
    ['2024-02-29', 8825],
    ['2025-12-31', 9496],
  ])('%s is day %i and back', (iso, day) => {
    expect(pgDayOf(iso)).toBe(day);
    expect(isoOfPgDay(day)).toBe(iso);
  });
});
