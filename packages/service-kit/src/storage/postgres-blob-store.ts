import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type pg from 'pg';
import { checkBlobKey, rechunk, type BlobSource, type BlobStore } from './blob-store';

/** Chunk rows of 1 MiB: small enough to stream, large enough to keep the row count low. */
export const BLOB_CHUNK_BYTES = 1024 * 1024;

export interface PostgresBlobStoreOptions {
  /** The service's own database (its migrations create `blobs` and `blob_chunks`, see blob-tables.ts). */
  pool: Pick<pg.Pool, 'query'>;
  /** For logs: where the database is, without credentials. */
  description: string;
  chunkBytes?: number;
}

/** Keys fetched per statement when listing. */
const LIST_PAGE = 1000;

const escapeLike = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * Blobs in the service's Postgres (or embedded PGlite) database, chunked and streamed.
 * Each statement stands alone (no transaction is held while bytes flow), which also
 * suits PGlite's single connection.
 */
export interface PostgresBlobStore extends BlobStore {
  readonly kind: 'postgres';
  /**
   * Deletes the chunks of every version no key points at (left by a write that crashed
   * before switching the key, or by a replacement or removal that failed to drop the old
   * version) whose newest chunk is older than `olderThan`. A write in progress keeps
   * adding chunks, so a grace period longer than any write's pause spares it.
   */
  sweepOrphans(olderThan: Date): Promise<OrphanSweep>;
}

/** What one orphan sweep deleted. */
export interface OrphanSweep {
  versions: number;
  chunks: number;
  bytes: number;
}

export function createPostgresBlobStore(options: PostgresBlobStoreOptions): PostgresBlobStore {
  const { pool } = options;
  const chunkBytes = options.chunkBytes ?? BLOB_CHUNK_BYTES;

  /** Points `key` at `version` in one statement; answers the version it replaced. */
  const switchTo = async (key: string, version: string, size: number, chunks: number): Promise<string | null> => {
    for (;;) {
      // The sub-select locks the current row, so a concurrent writer's version is seen (and dropped) here.
      const updated = await pool.query<{ old: string }>(
        `update blobs set version = $2, size = $3, chunks = $4, updated_at = now()
           from (select version as old from blobs where key = $1 for update) previous
          where blobs.key = $1
          returning previous.old`,
        [key, version, size, chunks],
      );
      if (updated.rows[0]) return updated.rows[0].old;
      const inserted = await pool.query(`insert into blobs (key, version, size, chunks) values ($1, $2, $3, $4) on conflict (key) do nothing`, [
        key,
        version,
        size,
        chunks,
      ]);
      if (inserted.rowCount === 1) return null;
      // Another writer created the key between the two statements: replace its blob instead.
    }
  };

  const writeStream = async (key: string, source: BlobSource) => {
    checkBlobKey(key);
    const version = randomUUID();
    let seq = 0;
    let size = 0;
    try {
      for await (const chunk of rechunk(source, chunkBytes)) {
        await pool.query('insert into blob_chunks (version, seq, data) values ($1, $2, $3)', [version, seq, chunk]);
        seq += 1;
        size += chunk.length;
      }
      const replaced = await switchTo(key, version, size, seq);
      if (replaced && replaced !== version) await pool.query('delete from blob_chunks where version = $1', [replaced]);
    } catch (err) {
      // The key still names the previous version (or nothing): this version's chunks are unreachable.
      await pool.query('delete from blob_chunks where version = $1', [version]).catch(() => undefined);
      throw err;
    }
  };

  return {
    kind: 'postgres',
    description: `postgres:${options.description}`,
    write: (key, bytes) => writeStream(key, [bytes]),
    writeStream,
    async read(key) {
      checkBlobKey(key);
      // One statement: one snapshot, so a concurrent replacement cannot mix two versions.
      const { rows } = await pool.query<{ size: string; data: Buffer | null }>(
        `select b.size, c.data from blobs b left join blob_chunks c on c.version = b.version where b.key = $1 order by c.seq`,
        [key],
      );
      if (rows.length === 0) return null;
      const bytes = Buffer.concat(rows.flatMap((row) => (row.data ? [row.data] : [])));
      if (bytes.length !== Number(rows[0]!.size)) throw new Error(`Blob "${key}" is incomplete (${bytes.length} of ${rows[0]!.size} bytes)`);
      return bytes;
    },
    async readStream(key) {
      checkBlobKey(key);
      const { rows } = await pool.query<{ version: string; size: string; chunks: number }>('select version, size, chunks from blobs where key = $1', [key]);
      const head = rows[0];
      if (!head) return null;
      async function* chunks() {
        let read = 0;
        for (let seq = 0; seq < head!.chunks; seq += 1) {
          const chunk = await pool.query<{ data: Buffer }>('select data from blob_chunks where version = $1 and seq = $2', [head!.version, seq]);
          // Only a replacement or removal of the key while it is read drops its chunks.
          if (!chunk.rows[0]) throw new Error(`Blob "${key}" was replaced or removed while being read`);
          read += chunk.rows[0].data.length;
          yield chunk.rows[0].data;
        }
        if (read !== Number(head!.size)) throw new Error(`Blob "${key}" is incomplete (${read} of ${head!.size} bytes)`);
      }
      return Readable.from(chunks(), { objectMode: false });
    },
    async exists(key) {
      checkBlobKey(key);
      const { rowCount } = await pool.query('select 1 from blobs where key = $1', [key]);
      return (rowCount ?? 0) > 0;
    },
    async remove(key) {
      checkBlobKey(key);
      await pool.query(
        `with gone as (delete from blobs where key = $1 returning version)
         delete from blob_chunks where version in (select version from gone)`,
        [key],
      );
    },
    async removeTree(prefix) {
      checkBlobKey(prefix);
      await pool.query(
        `with gone as (delete from blobs where key = $1 or key like $2 escape '\\' returning version)
         delete from blob_chunks where version in (select version from gone)`,
        [prefix, `${escapeLike(prefix)}/%`],
      );
    },
    async sweepOrphans(olderThan) {
      const { rows } = await pool.query<{ versions: number; chunks: number; bytes: string | null }>(
        `with orphan as (
           select c.version from blob_chunks c
            where not exists (select 1 from blobs b where b.version = c.version)
            group by c.version
           having max(c.created_at) < $1
         ), gone as (
           delete from blob_chunks where version in (select version from orphan) returning version, length(data) as size
         )
         select count(distinct version)::int as versions, count(*)::int as chunks, sum(size)::text as bytes from gone`,
        [olderThan],
      );
      const row = rows[0];
      return { versions: row?.versions ?? 0, chunks: row?.chunks ?? 0, bytes: Number(row?.bytes ?? 0) };
    },
    async *list(prefix?: string) {
      if (prefix !== undefined) checkBlobKey(prefix);
      // Keyset pages in the primary key's order: each page is one short statement.
      let after = '';
      for (;;) {
        const { rows } = await pool.query<{ key: string }>(
          prefix === undefined
            ? 'select key from blobs where key > $1 order by key limit $2'
            : `select key from blobs where key > $1 and (key = $3 or key like $4 escape '\\') order by key limit $2`,
          prefix === undefined ? [after, LIST_PAGE] : [after, LIST_PAGE, prefix, `${escapeLike(prefix)}/%`],
        );
        for (const row of rows) yield row.key;
        if (rows.length < LIST_PAGE) return;
        after = rows[rows.length - 1]!.key;
      }
    },
  };
}
