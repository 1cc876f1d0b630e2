import { join } from 'node:path';
import type { SigningIdentity } from '@firma-riesgo/pdf-core';
import { createLogger, createMetrics, loadOrCreateKeyFile, runIfUnlocked, startService, type JobsRuntime, type Logger, type ProcessRole, type ServiceLifecycle, type ServiceRuntime, type StartedService } from '@firma-riesgo/service-kit';
import { todayInSpain } from './calendar';
import type { WildfireConfig } from './config';
import { MIGRATIONS_FOLDER, schema } from './db';
import { createAlertFeatures, createDataFeatures, createReportFeatures, type AlertFeatures, type DataFeatures } from './features';
import type { AlertsService } from './alerts/service';
import { WILDFIRE_QUEUE, wildfireJobHandlers, wildfireJobs, wildfireSchedules, type WildfireJobs } from './jobs/registry';
import type { ReportGenerationQueue } from './reports/jobs';
import type { ReportSchedules } from './reports/report-schedules';
import type { ReportsService } from './reports/service';
import { lazyWorkerPool, pdfCore } from './reports/pdf-stack';
import { createTokensRepository } from './tokens/repository';
import { createTokensService, type TokensService } from './tokens/service';
import { createTokenAdministration, type TokenAdministration } from './tokens/administration';
import { createAdminLogRepository } from './admin-log/repository';
import { createRedisUsageCounter } from './rate-limits/redis-usage-counter';
import { createUsageRepository } from './rate-limits/repository';
import { createRateLimits, type RateLimits } from './rate-limits/service';
import { createMemoryUsageCounter } from './rate-limits/usage-counter';
import { createTokenCache } from './tokens/token-cache';
import { followTokenChanges, tokenChangePublisher } from './tokens/token-changes';
import { createLatestReadingCache, followReadingChanges, readingChangePublisher } from './readings/latest-cache';

/** The CLI generates no report: a report job reaching it would be a wiring mistake, so it fails loudly. */
const noSealer = {
  seal(): Promise<Buffer> {
    return Promise.reject(new Error('this process has no sealing identity (the CLI role generates no report)'));
  },
};

export type WildfireRole = ProcessRole;

export interface WildfireRuntime extends ServiceRuntime<typeof schema, WildfireConfig, WildfireJobs>, Omit<DataFeatures, 'synthetic'> {
  tokens: TokensService;
  /** Token operations made by operators (REST and CLI), written to the admin log. */
  tokenAdmin: TokenAdministration;
  reports: ReportsService;
  /** `wildfire reports schedule|schedules|unschedule`: the accounts' monthly report schedules. */
  reportSchedules: ReportSchedules;
  /** Per-token rate limits (in Redis when REDIS_URL is set, else in this process) and monthly usage. */
  limits: RateLimits;
  /** What "now" is: decides "today" and "the future" for the date rules, and token expiry. */
  clock: () => Date;
  /** Plaintext demo token, only on an embedded first start. */
  demoToken?: string | null;
  /** The accounts' alert subscriptions (POST/GET/DELETE /api/v1/alerts). */
  alerts: AlertsService;
}

export interface StartOptions {
  logger?: Logger;
  /** Tests pin the date; everything else takes the system clock. */
  clock?: () => Date;
  /** Tests: the monotonic milliseconds the latest-reading cache ages its entries by (default performance.now). */
  cacheNow?: () => number;
  /** Municipality-years of synthetic data kept in memory. */
  syntheticCacheSize?: number;
  /**
   * Tests: `onRenderSlot` runs in a report job once it holds its account's render slot, before
   * any work; `busyRetryMs` is how soon a job whose account has none free tries again.
   */
  /** Tests: how the AEMET client waits between retries (default: real time). */
  aemetSleep?: (ms: number) => Promise<void>;
  reportRendering?: { onRenderSlot?: (report: { id: string; accountId: string; municipioId: string }) => Promise<void>; busyRetryMs?: number };
}

const WILDFIRE_SERVICE = { service: 'wildfire', schema, migrationsFolder: MIGRATIONS_FOLDER, packageDir: join(__dirname, '..') };

/**
 * Wildfire for one process role, on service-kit's lifecycle (`startService`), which opens
 * and releases the infrastructure; `composeWildfire` builds the features, jobs and app.
 */
