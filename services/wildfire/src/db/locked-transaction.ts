import type pg from 'pg';

/** Runs `work` on one connection inside a transaction; any throw rolls everything back. */
export async function withTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * Runs `work` on one connection inside a transaction holding the advisory lock `name`,
 * so two ingestions (or two instances seeding) never interleave; the lock is released
 * with the transaction. Any throw rolls everything back.
 *
 * These are the bulk writes (ingestions, the automatic-decisions rebuild), so JIT
 * compilation is off for the transaction: their statements run once over many rows and
 * the planner's cost estimate sends them to LLVM, whose compiling cost more than it
 * saved. Measured on the automatic decisions of a year of 1,000 municipalities: 3.4 s
 * with JIT, 1.2 s without.
 */
export function withLockedTransaction<T>(pool: pg.Pool, name: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  return withTransaction(pool, async (client) => {
    await client.query('SET LOCAL jit = off');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [name]);
    return work(client);
  });
}
