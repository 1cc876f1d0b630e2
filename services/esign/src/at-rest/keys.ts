import { hkdfSync, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '@firma-riesgo/service-kit';
import type { EsignConfig } from '../config';

/**
 * The keys of esign's secrets at rest in its database, each derived (HKDF-SHA-256, its own
 * label) from one configured key, so that one purpose's key says nothing about another's:
 * - `outbox`: AES-256-GCM over the bodies of queued emails (signing links, codes);
 * - `otp`: HMAC-SHA-256 of the signing codes (a plain hash of a 6-digit code is reversed by
 *   trying the 10⁶ codes);
 * - `link`: AES-256-GCM over an open request's link token, which reminders email again
 *   (wiped when the request closes).
 * The configured key never goes into the database, so a dump of it opens neither.
 */
export interface AtRestKeys {
  outbox: Buffer;
  otp: Buffer;
  link: Buffer;
}

const LABELS = { outbox: 'esign email_outbox body v1', otp: 'esign signing code hmac v1', link: 'esign signing link token v1' } as const;

export function deriveAtRestKeys(master: Buffer): AtRestKeys {
  const derive = (label: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), label, 32));
  return { outbox: derive(LABELS.outbox), otp: derive(LABELS.otp), link: derive(LABELS.link) };
}

/** From config (`config.atRest`); without a configured key (embedded only), the one kept under DATA_DIR, made on first use. */
export async function loadAtRestKeys(settings: EsignConfig['atRest'], logger?: Logger): Promise<AtRestKeys> {
  if (settings.key) return deriveAtRestKeys(settings.key);
  return deriveAtRestKeys(await keyFile(settings.keyFile, logger));
}

async function keyFile(path: string, logger?: Logger): Promise<Buffer> {
  const existing = await readKey(path);
  if (existing) return existing;
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  // Written whole under a name of its own, then linked into place: a process starting at the
  // same moment either links first or reads the complete file the other linked.
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(temp, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    await link(temp, path);
    logger?.info({ file: path }, 'at-rest key generated (set ESIGN_AT_REST_KEY to choose it)');
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
