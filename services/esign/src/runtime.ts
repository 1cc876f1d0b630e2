import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import { resolveEngineSandbox } from '@firma-riesgo/pdf-core';
import {
  closeServer,
  createLogger,
  createMetrics,
  createRedis,
  createStorageSweep,
  runIfUnlocked,
  listenHttp,
  openServiceInfrastructure,
  startJobs,
  type Database,
  type JobQueue,
  type JobsRuntime,
  type Logger,
} from '@firma-riesgo/service-kit';
import { createEsignApp } from './app';
import type { EsignConfig } from './config';
import { MIGRATIONS_FOLDER, schema } from './db';
import { ESIGN_QUEUE, esignJobs, esignSchedules, type EsignJobs } from './jobs/registry';
import { WEBHOOK_QUEUE, webhookDeliveryJobs } from './webhooks/jobs';
import { createKeysRepository } from './keys/repository';
import { createKeysService, type KeysService } from './keys/service';
import { createKeyCache, followKeyChanges, keyChangePublisher } from './keys/key-cache';
import { createMailer } from './mail/mailer';
import { createMailFiles } from './mail/mail-files';
import { createMailRepository } from './mail/repository';
import { createBodySealer } from './mail/sealed-body';
import { loadAtRestKeys, type AtRestKeys } from './at-rest/keys';
import { createMailService, type MailService } from './mail/service';
import { createToolsContext, type ToolsContext } from './tools/context';
import { createSigningFeatures, type SigningFeatures } from './features';
import { RAW_SECRETS_WARNING } from './webhooks/secrets';
import { loadSealIdentity } from './signatures/seal-identity';
import { startRecoverySweep } from './recovery-sweep';
import { BUILT_IN_TEMPLATES_DIR, loadTemplates } from './contracts/template-catalogue';

export type EsignRole = 'api' | 'worker' | 'all' | 'cli';

export interface EsignRuntime {
  config: EsignConfig;
  logger: Logger;
  version: string;
  database: Database<typeof schema>;
  jobs: JobsRuntime<EsignJobs>;
  keys: KeysService;
  mail: MailService;
  signing: SigningFeatures;
  /** PDF tools' engines and worker threads (workers start on first use). */
  tools: ToolsContext;
  redis?: Redis;
  server?: Server;
  /** Base URL the HTTP server listens on (api and all roles). */
  url?: string;
  /** Plaintext demo key, only on an embedded first start. */
  demoKey?: string | null;
  close(): Promise<void>;
}

/**
 * Composition root: builds every dependency explicitly for one process role.
 * `api` serves HTTP (and runs jobs in-process when there is no Redis), `worker` runs
 * BullMQ jobs, `all` does both, `cli` only opens the database and the queue producer.
 */
export interface StartOptions {
  logger?: Logger;
  /** Every service's "now" (tests move it); the SQL that filters on time takes it too. */
  clock?: () => Date;
}

