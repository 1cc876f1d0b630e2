import { resolve } from 'node:path';
import { z } from 'zod';
import { env, httpEdgeEnv, httpEdgeSettings, type HttpEdgeSettings } from './config';
import { s3Env } from './storage/storage-config';

/**
 * The environment variables every service reads alike: spread into a service's schema
 * beside its own (`<SERVICE>_PORT`, `<SERVICE>_DATABASE_URL`, ...).
 */
export const serviceEnv = {
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().optional(),
  INIT_CWD: z.string().optional(),
  REDIS_URL: env.url(['redis', 'rediss']).optional(),
  QUEUE_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').default('bull'),
  TRUSTED_PROXIES: env.list(),
  SHUTDOWN_GRACE_MS: env.int(10_000),
  LOG_LEVEL: env.logLevel(),
  ...httpEdgeEnv,
  ...s3Env,
};

const ZServiceEnvSchema = z.object(serviceEnv);
type ServiceEnv = z.output<typeof ZServiceEnvSchema>;

/** The settings behind `serviceEnv`, as every service's config carries them. */
export interface ServiceSettings {
  host: string;
  /** DATA_DIR resolved against where the command was typed (npm -w runs scripts inside the workspace; INIT_CWD is the user's folder). */
  dataDir: string;
  redisUrl?: string;
  /** Redis key prefix of the job queues (BullMQ's default `bull`). */
  queuePrefix: string;
  trustedProxies: string[];
  /** How long in-flight requests may finish at shutdown before their connections are cut. */
  shutdownGraceMs: number;
  logLevel: ServiceEnv['LOG_LEVEL'];
  /** Server timeouts and the /metrics token (HTTP_*_TIMEOUT_MS, METRICS_TOKEN). */
  http: HttpEdgeSettings;
}

/** Reads the parsed common variables; throws ConfigError when the HTTP timeouts contradict each other. */
export function serviceSettings(e: Omit<ServiceEnv, keyof typeof s3Env>): ServiceSettings {
  return {
    host: e.HOST,
    dataDir: resolve(e.INIT_CWD ?? process.cwd(), e.DATA_DIR ?? 'data'),
    redisUrl: e.REDIS_URL,
    queuePrefix: e.QUEUE_PREFIX,
    trustedProxies: e.TRUSTED_PROXIES,
    shutdownGraceMs: e.SHUTDOWN_GRACE_MS,
    logLevel: e.LOG_LEVEL,
    http: httpEdgeSettings(e),
  };
}
