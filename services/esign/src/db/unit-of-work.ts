import type { EsignDb } from './index';

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
  return {
    ...bind(db),
    // A drizzle transaction offers the same query API as the database it came from.
    transaction: (fn) => db.transaction((tx) => fn(bind(tx as unknown as EsignDb))),
  };
}
