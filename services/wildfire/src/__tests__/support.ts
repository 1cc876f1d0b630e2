import { shortTempDir as tempDir, uniquePrefix, unusedDataDir } from '@firma-riesgo/service-kit/testing';
import { loadConfig } from '../config';

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
