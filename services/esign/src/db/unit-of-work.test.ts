import { eq, sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { testConfig } from '../__tests__/support';
import { tenants } from '../keys/tables';
import { startEsign, type EsignRuntime } from '../runtime';
import type { EsignDb } from './index';
import { createUnitOfWork } from './unit-of-work';

/**
 * A unit of work's transactions run on a pooled connection with repositories built once
 * per connection (so the queries they build once serve every transaction there), and keep
 * a transaction's meaning: all or nothing.
 */
describe('createUnitOfWork', () => {
  let db: TestDatabase;
  let rt: EsignRuntime;
  let built = 0;
  const tenantsRepo = (handle: EsignDb) => {
    built++;
    return {
      insert: (name: string) => handle.insert(tenants).values({ name }),
      exists: async (name: string) => (await handle.select({ id: tenants.id }).from(tenants).where(eq(tenants.name, name))).length === 1,
      nested: () => handle.transaction(async () => undefined),
      backendPid: async () => Number(((await handle.execute(sql`SELECT pg_backend_pid() AS pid`)).rows[0] as { pid: number }).pid),
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase('esign_unit_of_work');
    rt = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url }), 'cli');
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  it('builds the repositories once per pooled connection, not once per transaction', async () => {
    built = 0;
    const uow = createUnitOfWork(rt.database.db, { tenants: tenantsRepo });
    expect(built).toBe(1);
    // One after another: the pool hands out its one idle connection each time.
    for (let i = 0; i < 5; i++) await uow.transaction(async (tx) => tx.tenants.exists('nobody'));
    expect(built).toBe(2);
    // At once: at most one set per connection the pool opened.
    await Promise.all(Array.from({ length: 4 }, () => uow.transaction(async (tx) => tx.tenants.exists('nobody'))));
    expect(built).toBeLessThanOrEqual(1 + rt.database.pool.totalCount);
  });

  it('commits what the callback wrote, and rolls all of it back when it throws', async () => {
    const uow = createUnitOfWork(rt.database.db, { tenants: tenantsRepo });
    await uow.transaction(async (tx) => {
      await tx.tenants.insert('kept-a');
      await tx.tenants.insert('kept-b');
    });
    await expect(
      uow.transaction(async (tx) => {
        await tx.tenants.insert('gone-a');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect([await uow.tenants.exists('kept-a'), await uow.tenants.exists('kept-b'), await uow.tenants.exists('gone-a')]).toEqual([true, true, false]);
    // The connection went back to the pool clean: the next transaction works.
    await uow.transaction(async (tx) => tx.tenants.insert('after'));
    expect(await uow.tenants.exists('after')).toBe(true);
  });

  it('refuses a transaction opened by a repository inside one, and rolls back', async () => {
    const uow = createUnitOfWork(rt.database.db, { tenants: tenantsRepo });
    await expect(
      uow.transaction(async (tx) => {
        await tx.tenants.insert('nested');
        await tx.tenants.nested();
      }),
    ).rejects.toThrow(/cannot open a transaction/);
    expect(await uow.tenants.exists('nested')).toBe(false);
  });

  it('reports the work’s error when the connection is lost mid-transaction, and never reuses that connection', async () => {
    const uow = createUnitOfWork(rt.database.db, { tenants: tenantsRepo });
    const failure = uow.transaction(async (tx) => {
      await tx.tenants.insert('lost');
      // Another connection ends this one's backend, as a Postgres restart or failover would.
      await rt.database.pool.query('SELECT pg_terminate_backend($1)', [await tx.tenants.backendPid()]);
      await tx.tenants.exists('lost');
    });
    // The statement's error (drizzle's, caused by the terminated connection), not the failed rollback's.
    const err = (await failure.catch((e: unknown) => e)) as Error & { cause?: Error };
    expect(err.message).toMatch(/^Failed query: select "id" from "tenants"/);
    // pg says either, depending on whether it noticed the closed socket before the query was sent.
    expect(err.cause?.message).toMatch(/terminat|connection error/i);
    // Every later transaction finds a working connection, and nothing of the lost one was kept.
    for (let i = 0; i < 3; i++) await uow.transaction(async (tx) => tx.tenants.exists('nobody'));
    expect(await uow.tenants.exists('lost')).toBe(false);
  });
});
