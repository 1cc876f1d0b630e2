import type { Server } from 'node:http';
import type { Express } from 'express';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database } from './database';
import { DisposalStack } from './disposal-stack';
import { listenHttp } from './http';
import { startJobs, type JobsRuntime } from './jobs-runtime';
import { closeServer } from './lifecycle';
import type { JobHandlers, JobInputOf, JobNameOf, JobRegistry, JobSchedule } from './queue';
import { createRedis } from './redis';
import { openServiceInfrastructure, type ProcessRole } from './service-infrastructure';
import type { ServiceSettings } from './service-config';

/** api and all serve HTTP, and only they authenticate (the credential cache lives there). */
export const servesHttp = (role: ProcessRole): boolean => role === 'api' || role === 'all';
/** worker and all run a BullMQ worker. */
export const runsWorker = (role: ProcessRole): boolean => role === 'worker' || role === 'all';
/** The processes that run jobs: a worker, or an API whose queue is in-process (no REDIS_URL). They declare the schedules. */
export const runsJobs = (role: ProcessRole, mode: JobsRuntime<JobRegistry>['mode']): boolean => runsWorker(role) || (role === 'api' && mode === 'in-process');
/** A demo credential is created by the processes people reach first (api, all), never by a worker or the CLI. */
export const createsDemoCredential = (role: ProcessRole): boolean => servesHttp(role);

/**
 * The credentials an API authenticates (esign's keys, wildfire's tokens): cached per API
 * instance only where a change reaches the cache at once (a process that serves HTTP, with
 * Redis, subscribed to the change channel before its first request); the CLI announces its
 * changes on a Redis connection of its own.
 */
export interface CredentialChannel<Cache, Announce> {
  /** How long a looked-up credential is believed; 0 turns the cache off. */
  ttlMs: number;
  createCache(): Cache;
  /** What tells every instance that a credential changed, over `redis`. */
  publisher(redis: Redis): Announce;
  /** Subscribes `subscriber` and keeps `cache` in step; resolves with the unsubscribe. */
  follow(subscriber: Redis, cache: Cache, logger: Logger): Promise<() => Promise<void>>;
}

/** A repeatable job; `atStart` also queues one run whenever a process that runs jobs starts. */
export type ServiceSchedule<R extends JobRegistry> = JobSchedule<R> & { atStart?: boolean };

/** One queue of the service: its jobs, their handlers and their schedules. */
export interface ServiceQueue<R extends JobRegistry> {
  queueName: string;
  registry: R;
  /** Built lazily: a producer-only API process never needs the handlers' dependencies. */
  handlers: () => JobHandlers<R>;
  concurrency: number;
  stalledAfterMs?: number;
  /** The repeatable jobs, declared by the processes that run jobs (never the CLI, never an API feeding Redis). */
  schedules?: () => ServiceSchedule<R>[];
}

/** What the lifecycle opened, handed to the service to compose its features on. */
export interface ServiceLifecycle<TSchema extends Record<string, unknown>> {
  role: ProcessRole;
  logger: Logger;
  version: string;
  database: Database<TSchema>;
  /** The API's Redis connection (rate limits, health); absent without REDIS_URL and in workers and the CLI. */
  redis?: Redis;
  /** Whether this process serves HTTP (api, all). */
  serves: boolean;
  /** Opens something the features need and releases it when the process stops (or the start fails). */
  open<T>(name: string, open: () => T | Promise<T>, close: (value: T) => unknown): Promise<T>;
  /** Releases something already open when the process stops (or the start fails). */
  defer(name: string, close: () => unknown): void;
  /**
   * A cache kept in step through a Redis change channel (credentials, or data that changes
   * only when written, such as wildfire's latest readings): the cache (API with Redis) and
   * the change announcer (API with Redis, or the CLI's or worker's own connection). May be
   * called once per channel.
   */
  credentials<Cache, Announce>(channel: CredentialChannel<Cache, Announce>): { cache?: Cache; announce?: Announce };
  /** A job queue: BullMQ with REDIS_URL (a worker in the worker and all roles), else in-process. */
  queue<R extends JobRegistry>(spec: ServiceQueue<R>): JobsRuntime<R>;
}

/** What the service composed: its own runtime fields, its HTTP app and its demo credential. */
export interface ServiceComposition<T> {
  runtime: T;
  /** The HTTP app, built only in the roles that serve it. */
  app?: () => Express;
  /** Creates the demo credential on an embedded first start; answers it in plain text once, else null. */
  demoCredential?: () => Promise<string | null>;
}

/** What a service is, for the lifecycle: its name, its database schema and migrations, and its package folder (for its version). */
export interface ServiceDefinition<TSchema extends Record<string, unknown>> {
  service: string;
  schema: TSchema;
  migrationsFolder: string;
  packageDir: string;
}

/** One start of a service: the process role, the service's configuration (its common settings and port) and the logger. */
export interface ServiceStart {
  role: ProcessRole;
  config: Pick<ServiceSettings, 'host' | 'dataDir' | 'redisUrl' | 'queuePrefix' | 'shutdownGraceMs'> & { port: number; databaseUrl?: string };
  logger: Logger;
}

