import { Readable } from 'node:stream';

/** The storage backends, as `<SERVICE>_STORAGE` names them. */
export const STORAGE_KINDS = ['local', 'postgres', 's3'] as const;
/** Where a service keeps its files: chosen by `<SERVICE>_STORAGE` (see storage-config.ts). */
export type StorageKind = (typeof STORAGE_KINDS)[number];

/** What a stream write accepts: a Node stream or any async iterable of byte chunks. */
export type BlobSource = Readable | AsyncIterable<Uint8Array> | Iterable<Uint8Array>;

/**
 * A service's files (blobs) under string keys such as `documents/<id>/original.pdf`.
 * Every backend gives the same guarantees: a write is all-or-nothing (a reader sees
 * the old blob or the whole new one, never part of one, and a failed write leaves
 * nothing behind), the last of concurrent writes to one key wins whole, and keys
 * are checked (letters, digits, `._-` and `/`-separated parts, no `.`/`..` parts).
 */
export interface BlobStore {
  readonly kind: StorageKind;
  /** Where the blobs live, without credentials: for logs and the CLI. */
  readonly description: string;
  write(key: string, bytes: Uint8Array): Promise<void>;
  /** Stores a stream; the blob appears only once the stream has ended without error. */
  writeStream(key: string, source: BlobSource): Promise<void>;
  /** The stored bytes, or null when there is no such blob. */
  read(key: string): Promise<Buffer | null>;
  /** The stored bytes as a stream, or null when there is no such blob. */
  readStream(key: string): Promise<Readable | null>;
  exists(key: string): Promise<boolean>;
  /** Removes one blob (nothing happens when there is none). */
  remove(key: string): Promise<void>;
  /** Removes the blob `prefix` and every blob under `prefix/` (a whole folder of keys). */
  removeTree(prefix: string): Promise<void>;
  /**
   * Every stored key (or, with `prefix`, the key `prefix` and the keys under `prefix/`),
   * each once, in no guaranteed order; fetched page by page, so a large store is never
   * held in memory. Keys written or removed while listing may or may not appear.
   */
  list(prefix?: string): AsyncIterable<string>;
  /** Releases what the store keeps open beyond the service's database (the S3 client's sockets); absent when nothing. */
  close?(): void;
}

const KEY = /^[A-Za-z0-9._/-]+$/;

/** Throws unless `key` is a safe relative key (the same rule for every backend). */
export function checkBlobKey(key: string): string {
  if (typeof key !== 'string' || key.length > 1024 || !KEY.test(key) || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
    throw new Error(`Invalid storage key "${key}"`);
  }
  return key;
}

/** Reads a whole stream into one buffer. */
export async function collectBlob(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(Buffer.from(part.buffer, part.byteOffset, part.byteLength));
  return Buffer.concat(parts);
}

/**
 * Regroups a stream of arbitrary pieces into chunks of exactly `size` bytes (the
 * last one shorter), copying only what crosses a chunk boundary.
 */
export async function* rechunk(source: BlobSource, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    if (!(piece instanceof Uint8Array)) throw new TypeError('A blob stream must yield bytes (Buffer or Uint8Array)');
    let rest = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (pendingBytes + rest.length >= size) {
      const take = size - pendingBytes;
      pending.push(rest.subarray(0, take));
      yield Buffer.concat(pending, size);
      rest = rest.subarray(take);
      pending = [];
      pendingBytes = 0;
    }
    if (rest.length > 0) {
      // Copied: the producer may reuse its buffer once we ask for the next piece.
      pending.push(Buffer.from(rest));
      pendingBytes += rest.length;
    }
  }
  if (pendingBytes > 0) yield Buffer.concat(pending, pendingBytes);
}
