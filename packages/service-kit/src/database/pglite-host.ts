import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/**
 * Embedded Postgres: PGlite admits one process per data directory, so the process
 * holding `host.lock` opens PGlite and serves it on a Unix socket inside the data
 * directory. Everyone else — the service's own pool and the operator CLI while the
 * service runs — talks to it through that socket with the ordinary `pg` driver, so
 * there is one driver and one SQL dialect everywhere, and the socket server's
 * multiplexer keeps each connection's transaction to itself.
 */

const SOCKET_NAME = '.s.PGSQL.5432';
// sun_path is 108 bytes on Linux, 104 on macOS; keep a margin.
const MAX_SOCKET_PATH = 100;

export interface PgliteLocation {
  dir: string;
  socketDir: string;
  socketPath: string;
  lockPath: string;
  pgdataPath: string;
}

export function pgliteLocation(dataDir: string, service: string): PgliteLocation {
  const dir = join(dataDir, service);
  const socketPath = join(dir, SOCKET_NAME);
  if (socketPath.length > MAX_SOCKET_PATH) {
    throw new Error(`DATA_DIR is too long for a Unix socket (${socketPath.length} > ${MAX_SOCKET_PATH} characters): ${socketPath}`);
  }
  return { dir, socketDir: dir, socketPath, lockPath: join(dir, 'host.lock'), pgdataPath: join(dir, 'pgdata') };
}

export interface LockHolder {
  pid: number;
  role: string;
}

// Lock files this process wrote. In a container the service is often pid 1 on every
// restart, so a lock naming our own pid is only ours if we took it in this run.
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The live process hosting this data directory, or null (a stale lock is removed). */
export function currentHost(location: PgliteLocation): LockHolder | null {
  let holder: LockHolder;
  try {
    holder = JSON.parse(readFileSync(location.lockPath, 'utf8')) as LockHolder;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    // Half-written lock: its writer died between open and write; treat as stale.
    rmSync(location.lockPath, { force: true });
    return null;
  }
  if (holder.pid === process.pid ? heldHere.has(location.lockPath) : isAlive(holder.pid)) return holder;
  rmSync(location.lockPath, { force: true });
  return null;
}

function tryLock(location: PgliteLocation, role: string): boolean {
  mkdirSync(location.dir, { recursive: true, mode: 0o700 });
  if (currentHost(location)) return false;
  try {
    const fd = openSync(location.lockPath, 'wx', 0o600);
    writeSync(fd, JSON.stringify({ pid: process.pid, role }));
    closeSync(fd);
    heldHere.add(location.lockPath);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

export interface PgliteHost {
  location: PgliteLocation;
  close(): Promise<void>;
}

/** Opens PGlite and serves it on the socket; null when another live process hosts it. */
export async function hostPglite(location: PgliteLocation, role: string, maxConnections = 32): Promise<PgliteHost | null> {
  if (!tryLock(location, role)) return null;
  let pglite: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  // Loaded by the process that hosts PGlite only: one with a Postgres URL, or joining a host, never loads it.
  const { PGlite: Pglite }: typeof import('@electric-sql/pglite') = require('@electric-sql/pglite');
  const { PGLiteSocketServer: SocketServer }: typeof import('@electric-sql/pglite-socket') = require('@electric-sql/pglite-socket');
  try {
    pglite = await Pglite.create({ dataDir: location.pgdataPath });
    rmSync(location.socketPath, { force: true });
    server = new SocketServer({ db: pglite, path: location.socketPath, maxConnections });
    await server.start();
  } catch (err) {
    await server?.stop().catch(() => undefined);
    await pglite?.close().catch(() => undefined);
    rmSync(location.lockPath, { force: true });
    heldHere.delete(location.lockPath);
    throw err;
  }
  const db = pglite;
  const socket = server;
  return {
    location,
    async close() {
      await socket.stop();
      await db.close();
      rmSync(location.socketPath, { force: true });
      rmSync(location.lockPath, { force: true });
      heldHere.delete(location.lockPath);
    },
  };
}
