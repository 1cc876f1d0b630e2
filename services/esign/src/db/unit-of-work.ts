import pg from 'pg';
import { drizzle } from 'drizzle-orm/node-postgres';
import { schema, type EsignDb } from './index';

/** Builds a repository on a database handle (the pool, or a transaction). */
type RepositoryFactory = (db: EsignDb) => unknown;
type Bound<F extends Record<string, RepositoryFactory>> = { [K in keyof F]: ReturnType<F[K]> };

/**
 * The repositories one service uses, and a transaction over exactly those. Each service
 * declares its set (`UnitOfWork<{ requests: SigningRequestsRepository; ... }>`) and the
 * composition root (features.ts) builds it, so a service can touch no table it did not
 * ask for. Services decide what is atomic; the jobs they enqueue go out after commit.
 */
export type UnitOfWork<R> = R & {
  transaction<T>(fn: (tx: R) => Promise<T>): Promise<T>;
};

export function createUnitOfWork<F extends Record<string, RepositoryFactory>>(db: EsignDb, factories: F): UnitOfWork<Bound<F>> {
  const bind = (handle: EsignDb) => Object.fromEntries(Object.entries(factories).map(([name, make]) => [name, make(handle)])) as Bound<F>;
  const pool = (db as EsignDb & { $client?: unknown }).$client;
  // The services' database is always a pool (PGlite too, through its socket server).
  if (!(pool instanceof pg.Pool)) throw new TypeError('createUnitOfWork needs the pooled database handle (openDatabase().db)');
  // One handle, and one set of repositories, per pooled connection for as long as the pool
  // keeps it: the queries the repositories build once (db/prepared.ts) then serve every
  // transaction on that connection, instead of being built again in each transaction.
  // The transaction itself is drizzle's: begin, commit, or rollback on a throw.
  const perConnection = new WeakMap<pg.PoolClient, Bound<F>>();
  return {
    ...bind(db),
    async transaction(fn) {
      const client = await pool.connect();
      let begun = false;
      // Set when the connection cannot be trusted any more (its rollback failed): the pool drops it.
      let broken: Error | undefined;
      try {
        let repos = perConnection.get(client);
        if (!repos) {
          const handle = drizzle(client, { schema }) as unknown as EsignDb;
          // Not a drizzle transaction object: its transaction() would BEGIN again on the
          // connection (and commit the outer one early) instead of taking a savepoint.
          // Repositories never open transactions; this makes sure one inside a unit of work fails loudly.
          handle.transaction = () => Promise.reject(new Error('a repository inside a unit of work cannot open a transaction of its own'));
          repos = bind(handle);
          perConnection.set(client, repos);
        }
        await client.query('begin');
        begun = true;
        const result = await fn(repos);
        await client.query('commit');
        return result;
      } catch (err) {
        if (begun) {
          // The work's error is the one to report; a connection whose rollback failed (lost,
          // or left mid-transaction) goes back to the pool destroyed, never reused.
          await client.query('rollback').catch((rollbackErr: unknown) => {
            broken = rollbackErr instanceof Error ? rollbackErr : new Error(String(rollbackErr));
          });
        }
        throw err;
      } finally {
        client.release(broken);
      }
    },
  };
}
