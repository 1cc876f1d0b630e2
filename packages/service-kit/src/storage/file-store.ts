import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { dirname, join, resolve, sep } from 'node:path';
import { checkBlobKey, type BlobSource, type BlobStore } from './blob-store';

/**
 * Files under one root folder (a service's DATA_DIR/<service>/files): the `local`
 * storage backend. Writes are atomic: a complete temp file, flushed to disk, then
 * renamed over the target, so a reader never sees half a file and a failed write
 * leaves nothing behind.
 */
export interface FileStore extends BlobStore {
  readonly kind: 'local';
  readonly root: string;
}

export function createFileStore(root: string): FileStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    const path = resolve(base, checkBlobKey(key));
    if (!path.startsWith(base + sep)) throw new Error(`Invalid storage key "${key}"`);
    return path;
  };
  /** Writes into a fresh temp file beside the target, then renames it over the target. */
  const atomically = async (key: string, fill: (handle: Awaited<ReturnType<typeof open>>) => Promise<void>) => {
    const path = pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temp, 'wx', 0o600);
      try {
        await fill(handle);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
  };
  return {
    kind: 'local',
    root: base,
    description: `local:${base}`,
    async write(key, bytes) {
      await atomically(key, (handle) => handle.writeFile(bytes));
    },
    async writeStream(key: string, source: BlobSource) {
      await atomically(key, async (handle) => {
        for await (const piece of source) {
          if (!(piece instanceof Uint8Array)) throw new TypeError('A blob stream must yield bytes (Buffer or Uint8Array)');
          await handle.write(piece);
        }
      });
    },
    async read(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async readStream(key): Promise<Readable | null> {
      try {
        // Opened first, so a missing file answers null rather than a failing stream.
        const handle = await open(pathOf(key), 'r');
        return handle.createReadStream();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async exists(key) {
      try {
        return (await stat(pathOf(key))).isFile();
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw err;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async removeTree(prefix) {
      await rm(pathOf(prefix), { recursive: true, force: true });
    },
    list(prefix?: string) {
      return listFiles(base, prefix === undefined ? undefined : pathOf(prefix));
    },
  };
}

/** A write's temp file (see `atomically`): never a key. */
const TEMP_FILE = /^\.[0-9a-f]{12}\.tmp$/;

/** The keys of the files under `start` (the whole root when unset), one folder read at a time. */
async function* listFiles(base: string, start: string | undefined): AsyncGenerator<string> {
  const toKey = (path: string) => path.slice(base.length + 1).split(sep).join('/');
  if (start !== undefined) {
    try {
      if ((await stat(start)).isFile()) {
        yield toKey(start);
        return;
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
  }
  const folders = [start ?? base];
  while (folders.length > 0) {
    const folder = folders.pop()!;
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (err) {
      // A folder removed while listing, or a root never written to.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) folders.push(path);
      else if (entry.isFile() && !TEMP_FILE.test(entry.name)) yield toKey(path);
    }
  }
}
