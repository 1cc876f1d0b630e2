import { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startWildfire } from '../runtime';
import { REDIS_URL, eventually, testConfig, uniquePrefix } from './support';

/** The names of the Redis connections open on the server right now. */
async function connectionNames(): Promise<string[]> {
  const admin = new Redis(REDIS_URL);
  try {
    const list = (await admin.client('LIST')) as string;
    return list.split('\n').flatMap((line) => /(?:^| )name=(\S+)/.exec(line)?.[1] ?? []);
  } finally {
    admin.disconnect();
  }
}

/**
 * A start that fails after opening the database and Redis (here: the built-in municipality
 * registry cannot be loaded) must release both: a process that retries its start, or a
 * test runner, would otherwise keep a Redis connection per attempt.
 */
describe('a wildfire start that fails while seeding', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_failed_start');
    // Migrated and seeded once, then emptied, with inserts refused: the next start seeds again and fails.
    const cli = await startWildfire(testConfig({ WILDFIRE_DATABASE_URL: db.url }), 'cli');
    await cli.database.pool.query(`
      delete from municipalities;
      create function refuse_municipality() returns trigger language plpgsql as $$ begin raise exception 'municipalities are read-only here'; end $$;
      create trigger refuse_municipality before insert on municipalities for each statement execute function refuse_municipality();
    `);
    await cli.close();
  });

  afterAll(async () => {
    await db?.drop();
  });

  it('rejects, and leaves no Redis connection open', async () => {
    const name = `failed-start-${uniquePrefix()}`;
    const config = testConfig({ WILDFIRE_DATABASE_URL: db.url, REDIS_URL: `${REDIS_URL}/?connectionName=${name}` });
    await expect(startWildfire(config, 'api')).rejects.toThrow('read-only here');
    await expect(eventually(async () => ((await connectionNames()).includes(name) ? undefined : true), 40)).resolves.toBe(true);
  });
});
