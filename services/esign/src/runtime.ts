import { join } from 'node:path';
import { resolveEngineSandbox, type ResolvedSandbox } from '@firma-riesgo/pdf-core';
import { createLogger, createMetrics, runIfUnlocked, servesHttp, startService, type JobQueue, type JobsRuntime, type Logger, type ProcessRole, type ServiceLifecycle, type ServiceRuntime, type StartedService } from '@firma-riesgo/service-kit';
import { createEsignApp } from './app';
import type { EsignConfig } from './config';
import { MIGRATIONS_FOLDER, schema } from './db';
import { ESIGN_QUEUE, esignJobHandlers, esignJobs, esignSchedules, type EsignJobs } from './jobs/registry';
import { WEBHOOK_QUEUE, webhookDeliveryJobHandlers, webhookDeliveryJobs } from './webhooks/jobs';
import { createKeysRepository } from './keys/repository';
import { createKeysService, type KeysService } from './keys/service';
import { createKeyCache, followKeyChanges, keyChangePublisher } from './keys/key-cache';
import { createMailer } from './mail/mailer';
import { createMailFiles } from './mail/mail-files';
import { createMailRepository } from './mail/repository';
import { createBodySealer } from './mail/sealed-body';
import { loadAtRestKeys } from './at-rest/keys';
import { createMailService, type MailService } from './mail/service';
import { createToolsContext, type ToolsContext } from './tools/context';
import { createSigningFeatures, type SigningFeatures } from './features';
import { loadSealIdentity } from './signatures/seal-identity';
import { createResumeInterruptedWork } from './recovery/resume-interrupted-work';
import { BUILT_IN_TEMPLATES_DIR, loadTemplates, type ContractTemplate } from './contracts/template-catalogue';
import { createAdminLogRepository } from './admin/repository';

export type EsignRole = ProcessRole;

export interface EsignRuntime extends ServiceRuntime<typeof schema, EsignConfig, EsignJobs> {
  keys: KeysService;
  mail: MailService;
  signing: SigningFeatures;
  /** PDF tools' engines and worker threads (workers start on first use). */
  tools: ToolsContext;
  /** Plaintext demo key, only on an embedded first start. */
  demoKey?: string | null;
}

export interface StartOptions {
  logger?: Logger;
  /** Every service's "now" (tests move it); the SQL that filters on time takes it too. */
  clock?: () => Date;
}

const ESIGN_SERVICE = { service: 'esign', schema, migrationsFolder: MIGRATIONS_FOLDER, packageDir: join(__dirname, '..') };

/**
 * The composition root of esign: service-kit's lifecycle opens what the role needs
 * (`startService`); `composeEsign` builds the features, their jobs and the app on it.
 */
export async function startEsign(config: EsignConfig, role: EsignRole, options: StartOptions = {}): Promise<EsignRuntime> {
  const logger = options.logger ?? createLogger({ service: 'esign', level: config.logLevel });
  const clock = options.clock ?? (() => new Date());
  // Templates are read and parsed before anything opens: a broken one stops the start
  // with its file and problem. Only the API serves them.
  const templates = servesHttp(role) ? await loadTemplates([BUILT_IN_TEMPLATES_DIR, ...(config.templatesDir ? [config.templatesDir] : [])]) : new Map();
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
  const { demoCredential, ...started } = await startService(ESIGN_SERVICE, { role, config, logger }, (lifecycle) => composeEsign(lifecycle, config, clock, { templates, engineSandbox }));
  return { ...started, demoKey: demoCredential };
}

type EsignFeatures = Omit<EsignRuntime, keyof StartedService<typeof schema> | 'demoKey'>;

