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

export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const name = `t_${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(5).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
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
