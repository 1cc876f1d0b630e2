import { AsyncLocalStorage } from 'node:async_hooks';
import type { UnitOfWork } from '../../db/unit-of-work';
import { copy, type FakeTables } from './fake-tables';

/**
 * The fake of db/unit-of-work.ts `createUnitOfWork`: the same `UnitOfWork<R>` shape (the
 * repositories, and `transaction(fn)` giving them to `fn`). A transaction snapshots the
 * tables and puts them back when `fn` throws, so nothing half-written stays, as with
 * Postgres' rollback. Transactions run one at a time: a stand-in for the row locks the
 * services take (`lockByTokenHash`, `lock`), so of two concurrent confirmations the
 * second sees the first's outcome. Unlike Postgres, a read outside the transaction sees
 * its writes before it ends; no service relies on either behaviour.
 */
export function createFakeUnitOfWork<R extends object>(tables: FakeTables, repos: R): UnitOfWork<R> {
  const inside = new AsyncLocalStorage<true>();
  let queue: Promise<unknown> = Promise.resolve();
  return {
    ...repos,
    transaction<T>(fn: (tx: R) => Promise<T>): Promise<T> {
      // createUnitOfWork gives a transaction's repositories no transaction() of their own.
      if (inside.getStore()) return Promise.reject(new Error('a repository inside a unit of work cannot open a transaction of its own'));
      const run = async (): Promise<T> => {
        const snapshot = copy(tables);
        try {
          return await inside.run(true, () => fn(repos));
        } catch (err) {
          for (const name of Object.keys(tables) as (keyof FakeTables)[]) (tables[name] as unknown[]).splice(0, tables[name].length, ...(snapshot[name] as unknown[]));
          throw err;
        }
      };
      const result = queue.then(run, run);
      queue = result.catch(() => undefined);
      return result;
    },
  };
}
