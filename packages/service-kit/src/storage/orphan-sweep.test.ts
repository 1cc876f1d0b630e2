import { randomUUID } from 'node:crypto';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import pg from 'pg';
import { runIfUnlocked } from '../database/run-if-unlocked';
import { createTestDatabase, type TestDatabase, testPool } from '../testing';
import { blobChunks, blobs } from './blob-tables';
import { createFileStore } from './file-store';
import { createStorageSweep, ORPHAN_GRACE_MS, storageSweepSchedules } from './orphan-sweep';
import { BLOB_CHUNK_BYTES, createPostgresBlobStore } from './postgres-blob-store';

describe('orphan-chunk sweep of the postgres blob store (real Postgres)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  const logged: object[] = [];
  const logger = { info: (obj: object) => logged.push(obj) };

  beforeAll(async () => {
    database = await createTestDatabase('blob_sweep');
    pool = testPool(database.url, 4);
    // The forced drop in afterAll ends whatever connection is still open; an idle client's
    // 'terminating connection' then is teardown, not a failure (queries still reject on their own).
    pool.on('error', () => undefined);
    const empty = generateDrizzleJson({});
    for (const statement of await generateMigration(empty, generateDrizzleJson({ blobs, blobChunks }, empty.id))) await pool.query(statement);
  });
  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  });

  /** What a write that crashed after storing its chunks, before switching its key, leaves behind. */
  async function crashedWrite(chunks: number) {
    const version = randomUUID();
    for (let seq = 0; seq < chunks; seq += 1) await pool.query('insert into blob_chunks (version, seq, data) values ($1, $2, $3)', [version, seq, Buffer.alloc(1000, seq)]);
    return version;
  }
  const chunksOf = async (version: string) => (await pool.query<{ n: number }>('select count(*)::int as n from blob_chunks where version = $1', [version])).rows[0]!.n;

  it('deletes a crashed write\'s chunks once the grace period has passed, and leaves live blobs and recent writes alone', async () => {
    const store = createPostgresBlobStore({ pool, description: database.name });
    const live = Buffer.alloc(2 * BLOB_CHUNK_BYTES + 5, 7);
    await store.write('documents/a/final.pdf', live);
    await store.write('documents/a/empty.txt', Buffer.alloc(0));
    const crashed = await crashedWrite(3);

    let now = new Date();
    const sweep = createStorageSweep({ service: 'test', files: store, clock: () => now, exclusive: (name, work) => runIfUnlocked({ kind: 'postgres', pool }, name, work) });

    // Within the grace period the chunks may belong to a write still in progress: kept.
    expect(await sweep(logger)).toEqual({ ran: true, versions: 0, chunks: 0, bytes: 0 });
    expect(await chunksOf(crashed)).toBe(3);

    now = new Date(Date.now() + ORPHAN_GRACE_MS + 60_000);
    expect(await sweep(logger)).toEqual({ ran: true, versions: 1, chunks: 3, bytes: 3000 });
    expect(await chunksOf(crashed)).toBe(0);
    expect((await store.read('documents/a/final.pdf'))?.equals(live)).toBe(true);
    expect(await store.read('documents/a/empty.txt')).toEqual(Buffer.alloc(0));
    expect(logged.at(-1)).toEqual({ ran: true, versions: 1, chunks: 3, bytes: 3000 });

    // A second run finds nothing more.
    expect(await sweep(logger)).toEqual({ ran: true, versions: 0, chunks: 0, bytes: 0 });
  });

  it('sweeps the old version a replacement failed to drop, not the new one', async () => {
    const store = createPostgresBlobStore({ pool, description: database.name });
    await store.write('documents/b/original.pdf', Buffer.from('first'));
    const old = (await pool.query<{ version: string }>(`select version from blobs where key = 'documents/b/original.pdf'`)).rows[0]!.version;
    // A replacement whose clean-up of the old chunks never ran: the new version is switched in, the old chunks stay.
    const fresh = await crashedWrite(1);
    await pool.query(`update blobs set version = $1, size = 1000, chunks = 1 where key = 'documents/b/original.pdf'`, [fresh]);
    expect(await chunksOf(old)).toBe(1);

    const swept = await store.sweepOrphans(new Date(Date.now() + 60_000));
    expect(swept).toMatchObject({ versions: 1, chunks: 1 });
    expect(await chunksOf(old)).toBe(0);
    expect(await store.read('documents/b/original.pdf')).toEqual(Buffer.alloc(1000, 0));
  });

  it('is scheduled only for the postgres backend, and does nothing for another', async () => {
    expect(storageSweepSchedules({ kind: 'postgres' })).toEqual([{ name: 'storage.sweep', repeat: { everyMs: 3_600_000 }, payload: {} }]);
    expect(storageSweepSchedules({ kind: 'local' })).toEqual([]);
    expect(storageSweepSchedules({ kind: 's3' })).toEqual([]);
    const sweep = createStorageSweep({ service: 'test', files: createFileStore('/nonexistent'), clock: () => new Date(), exclusive: async () => ({ ran: false }) });
    expect(await sweep(logger)).toEqual({ ran: false, versions: 0, chunks: 0, bytes: 0 });
  });
});
