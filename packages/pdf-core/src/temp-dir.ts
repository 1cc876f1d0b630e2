import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs `fn` with a fresh private directory and removes the directory afterwards,
 * also when `fn` throws: the files in it are users' documents. mkdtemp creates it
 * with mode 0700 whatever the umask, so other local users cannot read it.
 */
export async function withTempDir<T>(fn: (dir: string) => Promise<T>, root: string = tmpdir()): Promise<T> {
  const dir = await mkdtemp(join(root, 'pdf-core-'));
  let result: T;
  try {
    result = await fn(dir);
  } catch (err) {
    // a failed clean-up must not hide the error that explains the request's failure
    await removeDir(dir).catch(() => undefined);
    throw err;
  }
  await removeDir(dir);
  return result;
}

function removeDir(dir: string): Promise<void> {
  return rm(dir, { recursive: true, force: true, maxRetries: 3 });
}
