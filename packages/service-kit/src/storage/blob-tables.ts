import { bigint, customType, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * The `postgres` storage backend's tables. A service that offers that backend exports
 * both from its schema, so its own drizzle migration creates them in its own database.
 *
 * `blobs` names the current version of each key; its chunks live in `blob_chunks`. A
 * write stores every chunk under a fresh version first and then points the key at it
 * in one statement, so a reader sees the old blob or the whole new one.
 */
export const blobs = pgTable(
  'blobs',
  {
    key: text('key').primaryKey(),
    version: uuid('version').notNull(),
    /** Bytes in the whole blob. */
    size: bigint('size', { mode: 'number' }).notNull(),
    /** Chunks in the blob (seq 0 .. chunks-1). */
    chunks: integer('chunks').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  // Removing a folder of keys is a prefix match (`key LIKE 'documents/<id>/%'`).
  (t) => [index('blobs_key_prefix_idx').on(t.key.op('text_pattern_ops'))],
);

/** The bytes of a blob version, in chunks of at most 1 MiB. Chunks of no current version are left-overs of failed writes. */
export const blobChunks = pgTable(
  'blob_chunks',
  {
    version: uuid('version').notNull(),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.version, t.seq] })],
);
