import pg from 'pg';
import { createTestDatabase, type TestDatabase, testPool } from '@firma-riesgo/service-kit/testing';
import { withLockedTransaction } from './locked-transaction';

describe('a locked transaction (ingestions, the automatic-decisions rebuild)', () => {
  let db: TestDatabase;
  let pool: pg.Pool;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_locked_tx');
    pool = testPool(db.url, 1);
  });

  afterAll(async () => {
    await pool?.end();
    await db?.drop();
  });

  const jit = async (client: pg.ClientBase) => (await client.query<{ jit: string }>('SHOW jit')).rows[0]!.jit;

  it('runs its statements without JIT compilation, and leaves the connection as it found it', async () => {
    // Postgres's default is on (as on the test server); whatever the server says, the transaction says off.
    const before = await jit(pool as unknown as pg.ClientBase);
    expect(await withLockedTransaction(pool, 'test-lock', (client) => jit(client))).toBe('off');
    // The one pooled connection again: the setting ended with the transaction.
    expect(await jit(pool as unknown as pg.ClientBase)).toBe(before);
  });

  it('holds its advisory lock until it ends, and rolls everything back on a throw', async () => {
    await pool.query('CREATE TABLE t (n int)');
    await expect(
      withLockedTransaction(pool, 'test-lock', async (client) => {
        await client.query('INSERT INTO t VALUES (1)');
        const { rows } = await client.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()",
        );
        expect(rows[0]!.n).toBe(1);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await pool.query('SELECT count(*)::int AS n FROM t')).rows[0].n).toBe(0);
  });
});
