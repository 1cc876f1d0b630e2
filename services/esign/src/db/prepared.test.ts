import { eq, sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { testConfig } from '../__tests__/support';
import { tenants } from '../keys/tables';
import { startEsign, type EsignRuntime } from '../runtime';
import type { EsignDb } from './index';
import { preparedQuery, UNNAMED } from './prepared';

/** A hot query is built once on the pool's handle, and per call on a transaction's. */
describe('preparedQuery', () => {
  let db: TestDatabase;
  let rt: EsignRuntime;
  const ids: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('esign_prepared_query');
    rt = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url }), 'cli');
    for (const tenant of ['uno', 'dos', 'tres']) ids.push((await rt.keys.create({ tenant })).record.tenantId);
  });

  afterAll(async () => {
    await rt?.close();
    await db?.drop();
  });

  function nameQuery(handle: EsignDb) {
    let builds = 0;
    const run = preparedQuery(handle, () => {
      builds++;
      return handle.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, sql.placeholder('id'))).prepare(UNNAMED);
    });
    return { run, builds: () => builds };
  }

  it('builds once on the pool and answers each call with its own values', async () => {
    const q = nameQuery(rt.database.db);
    // Concurrent calls on different pool connections share the one built query.
    const names = await Promise.all([...ids, ...ids].map((id) => q.run({ id })));
    expect(names.map((rows) => rows[0]?.name)).toEqual(['uno', 'dos', 'tres', 'uno', 'dos', 'tres']);
    expect(q.builds()).toBe(1);
  });

  it("builds per call on a transaction's handle, which ends with its transaction", async () => {
    for (const [i, id] of ids.entries()) {
      const builds = await rt.database.db.transaction(async (tx) => {
        const q = nameQuery(tx as unknown as EsignDb);
        expect((await q.run({ id }))[0]?.name).toBe(['uno', 'dos', 'tres'][i]);
        expect((await q.run({ id }))[0]?.name).toBe(['uno', 'dos', 'tres'][i]);
        return q.builds();
      });
      expect(builds).toBe(2);
    }
  });
});
