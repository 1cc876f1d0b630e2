import { shortTempDir as tempDir, uniquePrefix, unusedDataDir } from '@firma-riesgo/service-kit/testing';
import { loadConfig } from '../config';
import type { WildfireDb } from '../db';
import { readingOf } from '../readings/reading';
import { readings } from '../readings/tables';

export { verifyWithTools } from '../../../../packages/pdf-core/src/signing/__tests__/verify-tools';
export { startOpensslTsa, type OpensslTsa } from '../../../../packages/pdf-core/src/signing/__tests__/openssl-tsa';
export { TEST_REDIS_URL as REDIS_URL, captureOutput, clearRedisPrefix, eventually, uniquePrefix } from '@firma-riesgo/service-kit/testing';

/** A short temp dir for an embedded DATA_DIR. */
export function shortTempDir(): string {
  return tempDir('wf');
}

/**
 * Config as a test wants it: ephemeral port on loopback, quiet logs, no process.env
 * reads, and rate-limit counters of its own on the shared test Redis (they expire with
 * their one-minute window, so nothing needs cleaning).
 */
export function testConfig(env: Record<string, string | undefined>) {
  return loadConfig({ WILDFIRE_PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', DATA_DIR: unusedDataDir('wf'), RATE_LIMIT_PREFIX: `${uniquePrefix()}-rl`, ...env });
}

/** Asserts a wildfire error answer (interface §7): the status and exactly `{error: {code, message, param, request_id}}`. */
export function expectErrorBody(res: { status: number; body: unknown; headers: Record<string, string | undefined> }, status: number, code: string, param: string | null): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), param, request_id: res.headers['x-request-id'] } });
}

/** Stores a live reading of `fwi` for the municipality and day, with the same weather and codes every time. */
export async function storeReading(rt: { database: { db: WildfireDb } }, municipioId: string, date: string, fwi: number): Promise<void> {
  const r = readingOf(date, { temp: 30, rh: 25, ws: 15, prec: 0 }, { ffmc: 90, dmc: 40, dc: 300, isi: 8, bui: 60, fwi, dsr: 1 });
  await rt.database.db.insert(readings).values({ municipioId, ...r });
}
