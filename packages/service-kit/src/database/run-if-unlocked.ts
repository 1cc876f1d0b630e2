import type { Database } from './open-database';

export type LockedRun<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` unless another holder has the Postgres session advisory lock `name`
 * (`pg_try_advisory_lock(hashtext(name))` on one connection of the pool): for periodic
 * tasks that several instances start, so that one runs at a time and the others skip
 * rather than queue behind it. The lock is held until `work` settles; a connection that
 * cannot unlock is destroyed, which releases it, as does a crash of the holder.
 * Embedded PGlite has one process and one connection (which `work` needs), so there it
 * simply runs.
 */
export async function runIfUnlocked<T>(database: Pick<Database<Record<string, unknown>>, 'kind' | 'pool'>, name: string, work: () => Promise<T>): Promise<LockedRun<T>> {
  if (database.kind !== 'postgres') return { ran: true, value: await work() };
  const client = await database.pool.connect();
  let broken: Error | undefined;
  try {
    let locked: boolean;
    try {
      const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtext($1)) as locked', [name]);
      locked = rows[0]?.locked === true;
    } catch (err) {
      broken = err as Error;
      throw err;
    }
    if (!locked) return { ran: false };
    try {
      return { ran: true, value: await work() };
    } finally {
      await client.query('select pg_advisory_unlock(hashtext($1))', [name]).catch((err: Error) => (broken = err));
    }
  } finally {
    client.release(broken);
  }
}