export async function startEsign(config: EsignConfig, role: EsignRole, options: StartOptions = {}): Promise<EsignRuntime> {
  const logger = options.logger ?? createLogger({ service: 'esign', level: config.logLevel });
  const clock = options.clock ?? (() => new Date());
  // Templates are read and parsed before anything opens: a broken one stops the start
  // with its file and problem. Only the API serves them.
  const serves = role === 'api' || role === 'all';
  const templates = serves ? await loadTemplates([BUILT_IN_TEMPLATES_DIR, ...(config.templatesDir ? [config.templatesDir] : [])]) : new Map();
  // Probed once, before anything opens: ESIGN_ENGINE_SANDBOX=bwrap stops the start where
  // bubblewrap cannot run. DATA_DIR and the seal key stay hidden even if they lie under a
  // system dir the engines see.
  const engineSandbox = await resolveEngineSandbox(config.engineSandbox, { hide: [config.dataDir, ...(config.signing.p12Path ? [config.signing.p12Path] : [])] });
  if (engineSandbox.unavailable && role !== 'cli') {
    logger.warn(
      { reason: engineSandbox.unavailable },
      'PDF engines run WITHOUT a sandbox: bubblewrap cannot create namespaces here, so engines have network access and see what this process sees (the LibreOffice profile and link stripping still apply; see the README, Security)',
    );
  }
  const { version, database, redis } = await openServiceInfrastructure({
    service: 'esign',
    role,
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    dataDir: config.dataDir,
    schema,
    migrationsFolder: MIGRATIONS_FOLDER,
    packageDir: join(__dirname, '..'),
    logger,
  });

  // Key lookups are cached only where a change can reach the cache at once: a process
  // that serves the API, with Redis, subscribed to the key-change channel (as wildfire's
  // tokens); a worker authenticates nothing. The CLI announces its revocations there (a
  // connection of its own: the CLI role opens no other).
  const keyCache = serves && redis && config.keyCache.ttlMs > 0 ? createKeyCache(config.keyCache) : undefined;
  const cliPublisher = role === 'cli' && config.redisUrl ? createRedis(config.redisUrl) : undefined;
  cliPublisher?.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));
  const publisher = redis ?? cliPublisher;
  const keys = createKeysService(createKeysRepository(database.db), clock, {
    cache: keyCache,
    announce: publisher && keyChangePublisher(publisher, config.rateLimitPrefix),
    logger,
  });
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, mailDir: config.mailDir });
  // Loaded at start-up so a bad SIGNING_P12_PATH, password or SIGNING_IDENTITY_KEY stops the process at once.
  let identity: Awaited<ReturnType<typeof loadSealIdentity>>;
  let atRest: AtRestKeys;
  try {
    identity = await loadSealIdentity(config, database.db, logger);
    atRest = await loadAtRestKeys(config.atRest, logger);
  } catch (err) {
    await database.close();
    if (redis) redis.disconnect();
    cliPublisher?.disconnect();
    throw err;
  }
  if (!config.webhooks.secretKey && role !== 'cli') logger.warn(RAW_SECRETS_WARNING);
  // Workers start on first use, so a role that never decodes an image or runs a tool
  // never starts one.
  const tools = createToolsContext({ tmpDir: config.tmpDir, logger, sweep: role !== 'cli', sandbox: engineSandbox.sandbox });
  const signing = createSigningFeatures({
    config,
    pool: tools.pool,
    db: database.db,
    database,
    identity,
    atRest,
    jobs: { enqueue: (name, payload, opts) => jobs.queue.enqueue(name, payload, opts) },
    logger,
    tenantName: (id) => keys.tenantName(id),
    tenants: keys,
    queueDepths: async () => ({ [ESIGN_QUEUE]: await jobs.queue.depth(), [WEBHOOK_QUEUE]: await webhookJobs.queue.depth() }),
    webhookQueue: { enqueue: (name, payload, opts) => webhookJobs.queue.enqueue(name, payload, opts) },
    version,
    templates,
    clock,
  });
  if (serves) {
    try {
      await signing.contracts.checkExamples();
    } catch (err) {
      await tools.close();
      await database.close();
      if (redis) redis.disconnect();
      throw err;
    }
  }
  const mail = createMailService({
    repo: createMailRepository(database.db, createBodySealer(atRest.outbox)),
    mailer,
    jobs: { enqueue: (name, payload, opts) => jobs.queue.enqueue(name, payload, opts) },
    clock,
    onSent: signing.emailSent,
    mailFiles: createMailFiles(config.mailDir),
  });

  const sweepOrphanBlobs = createStorageSweep({ service: 'esign', files: signing.files, clock, exclusive: (name, work) => runIfUnlocked(database, name, work) });
  const jobs = startJobs({
    redisUrl: config.redisUrl,
    queueName: ESIGN_QUEUE,
    prefix: config.queuePrefix,
    registry: esignJobs,
    handlers: () => ({
      'email.send': (payload, ctx) => mail.deliver(payload.emailId, ctx),
      'key.touch': (payload) => keys.touch(payload.keyId, new Date(payload.usedAt)),
      'signature.seal': (payload, ctx) => signing.signatures.sealJob(payload.requestId, ctx),
      'document.finalise': (payload, ctx) => signing.signatures.finaliseDocument(payload.documentId, ctx),
      'webhook.dispatch': (payload) => signing.webhookDelivery.dispatch(payload.eventId),
      'storage.sweep': (_payload, ctx) => sweepOrphanBlobs(ctx.logger),
    }),
    runWorker: role === 'worker' || role === 'all',
    concurrency: config.workerConcurrency,
    logger,
  });
  // Webhook deliveries have a queue of their own: a slow or dead receiver never holds up
  // signing, emails or seals.
  const webhookJobs = startJobs({
    redisUrl: config.redisUrl,
    queueName: WEBHOOK_QUEUE,
    prefix: config.queuePrefix,
    registry: webhookDeliveryJobs,
    handlers: () => ({ 'webhook.deliver': (payload) => signing.webhookDelivery.deliver(payload.deliveryId) }),
    runWorker: role === 'worker' || role === 'all',
    concurrency: config.webhooks.concurrency,
    logger,
  });

  const runsJobs = role === 'worker' || role === 'all' || (role === 'api' && jobs.mode === 'in-process');
  // The repeatable jobs (BullMQ keeps one scheduler per job however many workers declare it).
  if (runsJobs) {
    try {
      await jobs.queue.setSchedules(esignSchedules(signing.files));
    } catch (err) {
      await tools.close();
      await jobs.close();
      await webhookJobs.close();
      if (redis) redis.disconnect();
      await database.close();
      throw err;
    }
  }

  // Subscribed before the first request is served, so no change can be missed while caching.
  const stopFollowing = keyCache && redis ? await followKeyChanges(redis.duplicate(), config.rateLimitPrefix, keyCache, logger) : undefined;
  let server: Server | undefined;
  let url: string | undefined;
  if (serves) {
    const app = createEsignApp({ config, logger, metrics: createMetrics('esign'), version, database, redis, keys, jobs: jobs.queue, tools, signing });
    ({ server, url } = await listenHttp(app, config.port, config.host));
  }
  // The process that runs the jobs (a worker, or the embedded in-process queue) re-enqueues
  // work whose job was lost; an API feeding Redis leaves that to its workers.
  // It runs at start-up and then every ESIGN_RECOVERY_INTERVAL_MS, one instance at a time.
  const recovery =
    role === 'worker' || role === 'all' || (role === 'api' && jobs.mode === 'in-process')
      ? startRecoverySweep(() => resumeInterruptedWork(mail, signing, jobs.queue, logger), { database, intervalMs: config.recoveryIntervalMs, logger })
      : undefined;
  const demoKey = role !== 'cli' && role !== 'worker' && config.demoKey ? await keys.createDemoKeyIfEmpty() : null;

  return {
    config,
    logger,
    version,
    database,
    jobs,
    keys,
    mail,
    signing,
    tools,
    redis,
    server,
    url,
    demoKey,
    async close() {
      await recovery?.stop();
      if (server) await closeServer(server, config.shutdownGraceMs);
      await tools.close();
      await jobs.close();
      await webhookJobs.close();
      await stopFollowing?.();
      if (cliPublisher) await cliPublisher.quit().catch(() => cliPublisher.disconnect());
      if (redis) await redis.quit().catch(() => redis.disconnect());
      mailer.close();
      await database.close();
    },
  };
}

/**
 * The recovery sweep: outbox emails still queued, signed requests never sealed and sealed
 * documents never finalised get their jobs again. Every job is idempotent and deduplicated,
 * so a sweep racing a live job does no harm.
 */
async function resumeInterruptedWork(mail: MailService, signing: SigningFeatures, queue: JobQueue<EsignJobs>, logger: Logger) {
  const emails = await mail.resumeQueued();
  const { seals, finalisations } = await signing.signatures.resumeInterrupted();
  const webhooks = await signing.webhookDelivery.resumeInterrupted((eventId) => queue.enqueue('webhook.dispatch', { eventId }));
  if (emails + seals + finalisations + webhooks.events + webhooks.deliveries > 0) {
    logger.info({ emails, seals, finalisations, webhookEvents: webhooks.events, webhookDeliveries: webhooks.deliveries }, 'resumed interrupted work');
  }
  return { emails, seals, finalisations, webhooks };
}
