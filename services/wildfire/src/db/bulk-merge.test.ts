import pg from 'pg';
import { createTestDatabase, type TestDatabase, testPool } from '@firma-riesgo/service-kit/testing';
import type { BulkColumn } from './bulk-load';
import { bulkMerge, stageRows } from './bulk-merge';
import { withTransaction } from './locked-transaction';

const COLUMNS: readonly BulkColumn[] = [
  { name: 'id', type: 'text' },
  { name: 'kind', type: 'text' },
  { name: 'amount', type: 'float8' },
];

describe('bulkMerge: the staging-table upsert of the ingestions', () => {
  let db: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_bulk_merge');
    pool = testPool(db.url);
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  beforeEach(async () => {
    await pool.query('DROP TABLE IF EXISTS items');
    await pool.query('CREATE TABLE items (id text PRIMARY KEY, kind text NOT NULL, amount float8, changed_at timestamptz)');
  });

  const merge = (rows: (string | number | null)[][], options: { skipUnchanged: boolean; insertOnly?: boolean }) =>
    withTransaction(pool, async (client) => {
      await stageRows(client, 'unnest', 'items_staging', COLUMNS, rows);
      return bulkMerge(client, {
        table: 'items',
        staging: 'items_staging',
        key: ['id'],
        insertOnly: options.insertOnly ? ['kind'] : [],
        values: options.insertOnly ? ['amount'] : ['kind', 'amount'],
        stamp: 'changed_at',
        skipUnchanged: options.skipUnchanged,
      });
    });
  const stored = async () => (await pool.query('SELECT id, kind, amount, changed_at FROM items ORDER BY id')).rows;

  it('inserts new keys and counts them as inserted, stamping them', async () => {
    expect(await merge([['a', 'x', 1], ['b', 'y', null]], { skipUnchanged: true })).toEqual({ inserted: 2, updated: 0 });
    const rows = await stored();
    expect(rows.map((r) => [r.id, r.kind, r.amount])).toEqual([['a', 'x', 1], ['b', 'y', null]]);
    expect(rows.every((r) => r.changed_at instanceof Date)).toBe(true);
  });

  it('skipping unchanged rows: updates only rows whose values differ (NULLs compared as values), leaving the others’ stamp alone', async () => {
    await merge([['a', 'x', 1], ['b', 'y', null]], { skipUnchanged: true });
    await pool.query(`UPDATE items SET changed_at = '2020-01-01T00:00:00Z'`);
    expect(await merge([['a', 'x', 1], ['b', 'y', null], ['c', 'z', 3]], { skipUnchanged: true })).toEqual({ inserted: 1, updated: 0 });
    expect(await merge([['a', 'x', 2], ['b', 'y', null]], { skipUnchanged: true })).toEqual({ inserted: 0, updated: 1 });
    const [a, b] = await stored();
    expect([a.amount, a.changed_at.getUTCFullYear() > 2020]).toEqual([2, true]);
    expect(b.changed_at.toISOString()).toBe('2020-01-01T00:00:00.000Z');
  });

  it('without skipping: overwrites every conflicting row, and never an insert-only column', async () => {
    await merge([['a', 'x', 1]], { skipUnchanged: false, insertOnly: true });
    expect(await merge([['a', 'changed', 1]], { skipUnchanged: false, insertOnly: true })).toEqual({ inserted: 0, updated: 1 });
    expect((await stored()).map((r) => [r.id, r.kind, r.amount])).toEqual([['a', 'x', 1]]);
  });
});
