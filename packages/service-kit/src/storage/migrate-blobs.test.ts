import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import pg from 'pg';
import { createTestDatabase, startTestS3Server, type TestDatabase, type TestS3Server, testPool } from '../testing';
import type { BlobStore } from './blob-store';
import { blobChunks, blobs } from './blob-tables';
import { createFileStore } from './file-store';
import { migrateBlobs, type MigrationEvent } from './migrate-blobs';
import { BLOB_CHUNK_BYTES, createPostgresBlobStore } from './postgres-blob-store';
import { createS3BlobStore } from './s3-blob-store';

/** Deterministic bytes of any length. */
const pattern = (length: number, seed: number) => {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) bytes[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return bytes;
};

/** A service-shaped tree: nested document folders, a blob over one 1 MiB chunk, an empty one. */
const TREE: Record<string, Buffer> = {
  'documents/0b1e/original.pdf': pattern(40_000, 1),
  'documents/0b1e/requests/r-1.signed.pdf': pattern(41_000, 2),
  'documents/0b1e/requests/r-1.a1b2c3d4.png': pattern(3_000, 3),
  'documents/0b1e/pages/1-480.png': pattern(2 * BLOB_CHUNK_BYTES + 77, 4),
  'documents/0b1e/pages/text.json': Buffer.from('{"pages":[]}'),
  'documents/77aa/final.pdf': pattern(5_000, 5),
  'reports/2026/empty.txt': Buffer.alloc(0),
};

async function fill(store: BlobStore) {
  for (const [key, bytes] of Object.entries(TREE)) await store.write(key, bytes);
}

async function keysOf(store: BlobStore) {
  const keys: string[] = [];
  for await (const key of store.list()) keys.push(key);
  return keys.sort();
}

async function expectSameTree(store: BlobStore) {
  expect(await keysOf(store)).toEqual(Object.keys(TREE).sort());
  for (const [key, bytes] of Object.entries(TREE)) expect((await store.read(key))?.equals(bytes)).toBe(true);
}

async function run(source: BlobStore, target: BlobStore) {
  const events: MigrationEvent[] = [];
  const summary = await migrateBlobs(source, target, { concurrency: 3, onEvent: (e) => events.push(e) });
  return { summary, events };
}

