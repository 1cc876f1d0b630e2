import { randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from './logger';

/**
 * A 32-byte key kept in a file under DATA_DIR (base64, mode 0600), made on first use: what an
 * embedded service encrypts with when the operator has configured no key. `variable` names
 * the setting that chooses the key instead, for the log line. Two processes starting at the
 * same moment get the same key: the file is written whole under a name of its own, then
 * linked into place, so one links first and the other reads the complete file.
 */
export async function loadOrCreateKeyFile(path: string, variable: string, logger?: Logger): Promise<Buffer> {
  const existing = await readKey(path);
  if (existing) return existing;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temp, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temp, path);
    logger?.info({ file: path }, `key generated (set ${variable} to choose it)`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    await unlink(temp);
  }
  const key = await readKey(path);
  if (!key) throw new Error(`${path} vanished while starting`);
  return key;
}

async function readKey(path: string): Promise<Buffer | undefined> {
  const text = await readFile(path, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (text === undefined) return undefined;
  const key = Buffer.from(text.trim(), 'base64');
  if (key.length !== 32) throw new Error(`${path} does not hold a 32-byte base64 key`);
  return key;
}