async function composeEsign(
  life: ServiceLifecycle<typeof schema>,
  config: EsignConfig,
  clock: () => Date,
  loaded: { templates: Map<string, ContractTemplate>; engineSandbox: ResolvedSandbox },
) {
  const { role, database, redis, logger, version } = life;
  // Key lookups are cached as wildfire's tokens are (service-kit's lifecycle decides where).
  const { cache, announce } = life.credentials({
    ttlMs: config.keyCache.ttlMs,
    createCache: () => createKeyCache(config.keyCache),
    publisher: (publisher) => keyChangePublisher(publisher, config.rateLimitPrefix),
    follow: (subscriber, keyCache, log) => followKeyChanges(subscriber, config.rateLimitPrefix, keyCache, log),
  });
  const keys = createKeysService(createKeysRepository(database.db), clock, { cache, announce, logger, log: createAdminLogRepository(database.db) });
  const mailer = await life.open('mailer', () => createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, mailDir: config.mailDir }), (opened) => opened.close());
  // Loaded at start-up so a bad SIGNING_P12_PATH, password or SIGNING_IDENTITY_KEY stops the process at once.
  const identity = await loadSealIdentity(config, database.db, logger);
  const atRest = await loadAtRestKeys(config.atRest, logger);
  // Workers start on first use, so a role that never decodes an image or runs a tool
  // never starts one.
  const tools = await life.open(
    'pdf tools',
    () => createToolsContext({ tmpDir: config.tmpDir, logger, sweep: role !== 'cli', sandbox: loaded.engineSandbox.sandbox }),
    (opened) => opened.close(),
  );
  // Late-bound: the job handlers need the features, and the features enqueue jobs.
  const enqueuer: Pick<JobQueue<EsignJobs>, 'enqueue' | 'enqueueAndWait'> = {
    enqueue: (name, payload, opts) => jobs.queue.enqueue(name, payload, opts),
    enqueueAndWait: (name, payload, opts) => jobs.queue.enqueueAndWait(name, payload, opts),
  };
  const signing = createSigningFeatures({
    config,
    pool: tools.pool,
    db: database.db,
    database,
    identity,
    atRest,
    jobs: enqueuer,
    logger,
    tenantName: (id) => keys.tenantName(id),
    tenants: keys,
    queueDepths: async () => ({ [ESIGN_QUEUE]: await jobs.queue.depth(), [WEBHOOK_QUEUE]: await webhookJobs.queue.depth() }),
    webhookQueue: { enqueue: (name, payload, opts) => webhookJobs.queue.enqueue(name, payload, opts) },
    version,
    templates: loaded.templates,
    clock,
  });
  if (life.serves) await signing.contracts.checkExamples();
  const mail = createMailService({
    repo: createMailRepository(database.db, createBodySealer(atRest.outbox)),
    mailer,
    jobs: enqueuer,
    clock,
    onSent: signing.emailSent,
    mailFiles: createMailFiles(config.mailDir),
    files: signing.files,
  });

  // Periodic tasks take a Postgres advisory lock, so that one instance runs each at a time.
  const exclusive = <T>(name: string, work: () => Promise<T>) => runIfUnlocked(database, name, work);
  const jobs: JobsRuntime<EsignJobs> = life.queue({
    queueName: ESIGN_QUEUE,
    registry: esignJobs,
    handlers: () =>
      esignJobHandlers({
        mail,
        keys,
        signatures: signing.signatures,
        webhookDelivery: signing.webhookDelivery,
        storageSweep: { service: 'esign', files: signing.files, clock, exclusive },
        recovery: {
          sweep: createResumeInterruptedWork({ mail, signatures: signing.signatures, webhookDelivery: signing.webhookDelivery, jobs: enqueuer }),
          exclusive,
        },
        reminders: { remindDue: () => signing.requests.remindDue(), settleBlocked: () => signing.requests.settleBlocked(clock()), exclusive },
      }),
    concurrency: config.workerConcurrency,
    schedules: () => esignSchedules(config, signing.files),
  });
  // Webhook deliveries have a queue of their own: a slow or dead receiver never holds up
  // signing, emails or seals.
  const webhookJobs = life.queue({
    queueName: WEBHOOK_QUEUE,
    registry: webhookDeliveryJobs,
    handlers: () => webhookDeliveryJobHandlers(signing.webhookDelivery),
    concurrency: config.webhooks.concurrency,
  });

  const features: EsignFeatures = { config, logger, jobs, keys, mail, signing, tools };
  return {
    runtime: features,
    app: () => createEsignApp({ config, logger, metrics: createMetrics('esign'), version, database, redis, keys, clock, jobs: jobs.queue, tools, signing }),
    demoCredential: config.demoKey ? () => keys.createDemoKeyIfEmpty() : undefined,
  };
}