describe('storage migrate (real Postgres and an S3-protocol server on loopback)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let s3: TestS3Server;
  const roots: string[] = [];
  const s3Stores: ReturnType<typeof createS3BlobStore>[] = [];

  const localStore = () => {
    const root = mkdtempSync(join(tmpdir(), 'migrate-'));
    roots.push(root);
    return createFileStore(root);
  };
  let prefixes = 0;
  const s3Store = () => {
    const store = createS3BlobStore({ settings: s3.settings, prefix: `svc${(prefixes += 1)}` });
    s3Stores.push(store);
    return store;
  };
  const postgresStore = () => createPostgresBlobStore({ pool, description: database.name });

  beforeAll(async () => {
    database = await createTestDatabase('blob_migrate');
    pool = testPool(database.url, 6);
    const empty = generateDrizzleJson({});
    for (const statement of await generateMigration(empty, generateDrizzleJson({ blobs, blobChunks }, empty.id))) await pool.query(statement);
    s3 = await startTestS3Server();
  });
  afterAll(async () => {
    for (const store of s3Stores) store.client.destroy();
    await s3?.close();
    await pool?.end();
    await database?.drop();
    for (const root of roots) rmSync(root, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await pool.query('drop trigger if exists fail_once on blobs');
    await pool.query('drop trigger if exists corrupt on blob_chunks');
    await pool.query('truncate blobs, blob_chunks');
  });

  it.each([
    ['local', 'postgres'],
    ['local', 's3'],
    ['postgres', 's3'],
  ] as const)('copies a service tree from %s to %s byte for byte, and a second run skips every blob', async (from, to) => {
    const make = { local: localStore, postgres: postgresStore, s3: s3Store };
    const source = make[from]();
    const target = make[to]();
    await fill(source);

    const first = await run(source, target);
    expect(first.summary).toMatchObject({ total: 7, copied: 7, skipped: 0, failed: 0, failures: [] });
    expect(first.summary.bytes).toBe(Object.values(TREE).reduce((n, b) => n + b.length, 0));
    expect(first.events[0]).toEqual({ event: 'start', source: source.description, target: target.description, total: 7 });
    expect(first.events.filter((e) => e.event === 'copied').map((e) => (e as { key: string }).key).sort()).toEqual(Object.keys(TREE).sort());
    expect(first.events.at(-1)).toMatchObject({ event: 'done', copied: 7 });
    await expectSameTree(target);
    // The source is left as it was.
    await expectSameTree(source);

    const again = await run(source, target);
    expect(again.summary).toMatchObject({ total: 7, copied: 0, skipped: 7, failed: 0, bytes: 0 });
  });

  it('finishes on a second run what a run that failed part-way left undone', async () => {
    const source = localStore();
    await fill(source);
    // The target database refuses the first write of one key (as a dropped connection would), once.
    // A sequence, because it is not rolled back with the failed statement: only the first try fails.
    await pool.query('create sequence if not exists fail_tries');
    await pool.query(`create or replace function fail_once() returns trigger language plpgsql as $$
      begin
        if new.key = 'documents/0b1e/pages/1-480.png' then
          if nextval('fail_tries') = 1 then raise exception 'connection lost'; end if;
        end if;
        return new;
      end $$`);
    await pool.query('create trigger fail_once before insert on blobs for each row execute function fail_once()');
    const target = postgresStore();

    const first = await run(source, target);
    expect(first.summary).toMatchObject({ total: 7, copied: 6, skipped: 0, failed: 1 });
    expect(first.summary.failures).toEqual([{ key: 'documents/0b1e/pages/1-480.png', error: expect.stringContaining('connection lost') }]);
    expect(await target.exists('documents/0b1e/pages/1-480.png')).toBe(false);

    const second = await run(source, target);
    expect(second.summary).toMatchObject({ total: 7, copied: 1, skipped: 6, failed: 0 });
    expect(second.events.find((e) => e.event === 'copied')).toMatchObject({ key: 'documents/0b1e/pages/1-480.png', bytes: 2 * BLOB_CHUNK_BYTES + 77 });
    await expectSameTree(target);
  });

  it('detects a target that stores other bytes than it was sent (SHA-256 mismatch), and replaces a corrupted copy on the next run', async () => {
    const source = localStore();
    await fill(source);
    const target = postgresStore();
    // A target that damages what it stores: the first byte of every first chunk is flipped at rest.
    await pool.query(`create or replace function corrupt() returns trigger language plpgsql as $$
      begin
        if new.seq = 0 and length(new.data) > 0 then new.data := set_byte(new.data, 0, 255 - get_byte(new.data, 0)); end if;
        return new;
      end $$`);
    await pool.query('create trigger corrupt before insert on blob_chunks for each row execute function corrupt()');

    const damaged = await run(source, target);
    // Every blob but the empty one fails verification; the empty one has nothing to damage.
    expect(damaged.summary).toMatchObject({ total: 7, copied: 1, failed: 6 });
    expect(damaged.summary.failures.map((f) => f.key)).toEqual(Object.keys(TREE).filter((k) => TREE[k]!.length > 0).sort());
    for (const failure of damaged.summary.failures) expect(failure.error).toMatch(/^SHA-256 mismatch: source [0-9a-f]{64} \(\d+ bytes\), target [0-9a-f]{64} \(\d+ bytes\)$/);

    // Once the target stores faithfully, a re-run does not skip the damaged copies: it replaces them.
    await pool.query('drop trigger corrupt on blob_chunks');
    const repaired = await run(source, target);
    expect(repaired.summary).toMatchObject({ total: 7, copied: 6, skipped: 1, failed: 0 });
    await expectSameTree(target);

    // A copy damaged later (a bit flip at rest) is found and copied again too.
    await pool.query(`update blob_chunks set data = set_byte(data, 5, 255 - get_byte(data, 5)) where version = (select version from blobs where key = 'documents/77aa/final.pdf') and seq = 0`);
    const rerun = await run(source, target);
    expect(rerun.summary).toMatchObject({ copied: 1, skipped: 6, failed: 0 });
    expect(rerun.events.find((e) => e.event === 'copied')).toMatchObject({ key: 'documents/77aa/final.pdf' });
    await expectSameTree(target);
  });
});
