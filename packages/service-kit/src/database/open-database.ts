import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Logger } from 'pino';
import { currentHost, hostPglite, pgliteLocation, type PgliteHost } from './pglite-host';

export type Db<TSchema extends Record<string, unknown>> = NodePgDatabase<TSchema>;

export interface Database<TSchema extends Record<string, unknown>> {
  db: Db<TSchema>;
  pool: pg.Pool;
  kind: 'postgres' | 'pglite';
  /** Where the data lives, without credentials: for logs and the CLI. */
  description: string;
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions<TSchema extends Record<string, unknown>> {
  /** Postgres URL; unset means embedded PGlite under `dataDir/<service>`. */
  url?: string;
  dataDir: string;
  service: string;
  schema: TSchema;
  migrationsFolder: string;
  logger: Logger;
  /**
   * `service` hosts embedded PGlite (waiting briefly if a CLI holds it) and runs
   * migrations; `cli` joins a running service through its socket, or hosts PGlite
   * itself for the duration of the command when no service runs.
   */
  role: 'service' | 'cli';
  poolMax?: number;
}

const HOST_WAIT_MS = 15_000;

/** Opens the service's database and applies pending migrations. */
export async function openDatabase<TSchema extends Record<string, unknown>>(
  options: OpenDatabaseOptions<TSchema>,
): Promise<Database<TSchema>> {
  const { logger } = options;
  let host: PgliteHost | null = null;
  let poolConfig: pg.PoolConfig;
  let description: string;

  if (options.url) {
    poolConfig = { connectionString: options.url };
    description = redactUrl(options.url);
  } else {
    const location = pgliteLocation(options.dataDir, options.service);
    host = await hostPglite(location, options.role);
    const deadline = Date.now() + HOST_WAIT_MS;
    while (!host && options.role === 'service' && Date.now() < deadline) {
      // A CLI command holds the embedded database; they are short, so wait for it.
      await delay(200);
      host = await hostPglite(location, options.role);
    }
    if (!host && options.role === 'service') {
      const holder = currentHost(location);
      throw new Error(`The embedded database in ${location.dir} is held by process ${holder?.pid ?? '?'} (${holder?.role ?? 'unknown'})`);
    }
    poolConfig = { host: location.socketDir, port: 5432, user: 'postgres', database: 'postgres' };
    description = `pglite:${location.pgdataPath}${host ? '' : ' (via the running service)'}`;
  }

  const pool = new pg.Pool({
    ...poolConfig,
    // pglite-socket runs every connection in PGlite's one session: a second connection's
    // statements would land inside (and roll back with) another's transaction. One
    // connection serialises them: a transaction holds it until it ends.
    max: options.poolMax ?? (options.url ? 10 : 1),
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its server (database restart) must not crash the process.
  pool.on('error', (err) => logger.warn({ err }, 'idle database connection failed'));
  // Nor a checked-out one: pg-pool listens for errors only while a client is idle, so a
  // connection lost between two statements of a transaction (or while runIfUnlocked holds
  // its session) emitted 'error' with no listener, which throws and ends the process. The
  // holder still sees the error on its next statement and releases the client, which the
  // pool then discards.
  pool.on('connect', (client) => {
    client.on('error', (err) => logger.warn({ err }, 'database connection in use failed'));
  });
  const db = drizzle(pool, { schema: options.schema });

  try {
    // Everyone migrates (idempotent, under an advisory lock) except a CLI joining a
    // running embedded service, which has migrated already; so `keys create` works
    // against a fresh Postgres before the first service start.
    if (options.url || host) await migrateWithLock(pool, options.migrationsFolder, options.service);
  } catch (err) {
    await pool.end().catch(() => undefined);
    await host?.close().catch(() => undefined);
    throw err;
  }
  logger.debug({ database: description }, 'database ready');

  return {
    db,
    pool,
    kind: options.url ? 'postgres' : 'pglite',
    description,
    async ping() {
      try {
        await pool.query('select 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await pool.end();
      await host?.close();
    },
  };
}

/** Several API instances may start at once: one migrates while the others wait. */
async function migrateWithLock(pool: pg.Pool, migrationsFolder: string, service: string): Promise<void> {
  const client = await pool.connect();
  const lockKey = advisoryKey(`migrations:${service}`);
  try {
    await client.query('select pg_advisory_lock($1)', [lockKey]);
    await migrate(drizzle(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [lockKey]).catch(() => undefined);
    client.release();
  }
}

function advisoryKey(name: string): number {
  let hash = 0;
  for (const ch of name) hash = (Math.imul(hash, 31) + ch.charCodeAt(0)) | 0;
  return hash;
}

function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres';
  }
}