export async function startWildfire(config: WildfireConfig, role: WildfireRole, options: StartOptions = {}): Promise<WildfireRuntime> {
  const logger = options.logger ?? createLogger({ service: 'wildfire', level: config.logLevel });
  const clock = options.clock ?? (() => new Date());
  const { demoCredential, ...started } = await startService(WILDFIRE_SERVICE, { role, config, logger }, (lifecycle) => composeWildfire(lifecycle, config, clock, options));
  return { ...started, demoToken: demoCredential };
}

type WildfireFeatures = Omit<WildfireRuntime, keyof StartedService<typeof schema> | 'demoToken'>;

/** Each service and use case gets the repositories and collaborators it uses, and no others. */
async function composeWildfire(life: ServiceLifecycle<typeof schema>, config: WildfireConfig, clock: () => Date, options: StartOptions) {
  const { database, redis, logger } = life;
  const { cache, announce } = life.credentials({
    ttlMs: config.tokenCache.ttlMs,
    createCache: () => createTokenCache(config.tokenCache),
    publisher: (publisher) => tokenChangePublisher(publisher, config.rateLimits.prefix),
    follow: (subscriber, tokenCache, log) => followTokenChanges(subscriber, config.rateLimits.prefix, tokenCache, log),
  });
  const latestReadings = life.credentials({
    ttlMs: config.readingsCache.ttlMs,
    createCache: () => createLatestReadingCache({ ...config.readingsCache, now: options.cacheNow }),
    publisher: (publisher) => readingChangePublisher(publisher, config.rateLimits.prefix),
    follow: (subscriber, readingsCache, log) => followReadingChanges(subscriber, config.rateLimits.prefix, readingsCache, log),
  });
  const tokens = createTokensService(createTokensRepository(database.db), clock, { cache, announce, logger });
  const tokenAdmin = createTokenAdministration({ tokens, log: createAdminLogRepository(database.db), clock });
  // Periodic tasks take a Postgres advisory lock, so that one instance runs each at a time.
  const exclusive = <T>(name: string, work: () => Promise<T>) => runIfUnlocked(database, name, work);
  // One metrics registry per process that serves them (GET /metrics): the HTTP histogram and the AEMET request budget.
  const metrics = life.serves ? createMetrics('wildfire') : undefined;
  const aemetRemaining = metrics?.gauge('aemet_remaining_requests', 'AEMET OpenData requests left for the key (Remaining-request-count of its last answer)');
  // Late-bound: the alerts read the data services, and the ingestions raise alerts.
  let alerting: AlertFeatures | undefined;
  const data = await createDataFeatures({
    database,
    clock,
    logger,
    alerts: { observed: (loaded) => alerting!.raise.observed(loaded), forecast: (code, rows) => alerting!.raise.forecast(code, rows) },
    syntheticCacheSize: options.syntheticCacheSize,
    winterRules: config.winterRules,
    aemet: { ...config.aemet, onRemaining: (n) => aemetRemaining?.set(n), sleep: options.aemetSleep },
    exclusive,
    latestReadings,
  });
  // Loaded at start-up (not by the CLI, which seals nothing), so a bad WILDFIRE_SIGNING_P12_PATH or password stops the process at once.
  // The PDF stack is loaded only here and on the first PDF (reports/pdf-stack.ts): the CLI's start-up does without it.
  const identity: SigningIdentity | undefined = life.role === 'cli' ? undefined : await (await import('./reports/seal-identity')).loadReportSealIdentity(config);
  const sealer = identity && (await sealerOf(identity, config, clock));
  // Threads start on the first PDF, so a process that renders none never loads the layout engine (nor pdf-core).
  const pdfPool = await life.open('pdf workers', () => lazyWorkerPool({ size: config.reports.pdfWorkers }), (pool) => pool.close());
  // Late-bound: the job handlers need the reports, and the reports enqueue jobs.
  const enqueuer: ReportGenerationQueue = {
    enqueue: (name, payload, opts) => jobs.queue.enqueue(name, payload, opts),
    enqueueAndWait: (name, payload, opts) => jobs.queue.enqueueAndWait(name, payload, opts),
  };
  const reporting = createReportFeatures({
    config,
    database,
    data,
    tokens,
    pool: pdfPool,
    sealer: sealer ?? noSealer,
    jobs: enqueuer,
    exclusive,
    clock,
    logger,
    rendering: options.reportRendering,
  });

  const usageOptions = { repo: createUsageRepository(database.db), flushMs: config.rateLimits.usageFlushMs, clock, logger };
  const limits = createRateLimits({
    perMinute: config.rateLimits.perMinute,
    keyPrefix: config.rateLimits.prefix,
    redis,
    usage: redis ? createRedisUsageCounter({ ...usageOptions, redis, keyPrefix: config.rateLimits.prefix }) : createMemoryUsageCounter(usageOptions),
    clock,
  });
  // The requests served since the last flush reach account_usage before the process stops.
  life.defer('usage counters', () => limits.close().catch((err: unknown) => logger.warn({ err }, 'could not flush the usage counters at shutdown')));

  // Webhook secrets are never stored in clear: under WILDFIRE_WEBHOOK_SECRET_KEY, else a key kept under DATA_DIR (which one instance cannot share with another).
  const ownWebhookKey = await loadOrCreateKeyFile(join(config.dataDir, 'wildfire', 'secrets', 'webhook.key'), 'WILDFIRE_WEBHOOK_SECRET_KEY', logger);
  const webhookKeys = config.alerts.webhooks.secretKey ? [config.alerts.webhooks.secretKey, ownWebhookKey] : [ownWebhookKey];
  if (!config.alerts.webhooks.secretKey && config.databaseUrl && life.role !== 'cli') {
    logger.warn('WILDFIRE_WEBHOOK_SECRET_KEY is not set: alert webhook secrets are sealed under this instance\'s key file (DATA_DIR/wildfire/secrets/webhook.key), which other instances sharing the database do not have; set the same 32-byte base64 key on every instance (see the README, Alerts)');
  }
  alerting = createAlertFeatures({
    webhookKeys,
    config,
    database,
    data,
    tokens,
    jobs: { enqueue: (name, payload, opts) => jobs.queue.enqueue(name, payload, opts) },
    exclusive,
    version: life.version,
    clock,
    logger,
  });
  const alertFeatures = alerting;

  const jobs: JobsRuntime<WildfireJobs> = life.queue({
    queueName: WILDFIRE_QUEUE,
    registry: wildfireJobs,
    handlers: () => wildfireJobHandlers({ tokens, reports: reporting, storageSweep: { service: 'wildfire', files: reporting.files, clock, exclusive }, aemet: { observations: data.aemetObservations, forecast: data.aemetForecast }, alerts: alertFeatures.delivery }),
    concurrency: config.workerConcurrency,
    stalledAfterMs: config.jobStalledMs,
    schedules: () => wildfireSchedules(config, reporting.files),
  });
  const { reports, reportSchedules } = reporting;
  // The runtime answers the data services (the CLI and tests use them), not the synthetic model they share.
  const { synthetic: _shared, ...dataServices } = data;
  const features: WildfireFeatures = { ...dataServices, config, logger, jobs, tokens, tokenAdmin, reports, reportSchedules, limits, clock, alerts: alertFeatures.alerts };
  // The HTTP app's modules (routers, schemas, the OpenAPI document) only in the roles that serve it.
  const createWildfireApp = life.serves ? (await import('./app')).createWildfireApp : undefined;
  return {
    runtime: features,
    app: () =>
      createWildfireApp!({
        config,
        logger,
        metrics: metrics!,
        version: life.version,
        database,
        redis,
        tokens,
        tokenAdmin,
        readings: data.readings,
        ecosystem: data.ecosystem,
        decisionSupport: data.decisionSupport,
        forecast: data.forecast,
        decisions: data.decisions,
        framing: data.framing,
        territory: data.territory,
        alerts: alertFeatures.alerts,
        reports,
        limits,
        jobs: jobs.queue,
        signing: { selfSigned: identity!.selfSigned, tsa: Boolean(config.signing.tsaUrl) },
        observed: config.aemet.apiKey ? { newestDay: data.newestObservedDay, today: () => todayInSpain(clock()), staleDays: config.aemet.staleDays } : undefined,
        clock,
      }),
    demoCredential: config.demoToken ? () => tokens.createDemoTokenIfEmpty() : undefined,
  };
}

/** The report sealer of the roles that seal, with its TSA and revocation clients. */
async function sealerOf(identity: SigningIdentity, config: WildfireConfig, clock: () => Date) {
  const [{ createTsaClient }, { createReportSealer, reportRevocationClient }] = await Promise.all([pdfCore(), import('./reports/seal-report')]);
  return createReportSealer({
    identity,
    tsa: config.signing.tsaUrl ? createTsaClient({ url: config.signing.tsaUrl }) : undefined,
    level: config.signing.padesLevel,
    revocation: reportRevocationClient(config, identity),
    clock,
  });
}
