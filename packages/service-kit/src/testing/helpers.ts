import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** The Redis the tests use (real, on this machine). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A short temp dir (PGlite's Unix socket path must stay under 100 characters). */
export function shortTempDir(tag: string): string {
  return mkdtempSync(join(tmpdir(), `${tag}-`));
}

/**
 * A unique DATA_DIR that is not created: a service on Postgres never writes there,
 * and should one start PGlite by mistake, it still gets a directory of its own.
 */
export function unusedDataDir(tag: string): string {
  return join(tmpdir(), `${tag}-unused-${randomBytes(4).toString('hex')}`);
}

/** A BullMQ key prefix of a test file's own, so parallel files never take each other's jobs. */
export function uniquePrefix(): string {
  return `t${randomBytes(4).toString('hex')}`;
}

/** Deletes every Redis key under `prefix` (the queue a test file used). */
export async function clearRedisPrefix(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL);
  try {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
  } finally {
    redis.disconnect();
  }
}

/**
 * Polls `probe` until it returns a defined value (bounded: `attempts` × `intervalMs`).
 * For effects that land after an asynchronous job; asserts the outcome, not the time.
 */
export async function eventually<T>(probe: () => Promise<T | undefined>, attempts = 200, intervalMs = 50): Promise<T> {
  for (let i = 0; i < attempts; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`condition not met after ${attempts} attempts`);
}

/** Collects what a CLI prints through its injected `out`. */
export function captureOutput() {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: { log: (line: string) => stdout.push(line), error: (line: string) => stderr.push(line) } };
}
