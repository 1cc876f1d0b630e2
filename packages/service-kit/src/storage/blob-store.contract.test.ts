import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import pg from 'pg';
import { createTestDatabase, startTestS3Server, type TestDatabase, type TestS3Server, testPool } from '../testing';
import { collectBlob, type BlobSource, type BlobStore } from './blob-store';
import { blobChunks, blobs } from './blob-tables';
import { createFileStore } from './file-store';
import { BLOB_CHUNK_BYTES, createPostgresBlobStore } from './postgres-blob-store';
import { createS3BlobStore } from './s3-blob-store';

/**
 * One contract, every backend: the same assertions against the local files, Postgres,
 * embedded PGlite and an S3-protocol server on loopback.
 */
interface Backend {
  store: BlobStore;
  /** Stored pieces no key reaches (temp files, orphan chunks): must stay 0. */
  leftovers?: () => Promise<number>;
  close(): Promise<void>;
}

/** The DDL of blob-tables.ts, as drizzle-kit generates it for the services' migrations. */
async function blobTablesSql(): Promise<string[]> {
  const empty = generateDrizzleJson({});
  return generateMigration(empty, generateDrizzleJson({ blobs, blobChunks }, empty.id));
}

const orphanChunks = 'select count(*)::int as n from blob_chunks where version not in (select version from blobs)';

const backends: [string, () => Promise<Backend>][] = [
  [
    'local',
    async () => {
      const root = mkdtempSync(join(tmpdir(), 'blobs-'));
      const countTemp = (dir: string): number =>
        readdirSync(dir, { withFileTypes: true }).reduce((n, entry) => n + (entry.isDirectory() ? countTemp(join(dir, entry.name)) : entry.name.endsWith('.tmp') ? 1 : 0), 0);
      return { store: createFileStore(root), leftovers: async () => countTemp(root), close: async () => rmSync(root, { recursive: true, force: true }) };
    },
  ],
  [
    'postgres',
    async () => {
      const database: TestDatabase = await createTestDatabase('blob_contract');
      const pool = testPool(database.url, 10);
      for (const statement of await blobTablesSql()) await pool.query(statement);
      return {
        store: createPostgresBlobStore({ pool, description: database.name }),
        leftovers: async () => (await pool.query<{ n: number }>(orphanChunks)).rows[0]!.n,
        close: async () => {
          await pool.end();
          await database.drop();
        },
      };
    },
  ],
  [
    'postgres on embedded PGlite',
    async () => {
      const db = new PGlite();
      for (const statement of await blobTablesSql()) await db.exec(statement);
      // pg's query shape over PGlite's (rowCount is PGlite's affectedRows, or the rows a select returned).
      const pool = {
        query: async (text: string, values?: unknown[]) => {
          const result = await db.query(text, values);
          return { rows: result.rows, rowCount: result.affectedRows || result.rows.length };
        },
      } as unknown as pg.Pool;
      return { store: createPostgresBlobStore({ pool, description: 'pglite' }), leftovers: async () => (await pool.query<{ n: number }>(orphanChunks)).rows[0]!.n, close: () => db.close() };
    },
  ],
  [
    's3',
    async () => {
      const server: TestS3Server = await startTestS3Server();
      const store = createS3BlobStore({ settings: server.settings, prefix: 'contract', partBytes: 5 * 1024 * 1024 });
      return {
        store,
        // No leftovers check: s3rver implements neither ListMultipartUploads nor AbortMultipartUpload.
        close: async () => {
          store.client.destroy();
          await server.close();
        },
      };
    },
  ],
];

/** Deterministic bytes of any length (every value 0..255 appears). */
const pattern = (length: number, seed = 0) => {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i += 1) bytes[i] = (i * 31 + seed * 7 + (i >> 8)) & 0xff;
  return bytes;
};

/** Splits bytes into uneven pieces, as a network upload delivers them. */
function* pieces(bytes: Buffer, size = 65_537): Generator<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** Over 11 MiB: several 1 MiB chunks in Postgres and three 5 MiB parts of a multipart upload in S3. */
const LARGE = 11 * BLOB_CHUNK_BYTES + 3;

