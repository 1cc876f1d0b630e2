import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/**
 * Files under one root folder (a service's DATA_DIR/<service>/files). Writes are
 * atomic: a complete temp file, flushed to disk, then renamed over the target, so a
 * reader never sees half a file and a failed write leaves nothing behind.
 */
export interface FileStore {
  readonly root: string;
  write(key: string, bytes: Uint8Array): Promise<void>;
  /** The stored bytes, or null when there is no such file. */
  read(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
  /** Removes a whole folder of keys. */
  removeTree(prefix: string): Promise<void>;
}

export function createFileStore(root: string): FileStore {
  const base = resolve(root);
  const pathOf = (key: string) => {
    if (!/^[A-Za-z0-9._/-]+$/.test(key) || key.split('/').some((part) => part === '' || part === '.' || part === '..')) {
      throw new Error(`Invalid storage key "${key}"`);
    }
    const path = resolve(base, key);
    if (!path.startsWith(base + sep)) throw new Error(`Invalid storage key "${key}"`);
    return path;
  };
  return {
    root: base,
    async write(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
      try {
        const handle = await open(temp, 'wx', 0o600);
        try {
          await handle.writeFile(bytes);
          await handle.sync();
        } finally {
          await handle.close();
        }
        await rename(temp, path);
      } catch (err) {
        await unlink(temp).catch(() => undefined);
        throw err;
      }
    },
    async read(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async remove(key) {
      await rm(pathOf(key), { force: true });
    },
    async removeTree(prefix) {
      await rm(pathOf(prefix), { recursive: true, force: true });
    },
  };
}
