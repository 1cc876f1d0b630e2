import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import {
  closeServer,
  createLogger,
  createMetrics,
  createRedis,
  listenHttp,
  openDatabase,
  readPackageVersion,
  startJobs,
  type Database,
  type JobsRuntime,
  type Logger,
} from '@platform/service-kit';
import { createWildfireApp } from './app';
import type { WildfireConfig } from './config';
import { MIGRATIONS_FOLDER, schema } from './db';
import { WILDFIRE_QUEUE, wildfireJobs, type WildfireJobs } from './jobs/registry';
import { createTokensRepository } from './tokens/repository';
import { createTokensService, type TokensService } from './tokens/service';

export type WildfireRole = 'api' | 'worker' | 'all' | 'cli';

export interface WildfireRuntime {
  config: WildfireConfig;
  logger: Logger;
  version: string;
  database: Database<typeof schema>;
  jobs: JobsRuntime<WildfireJobs>;
  tokens: TokensService;
  redis?: Redis;
  server?: Server;
  /** Base URL the HTTP server listens on (api and all roles). */
  url?: string;
  /** Plaintext demo token, only on an embedded first start. */
  demoToken?: string | null;
  close(): Promise<void>;
}

/**
 * Composition root: builds every dependency explicitly for one process role.
 * `api` serves HTTP (and runs jobs in-process when there is no Redis), `worker` runs
 * BullMQ jobs, `all` does both, `cli` only opens the database and the queue producer.
 */
export async function startWildfire(config: WildfireConfig, role: WildfireRole, options: { logger?: Logger } = {}): Promise<WildfireRuntime> {
  const logger = options.logger ?? createLogger({ service: 'wildfire', level: config.logLevel });
  if (role === 'worker' && !config.redisUrl) {
    throw new Error('The wildfire worker needs REDIS_URL; without Redis, jobs run inside the API process (npm start)');
  }
  const version = readPackageVersion(join(__dirname, '..'));
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    service: 'wildfire',
    schema,
    migrationsFolder: MIGRATIONS_FOLDER,
    logger,
    role: role === 'cli' ? 'cli' : 'service',
  });
  const redis = config.redisUrl && (role === 'api' || role === 'all') ? createRedis(config.redisUrl) : undefined;
  redis?.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));

  const tokens = createTokensService(createTokensRepository(database.db));

  const jobs = startJobs({
    redisUrl: config.redisUrl,
    queueName: WILDFIRE_QUEUE,
    prefix: config.queuePrefix,
    registry: wildfireJobs,
    handlers: () => ({
      'token.touch': (payload) => tokens.touch(payload.tokenId, new Date(payload.usedAt)),
    }),
    runWorker: role === 'worker' || role === 'all',
    concurrency: config.workerConcurrency,
    logger,
  });

  let server: Server | undefined;
  let url: string | undefined;
  if (role === 'api' || role === 'all') {
    const app = createWildfireApp({ config, logger, metrics: createMetrics('wildfire'), version, database, redis, tokens, jobs: jobs.queue });
    ({ server, url } = await listenHttp(app, config.port, config.host));
  }
  const demoToken = role !== 'cli' && role !== 'worker' && config.demoToken ? await tokens.createDemoTokenIfEmpty() : null;

  return {
    config,
    logger,
    version,
    database,
    jobs,
    tokens,
    redis,
    server,
    url,
    demoToken,
    async close() {
      if (server) await closeServer(server, config.shutdownGraceMs);
      await jobs.close();
      if (redis) await redis.quit().catch(() => redis.disconnect());
      await database.close();
    },
  };
}
