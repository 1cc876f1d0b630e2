import type { Database } from './open-database';

/** The names held by runs in this process, per embedded database. */
const heldHere = new WeakMap<object, Set<string>>();

async function runIfUnheldHere<T>(owner: object, name: string, work: () => Promise<T>): Promise<LockedRun<T>> {
  const held = heldHere.get(owner) ?? new Set<string>();
  heldHere.set(owner, held);
  if (held.has(name)) return { ran: false };
  held.add(name);
  try {
    return { ran: true, value: await work() };
  } finally {
    held.delete(name);
  }
}

export type LockedRun<T> = { ran: true; value: T } | { ran: false };

/**
 * Runs `work` unless another holder has the Postgres session advisory lock `name`
 * (`pg_try_advisory_lock(hashtext(name))` on one connection of the pool): for periodic
 * tasks that several instances start, so that one runs at a time and the others skip
 * rather than queue behind it. The lock is held until `work` settles; a connection that
 * cannot unlock is destroyed, which releases it, as does a crash of the holder.
 * Embedded PGlite has one process and one connection (which `work` needs), so there the
 * lock is held in this process's memory instead: a second run of `name` while one runs is skipped.
 */
export async function runIfUnlocked<T>(database: Pick<Database<Record<string, unknown>>, 'kind' | 'pool'>, name: string, work: () => Promise<T>): Promise<LockedRun<T>> {
  if (database.kind !== 'postgres') return runIfUnheldHere(database.pool, name, work);
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
