import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh, empty Postgres database per test file, on the real server the tests use
 * (127.0.0.1:5432, trust auth; TEST_DATABASE_ADMIN_URL overrides). The service under
 * test applies its own migrations to it, exactly as in production.
 */
export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabaseOptions {
  /**
   * For tests that SIGKILL a process while its query waits on a lock: Postgres notices
   * within this many ms that the client is gone (`client_connection_check_interval`) and
   * ends its backend, releasing what it held, instead of at the lock's release.
   */
  deadClientCheckMs?: number;
}

export async function createTestDatabase(prefix: string, options: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const name = `t_${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  if (options.deadClientCheckMs !== undefined) {
    await adminQuery(`ALTER DATABASE "${name}" SET client_connection_check_interval = '${Math.trunc(options.deadClientCheckMs)}ms'`);
  }
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

/**
 * A pg pool on a test database, listening for its clients' errors as production pools do
 * (open-database.ts). Without a listener, an idle client whose backend ends is thrown: `drop()`
 * (WITH (FORCE)) can reach a client that `pool.end()` is still closing, and that failed
 * whichever test was running (seen once in CI: the blob store contract).
 */
export function testPool(url: string, max?: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, ...(max === undefined ? {} : { max }) });
  pool.on('error', () => undefined);
  return pool;
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Backends of the client's database waiting for a lock (a process caught at a row the test holds). */
export async function lockWaiters(probe: pg.Client): Promise<number[]> {
  const { rows } = await probe.query<{ pid: number }>(
    "select pid from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
  );
  return rows.map((r) => r.pid);
}
