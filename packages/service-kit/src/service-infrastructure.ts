import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { openDatabase, type Database } from './database';
import { createRedis } from './redis';
import { readPackageVersion } from './version';

export type ProcessRole = 'api' | 'worker' | 'all' | 'cli';

export interface ServiceInfrastructureOptions<TSchema extends Record<string, unknown>> {
  service: string;
  role: ProcessRole;
  databaseUrl?: string;
  redisUrl?: string;
  dataDir: string;
  schema: TSchema;
  migrationsFolder: string;
  /** The service's package folder (for its version). */
  packageDir: string;
  logger: Logger;
}

export interface ServiceInfrastructure<TSchema extends Record<string, unknown>> {
  version: string;
  database: Database<TSchema>;
  /** The API's Redis connection (rate limits, health); absent without REDIS_URL and in workers/CLI. */
  redis?: Redis;
}

/**
 * What every service process opens first, for its role: the database (migrated; embedded
 * PGlite without a URL) and, for HTTP roles, Redis. A worker without Redis is refused:
 * without a queue its jobs run inside the API process instead.
 */
export async function openServiceInfrastructure<TSchema extends Record<string, unknown>>(
  options: ServiceInfrastructureOptions<TSchema>,
): Promise<ServiceInfrastructure<TSchema>> {
  const { service, role, logger } = options;
  if (role === 'worker' && !options.redisUrl) {
    throw new Error(`The ${service} worker needs REDIS_URL; without Redis, jobs run inside the API process (npm start)`);
  }
  const version = readPackageVersion(options.packageDir);
  const database = await openDatabase({
    url: options.databaseUrl,
    dataDir: options.dataDir,
    service,
    schema: options.schema,
    migrationsFolder: options.migrationsFolder,
    logger,
    role: role === 'cli' ? 'cli' : 'service',
  });
  const redis = options.redisUrl && (role === 'api' || role === 'all') ? createRedis(options.redisUrl) : undefined;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  return { version, database, redis };
}
