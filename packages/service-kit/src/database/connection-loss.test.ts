import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '../testing/test-database';
import { openDatabase, type Database } from './open-database';

/**
 * A connection the server ends while the service holds it (between two statements of a
 * transaction, or while runIfUnlocked keeps its session) is logged and discarded; the
 * process goes on and the pool serves the next query. Before, pg emitted 'error' on the
 * checked-out client with no listener, which throws: a Postgres restart during any
 * transaction ended the service.
 */
describe('openDatabase: losing a connection in use', () => {
  let testDb: TestDatabase;
  let database: Database<Record<string, never>>;
  let admin: pg.Client;
  let dir: string;
  const logLines: Array<{ msg?: string; err?: { code?: string } }> = [];

  beforeAll(async () => {
    testDb = await createTestDatabase('sk_conn_loss');
    dir = mkdtempSync(join(tmpdir(), 'sk-conn-loss-'));
    // An empty migrations folder: the journal drizzle's migrator reads, with no entries.
    mkdirSync(join(dir, 'migrations', 'meta'), { recursive: true });
    writeFileSync(join(dir, 'migrations', 'meta', '_journal.json'), JSON.stringify({ version: '7', dialect: 'postgresql', entries: [] }));
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) logLines.push(JSON.parse(line));
        done();
      },
    });
    database = await openDatabase({
      url: testDb.url,
      dataDir: dir,
      service: 'sk_conn_loss',
      schema: {},
      migrationsFolder: join(dir, 'migrations'),
      logger: pino({ level: 'warn' }, sink),
      role: 'service',
    });
    admin = new pg.Client({ connectionString: testDb.url });
    await admin.connect();
  });

  afterAll(async () => {
    await admin?.end();
    await database?.close();
    await testDb?.drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('logs the loss, fails the holder on its next statement, and the pool serves the next query', async () => {
    const client = await database.pool.connect();
    await client.query('begin');
    const { rows } = await client.query<{ pid: number }>('select pg_backend_pid() as pid');
    const ended = new Promise((resolve) => client.once('end', resolve));

    await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
    await ended;

    await expect(client.query('select 1')).rejects.toThrow();
    client.release(true);
    expect(logLines).toContainEqual(expect.objectContaining({ msg: 'database connection in use failed', err: expect.objectContaining({ code: '57P01' }) }));

    const again = await database.pool.query<{ one: number }>('select 1 as one');
    expect(again.rows).toEqual([{ one: 1 }]);
  });
});
