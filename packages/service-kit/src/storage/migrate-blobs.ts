import { createHash } from 'node:crypto';
import type { BlobStore } from './blob-store';

/**
 * Copies every blob of one store into another (`<svc> storage migrate --to ...`),
 * verifying each copy by SHA-256: the bytes are hashed while they stream out of the
 * source, then the copy is read back from the target and hashed again. Resumable and
 * idempotent: a key the target already holds with the same SHA-256 is skipped, so a
 * run that stopped part-way (or one that failed some keys) is finished by running it
 * again. The source is never changed.
 */

export type MigrationEvent =
  | { event: 'start'; source: string; target: string; total: number }
  | { event: 'copied'; key: string; bytes: number; sha256: string }
  | { event: 'skipped'; key: string; bytes: number; sha256: string; reason: 'same' | 'gone' }
  | { event: 'failed'; key: string; error: string }
  | ({ event: 'done' } & MigrationSummary);

export interface MigrationSummary {
  total: number;
  copied: number;
  skipped: number;
  failed: number;
  /** Bytes written to the target. */
  bytes: number;
  failures: { key: string; error: string }[];
}

export interface MigrateBlobsOptions {
  /** Blobs copied at once (default 4). */
  concurrency?: number;
  onEvent?: (event: MigrationEvent) => void;
}

interface Digest {
  sha256: string;
  bytes: number;
}

/** Passes `stream` through, hashing it; `digest()` once it has been read to the end. */
function hashing(stream: AsyncIterable<Uint8Array>) {
  const hash = createHash('sha256');
  let bytes = 0;
  async function* pieces() {
    for await (const piece of stream) {
      hash.update(piece);
      bytes += piece.length;
      yield piece;
    }
  }
  return { pieces: pieces(), digest: (): Digest => ({ sha256: hash.digest('hex'), bytes }) };
}

/** The SHA-256 and size of a stored blob, streamed; null when there is none. */
async function digestOf(store: BlobStore, key: string): Promise<Digest | null> {
  const stream = await store.readStream(key);
  if (!stream) return null;
  const hashed = hashing(stream);
  for await (const _piece of hashed.pieces);
  return hashed.digest();
}

export async function migrateBlobs(source: BlobStore, target: BlobStore, options: MigrateBlobsOptions = {}): Promise<MigrationSummary> {
  const emit = options.onEvent ?? (() => undefined);
  // Keys only (not bytes) are held, so the total is known up front for the progress bar.
  const keys: string[] = [];
  for await (const key of source.list()) keys.push(key);
  keys.sort();
  emit({ event: 'start', source: source.description, target: target.description, total: keys.length });

  const summary: MigrationSummary = { total: keys.length, copied: 0, skipped: 0, failed: 0, bytes: 0, failures: [] };

  const copyOne = async (key: string): Promise<MigrationEvent> => {
    const present = await digestOf(target, key);
    if (present) {
      const original = await digestOf(source, key);
      if (original && original.sha256 === present.sha256) return { event: 'skipped', key, ...original, reason: 'same' };
    }
    const stream = await source.readStream(key);
    if (!stream) {
      // Removed from the source since it was listed (an erasure): no copy may outlive it.
      await target.remove(key);
      return { event: 'skipped', key, bytes: 0, sha256: '', reason: 'gone' };
    }
    const hashed = hashing(stream);
    await target.writeStream(key, hashed.pieces);
    const { sha256: sent, bytes } = hashed.digest();
    const stored = await digestOf(target, key);
    if (!stored) throw new Error('not found in the target after writing it');
    if (stored.sha256 !== sent || stored.bytes !== bytes) {
      throw new Error(`SHA-256 mismatch: source ${sent} (${bytes} bytes), target ${stored.sha256} (${stored.bytes} bytes)`);
    }
    return { event: 'copied', key, bytes, sha256: sent };
  };

  let next = 0;
  const worker = async () => {
    while (next < keys.length) {
      const key = keys[next++]!;
      let event: MigrationEvent;
      try {
        event = await copyOne(key);
      } catch (err) {
        event = { event: 'failed', key, error: (err as Error).message || String(err) };
      }
      if (event.event === 'copied') {
        summary.copied += 1;
        summary.bytes += event.bytes;
      } else if (event.event === 'skipped') summary.skipped += 1;
      else if (event.event === 'failed') {
        summary.failed += 1;
        summary.failures.push({ key, error: event.error });
      }
      emit(event);
    }
  };
  const concurrency = Math.max(1, options.concurrency ?? 4);
  await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(1, keys.length)) }, worker));
  summary.failures.sort((a, b) => a.key.localeCompare(b.key));
  emit({ event: 'done', ...summary });
  return summary;
}