describe.each(backends)('blob store contract: %s', (_name, open) => {
  let backend: Backend;
  let store: BlobStore;

  beforeAll(async () => {
    backend = await open();
    store = backend.store;
  });
  afterAll(async () => backend?.close());

  it('stores bytes and gives back exactly those bytes, and an empty blob as empty', async () => {
    const bytes = Buffer.from([0, 1, 2, 255, 10, 13]);
    await store.write('docs/round/original.pdf', bytes);
    expect((await store.read('docs/round/original.pdf'))?.equals(bytes)).toBe(true);
    await store.write('docs/round/empty.txt', Buffer.alloc(0));
    expect(await store.read('docs/round/empty.txt')).toEqual(Buffer.alloc(0));
    expect(await store.exists('docs/round/empty.txt')).toBe(true);
  });

  it('streams a large blob in and out over several chunks or parts, byte for byte', async () => {
    const bytes = pattern(LARGE);
    await store.writeStream('docs/large/final.pdf', Readable.from(pieces(bytes)));
    const stream = await store.readStream('docs/large/final.pdf');
    expect(stream).not.toBeNull();
    expect((await collectBlob(stream!)).equals(bytes)).toBe(true);
    expect((await store.read('docs/large/final.pdf'))?.equals(bytes)).toBe(true);
  });

  it('reads back as a stream what was written as bytes, and the other way round', async () => {
    const bytes = pattern(3 * BLOB_CHUNK_BYTES + 17, 1);
    await store.write('docs/mixed/a.bin', bytes);
    expect((await collectBlob((await store.readStream('docs/mixed/a.bin'))!)).equals(bytes)).toBe(true);
    await store.writeStream('docs/mixed/b.bin', pieces(bytes, 4096));
    expect((await store.read('docs/mixed/b.bin'))?.equals(bytes)).toBe(true);
  });

  it('answers null and false for a key that holds nothing', async () => {
    expect(await store.read('docs/none/original.pdf')).toBeNull();
    expect(await store.readStream('docs/none/original.pdf')).toBeNull();
    expect(await store.exists('docs/none/original.pdf')).toBe(false);
  });

  it('replaces a blob whole and removes one blob', async () => {
    await store.write('docs/replace/x.png', pattern(2 * BLOB_CHUNK_BYTES + 5, 2));
    const second = pattern(1000, 3);
    await store.write('docs/replace/x.png', second);
    expect((await store.read('docs/replace/x.png'))?.equals(second)).toBe(true);
    await store.remove('docs/replace/x.png');
    expect(await store.exists('docs/replace/x.png')).toBe(false);
    expect(await store.read('docs/replace/x.png')).toBeNull();
    await expect(store.remove('docs/replace/x.png')).resolves.toBeUndefined();
    if (backend.leftovers) expect(await backend.leftovers()).toBe(0);
  });

  it('removes a folder of keys and leaves its siblings, even ones whose names start alike', async () => {
    const keys = ['tree/a_1/original.pdf', 'tree/a_1/requests/r.signed.pdf', 'tree/a_1/pages/1-480.png', 'tree/a_10/original.pdf', 'tree/aZ1/original.pdf', 'tree/b/original.pdf', 'tree/a_1.csv'];
    for (const key of keys) await store.write(key, Buffer.from(key));
    await store.removeTree('tree/a_1');
    const left = [];
    for (const key of keys) if (await store.exists(key)) left.push(key);
    expect(left).toEqual(['tree/a_10/original.pdf', 'tree/aZ1/original.pdf', 'tree/b/original.pdf', 'tree/a_1.csv']);
    // A single key is a folder of one.
    await store.removeTree('tree/a_1.csv');
    expect(await store.exists('tree/a_1.csv')).toBe(false);
    expect((await store.read('tree/b/original.pdf'))?.toString()).toBe('tree/b/original.pdf');
    await expect(store.removeTree('tree/never')).resolves.toBeUndefined();
  });

  it('lists every key once, the whole store or one folder of it, and nothing of a failed write', async () => {
    const keys = ['list/a_1/original.pdf', 'list/a_1/requests/r.signed.pdf', 'list/a_1/pages/1-480.png', 'list/a_10/original.pdf', 'list/a_1.csv', 'list/.hidden', 'list/b/empty.txt'];
    for (const key of keys) await store.write(key, key.endsWith('empty.txt') ? Buffer.alloc(0) : Buffer.from(key));
    await expect(
      store.writeStream(
        'list/failed.pdf',
        (async function* () {
          yield pattern(BLOB_CHUNK_BYTES + 1);
          throw new Error('client went away');
        })(),
      ),
    ).rejects.toThrow('client went away');
    const listed = async (prefix?: string) => {
      const found: string[] = [];
      for await (const key of store.list(prefix)) found.push(key);
      return found;
    };
    const all = await listed();
    expect(all.filter((key) => key.startsWith('list/')).sort()).toEqual([...keys].sort());
    expect(new Set(all).size).toBe(all.length);
    expect((await listed('list/a_1')).sort()).toEqual(['list/a_1/original.pdf', 'list/a_1/pages/1-480.png', 'list/a_1/requests/r.signed.pdf']);
    expect(await listed('list/a_1.csv')).toEqual(['list/a_1.csv']);
    expect(await listed('list/none')).toEqual([]);
    await expect(listed('../up')).rejects.toThrow(/Invalid storage key/);
  });

  it('lists past one page of keys', async () => {
    const keys = Array.from({ length: 1234 }, (_, i) => `many/${String(i).padStart(4, '0')}.txt`);
    for (let at = 0; at < keys.length; at += 50) await Promise.all(keys.slice(at, at + 50).map((key) => store.write(key, Buffer.from(key))));
    const found: string[] = [];
    for await (const key of store.list('many')) found.push(key);
    expect(found.sort()).toEqual(keys);
  });

  it('refuses keys that are empty, absolute, climb out or hold odd characters, in every operation', async () => {
    for (const key of ['', '/etc/passwd', '../escape.pdf', 'docs/../../etc/passwd', 'docs//x', 'docs/./x', 'docs/x y', 'docs/x%', 'docs\\x']) {
      await expect(store.write(key, Buffer.from('x'))).rejects.toThrow(/Invalid storage key/);
      await expect(store.writeStream(key, [Buffer.from('x')])).rejects.toThrow(/Invalid storage key/);
      await expect(store.read(key)).rejects.toThrow(/Invalid storage key/);
      await expect(store.readStream(key)).rejects.toThrow(/Invalid storage key/);
      await expect(store.exists(key)).rejects.toThrow(/Invalid storage key/);
      await expect(store.remove(key)).rejects.toThrow(/Invalid storage key/);
      await expect(store.removeTree(key)).rejects.toThrow(/Invalid storage key/);
    }
  });

  it('leaves nothing visible, and the previous blob intact, when a stream write fails part-way', async () => {
    const failing = (bytes: Buffer): BlobSource =>
      (async function* () {
        yield* pieces(bytes);
        throw new Error('client went away');
      })();
    await expect(store.writeStream('docs/failed/new.pdf', failing(pattern(LARGE, 4)))).rejects.toThrow('client went away');
    expect(await store.exists('docs/failed/new.pdf')).toBe(false);
    expect(await store.read('docs/failed/new.pdf')).toBeNull();

    const previous = pattern(5000, 5);
    await store.write('docs/failed/kept.pdf', previous);
    await expect(store.writeStream('docs/failed/kept.pdf', failing(pattern(2 * BLOB_CHUNK_BYTES, 6)))).rejects.toThrow('client went away');
    expect((await store.read('docs/failed/kept.pdf'))?.equals(previous)).toBe(true);

    // An aborted Node stream (destroyed with an error) counts as a failure too.
    let sent = false;
    const aborted = new Readable({
      read() {
        if (sent) this.destroy(new Error('aborted'));
        else this.push(pattern(BLOB_CHUNK_BYTES + 9, 7));
        sent = true;
      },
    });
    await expect(store.writeStream('docs/failed/aborted.pdf', aborted)).rejects.toThrow('aborted');
    expect(await store.exists('docs/failed/aborted.pdf')).toBe(false);
    if (backend.leftovers) expect(await backend.leftovers()).toBe(0);
  });

  it('ends concurrent writes to one key with one of the blobs, whole', async () => {
    const candidates = [0, 1, 2, 3, 4].map((seed) => pattern(2 * BLOB_CHUNK_BYTES + 100 * seed, 10 + seed));
    await Promise.all(candidates.map((bytes) => store.writeStream('docs/race/final.pdf', pieces(bytes))));
    const stored = await store.read('docs/race/final.pdf');
    expect(candidates.filter((bytes) => stored?.equals(bytes))).toHaveLength(1);
    if (backend.leftovers) expect(await backend.leftovers()).toBe(0);
  });
});