export interface StartedService<TSchema extends Record<string, unknown>> {
  version: string;
  database: Database<TSchema>;
  redis?: Redis;
  server?: Server;
  /** Base URL the HTTP server listens on (api and all roles). */
  url?: string;
  /** The plaintext demo credential, only on an embedded first start. */
  demoCredential: string | null;
  /** Releases everything the start opened, last opened first. */
  close(): Promise<void>;
}

/** The fields every service's runtime has: what the lifecycle opened, the configuration, the logger and the main job queue. */
export interface ServiceRuntime<TSchema extends Record<string, unknown>, Config, R extends JobRegistry> extends Omit<StartedService<TSchema>, 'demoCredential'> {
  config: Config;
  logger: Logger;
  jobs: JobsRuntime<R>;
}

/** Quits a ready connection politely; one still connecting (or one that cannot quit) is cut. */
export async function releaseRedis(redis: Redis): Promise<void> {
  if (redis.status !== 'ready') return redis.disconnect();
  await redis.quit().catch(() => redis.disconnect());
}

/**
 * The one lifecycle of a service process: opens the database and Redis for the role, lets
 * the service compose its features (each thing it opens registered on one disposal stack),
 * declares the schedules where jobs run, follows credential changes, listens, creates the
 * demo credential, and releases in reverse whatever it opened: at `close()`, or at once when
 * any step of the start fails.
 */
export async function startService<TSchema extends Record<string, unknown>, T>(
  spec: ServiceDefinition<TSchema>,
  { role, config, logger }: ServiceStart,
  compose: (lifecycle: ServiceLifecycle<TSchema>) => Promise<ServiceComposition<T>>,
): Promise<T & StartedService<TSchema>> {
  const stack = new DisposalStack(logger);
  const queues: { runtime: JobsRuntime<JobRegistry>; schedules?: () => ServiceSchedule<JobRegistry>[] }[] = [];
  // Every change channel this process follows (credentials, cached data): each subscribed before the first request.
  const follows: (() => Promise<() => Promise<void>>)[] = [];
  // The CLI and a worker announce on one Redis connection of their own, opened on the first channel that needs it.
  let ownPublisher: Redis | undefined;
  try {
    const { version, database, redis } = await openServiceInfrastructure({
      service: spec.service,
      role,
      databaseUrl: config.databaseUrl,
      redisUrl: config.redisUrl,
      dataDir: config.dataDir,
      schema: spec.schema,
      migrationsFolder: spec.migrationsFolder,
      packageDir: spec.packageDir,
      logger,
    });
    stack.defer('database', () => database.close());
    if (redis) stack.defer('redis', () => releaseRedis(redis));

    const lifecycle: ServiceLifecycle<TSchema> = {
      role,
      logger,
      version,
      database,
      redis,
      serves: servesHttp(role),
      open: (name, open, close) => stack.open(name, open, close),
      defer: (name, close) => stack.defer(name, close),
      credentials(channel) {
        const cache = servesHttp(role) && redis && channel.ttlMs > 0 ? channel.createCache() : undefined;
        let publisher = redis;
        if ((role === 'cli' || role === 'worker') && config.redisUrl) {
          if (!ownPublisher) {
            const own = createRedis(config.redisUrl);
            own.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
            stack.defer('redis publisher', () => releaseRedis(own));
            ownPublisher = own;
          }
          publisher = ownPublisher;
        }
        if (cache !== undefined && redis) follows.push(() => channel.follow(redis.duplicate(), cache, logger));
        return { cache, announce: publisher && channel.publisher(publisher) };
      },
      queue(queueSpec) {
        const runtime = startJobs({
          ...queueSpec,
          redisUrl: config.redisUrl,
          prefix: config.queuePrefix,
          runWorker: runsWorker(role),
          logger,
        });
        stack.defer(`${queueSpec.queueName} jobs`, () => runtime.close());
        queues.push({ runtime, schedules: queueSpec.schedules as (() => ServiceSchedule<JobRegistry>[]) | undefined });
        return runtime;
      },
    };
    const composed = await compose(lifecycle);

    // The repeatable jobs (BullMQ keeps one scheduler per job however many workers declare it).
    for (const { runtime, schedules } of queues) {
      if (!schedules || !runsJobs(role, runtime.mode)) continue;
      const declared = schedules();
      await runtime.queue.setSchedules(declared.map(({ atStart: _atStart, ...schedule }) => schedule));
      for (const schedule of declared.filter((s) => s.atStart)) {
        await runtime.queue.enqueue(schedule.name as JobNameOf<JobRegistry>, schedule.payload as JobInputOf<JobRegistry, string>);
      }
    }
    // Subscribed before the first request is served, so no change can be missed while caching.
    for (const follow of follows) stack.defer('change channel', await follow());
    let server: Server | undefined;
    let url: string | undefined;
    if (servesHttp(role) && composed.app) {
      ({ server, url } = await listenHttp(composed.app(), config.port, config.host));
      const listening = server;
      stack.defer('http', () => closeServer(listening, config.shutdownGraceMs));
    }
    const demoCredential = createsDemoCredential(role) && composed.demoCredential ? await composed.demoCredential() : null;
    return { ...composed.runtime, version, database, redis, server, url, demoCredential, close: () => stack.dispose() };
  } catch (err) {
    await stack.dispose().catch(() => undefined);
    throw err;
  }
}
