import { join } from 'node:path';
import { createTsaClient, createWorkerPool, type SigningIdentity } from '@firma-riesgo/pdf-core';
import { createLogger, createMetrics, runIfUnlocked, startService, type JobsRuntime, type Logger, type ProcessRole, type ServiceLifecycle, type ServiceRuntime, type StartedService } from '@firma-riesgo/service-kit';
import { createWildfireApp } from './app';
import { createDecisionSupportService, type DecisionSupportService } from './decision-support/service';
import { createIngestDecisions, type DecisionIngestSummary } from './decisions/ingest-decisions';
import { AUTOMATIC_MIN_FWI, createRebuildAutomaticDecisions, createUpdateAutomaticDecisions } from './decisions/automatic-decisions';
import { createDecisionsRepository } from './decisions/repository';
import { createDecisionsService, type DecisionsService } from './decisions/service';
import { createFramingService, type FramingService } from './framing/service';
import { createIngestEcosystem, type EcosystemIngestSummary } from './ecosystem/ingest-ecosystem';
import { createEcosystemRepository } from './ecosystem/repository';
import { createEcosystemService, type EcosystemService } from './ecosystem/service';
import type { WildfireConfig } from './config';
import { MIGRATIONS_FOLDER, schema } from './db';
import { WILDFIRE_QUEUE, wildfireJobHandlers, wildfireJobs, wildfireSchedules, type WildfireJobs } from './jobs/registry';
import { createIngestMunicipalities, type MunicipalityIngestSummary } from './municipalities/ingest-municipalities';
import { createMunicipalitiesRepository } from './municipalities/repository';
import { createMunicipalitiesService, type MunicipalitiesService } from './municipalities/service';
import { todayInSpain } from './calendar';
import { createIngestWeather, type WeatherIngestSummary } from './readings/ingest-weather';
import { createReadingsRepository } from './readings/repository';
import { createReadingsService, type ReadingsService } from './readings/service';
import { createGenerateReport } from './reports/generate-report';
import { createPurgeExpiredFiles } from './reports/purge-expired-files';
import { createServiceFileStore } from './storage/file-store';
import { createReportSchedules, type ReportSchedules } from './reports/report-schedules';
import { createReportsRepository } from './reports/repository';
import { createRunScheduledReports } from './reports/run-scheduled-reports';
import { createReportsService, type ReportsService } from './reports/service';
import { loadReportSealIdentity } from './reports/seal-identity';
import { createReportSealer } from './reports/seal-report';
import { createIngestSeasons, type SeasonIngestSummary } from './seasons/ingest-seasons';
import { createSeasonsRepository } from './seasons/repository';
import { createSeasonsService, type SeasonsService } from './seasons/service';
import { createSyntheticData } from './synthetic/synthetic-data';
import { createTokensRepository } from './tokens/repository';
import { createTokensService, type TokensService } from './tokens/service';
import { createRedisUsageCounter } from './rate-limits/redis-usage-counter';
import { createUsageRepository } from './rate-limits/repository';
import { createRateLimits, type RateLimits } from './rate-limits/service';
import { createMemoryUsageCounter } from './rate-limits/usage-counter';
import { createTokenCache } from './tokens/token-cache';
import { followTokenChanges, tokenChangePublisher } from './tokens/token-changes';

/** The CLI generates no report: a report job reaching it would be a wiring mistake, so it fails loudly. */
const noSealer = {
  seal(): Promise<Buffer> {
    return Promise.reject(new Error('this process has no sealing identity (the CLI role generates no report)'));
  },
};

export type WildfireRole = ProcessRole;

export interface WildfireRuntime extends ServiceRuntime<typeof schema, WildfireConfig, WildfireJobs> {
  tokens: TokensService;
  municipalities: MunicipalitiesService;
  readings: ReadingsService;
  ecosystem: EcosystemService;
  decisionSupport: DecisionSupportService;
  decisions: DecisionsService;
  seasons: SeasonsService;
  framing: FramingService;
  reports: ReportsService;
  /** `wildfire reports schedule|schedules|unschedule`: the accounts' monthly report schedules. */
  reportSchedules: ReportSchedules;
  /** Per-token rate limits (in Redis when REDIS_URL is set, else in this process) and monthly usage. */
  limits: RateLimits;
  /** `wildfire ingest ...`: each validates the whole file and loads all of it or nothing. */
  ingest: {
    weather(path: string): Promise<WeatherIngestSummary>;
    municipalities(path: string): Promise<MunicipalityIngestSummary>;
    ecosystem(path: string): Promise<EcosystemIngestSummary>;
    decisions(path: string): Promise<DecisionIngestSummary>;
    seasons(path: string): Promise<SeasonIngestSummary>;
  };
  /** `wildfire decisions rebuild-automatic`: the automatic decisions of every stored reading, derived again. */
  rebuildAutomaticDecisions(): Promise<{ municipalities: number; created: number; updated: number; removed: number }>;
  /** What "now" is: decides "today" and "the future" for the date rules, and token expiry. */
  clock: () => Date;
  /** Plaintext demo token, only on an embedded first start. */
  demoToken?: string | null;
}

export interface StartOptions {
  logger?: Logger;
  /** Tests pin the date; everything else takes the system clock. */
  clock?: () => Date;
  /** Municipality-years of synthetic data kept in memory. */
  syntheticCacheSize?: number;
  /**
   * Tests: `onRenderSlot` runs in a report job once it holds its account's render slot, before
   * any work; `busyRetryMs` is how soon a job whose account has none free tries again.
   */
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
  const tokens = createTokensService(createTokensRepository(database.db), clock, { cache, announce, logger });
  const municipalitiesRepo = createMunicipalitiesRepository(database);
  const municipalities = createMunicipalitiesService(municipalitiesRepo);
  const seasonsRepo = createSeasonsRepository(database);
  const seasons = createSeasonsService({ repo: seasonsRepo, clock });
  const seeded = await municipalities.seedRegistryIfNeeded();
  if (seeded > 0) logger.info({ municipalities: seeded }, 'loaded the built-in municipality registry');
  const seasonRows = await seasons.seedIfNeeded();
  if (seasonRows > 0) logger.info({ communities: seasonRows }, 'loaded the built-in épocas de peligro table');
  const readingsRepo = createReadingsRepository(database);
  const ecosystemRepo = createEcosystemRepository(database);
  const decisionsRepo = createDecisionsRepository(database);
  const updateAutomaticDecisions = createUpdateAutomaticDecisions({ repo: decisionsRepo, clock });
  const ingest = {
    weather: createIngestWeather({
      repo: readingsRepo,
      municipalities,
      today: () => todayInSpain(clock()),
      highFwi: AUTOMATIC_MIN_FWI,
      afterReadings: async (tx, touched, highRuns) => {
        const counts = await updateAutomaticDecisions(tx, touched, highRuns);
        if (counts.created + counts.updated + counts.removed > 0) logger.info(counts, 'updated the automatic decisions of the ingested municipalities');
      },
    }),
    municipalities: createIngestMunicipalities({ repo: municipalitiesRepo }),
    ecosystem: createIngestEcosystem({ repo: ecosystemRepo, municipalities }),
    decisions: createIngestDecisions({ repo: decisionsRepo, municipalities, clock }),
    seasons: createIngestSeasons({ repo: seasonsRepo, clock }),
  };
  // One synthetic model for every feature, so its cache serves m1 and the fuel moisture index alike.
  const synthetic = createSyntheticData({ cacheSize: options.syntheticCacheSize });
  const readings = createReadingsService({ repo: readingsRepo, municipalities, synthetic, clock });
  const ecosystem = createEcosystemService({ repo: ecosystemRepo, municipalities, readings, synthetic, clock });
  const decisionSupport = createDecisionSupportService({ readings, municipalities, seasons, ecosystem, synthetic, clock });
  const decisions = createDecisionsService({ repo: decisionsRepo, municipalities, readings, synthetic, clock });
  const framing = createFramingService({ decisionSupport });

  // Report files: under DATA_DIR/wildfire/files (API and worker processes must share that folder), in the database, or in S3 (WILDFIRE_STORAGE).
  const files = createServiceFileStore(config, database);
  const reportsRepo = createReportsRepository(database.db);
  // Loaded at start-up (not by the CLI, which seals nothing), so a bad WILDFIRE_SIGNING_P12_PATH or password stops the process at once.
  const identity: SigningIdentity | undefined = life.role === 'cli' ? undefined : await loadReportSealIdentity(config);
  const sealer = identity && createReportSealer({ identity, tsa: config.signing.tsaUrl ? createTsaClient({ url: config.signing.tsaUrl }) : undefined, clock });
  // Threads start on the first PDF, so a process that renders none never loads the layout engine.
  const pdfPool = await life.open('pdf workers', () => createWorkerPool({ size: config.reports.pdfWorkers }), (pool) => pool.close());
  const generateReport = createGenerateReport({
    repo: reportsRepo,
    municipalities,
    readings,
    synthetic,
    decisions,
    ecosystem,
    pool: pdfPool,
    sealer: sealer ?? noSealer,
    files,
    clock,
    accountConcurrency: config.reports.accountConcurrency,
    ...options.reportRendering,
  });

  const usageRepo = createUsageRepository(database.db);
  const usageOptions = { repo: usageRepo, flushMs: config.rateLimits.usageFlushMs, clock, logger };
  const limits = createRateLimits({
    perMinute: config.rateLimits.perMinute,
    keyPrefix: config.rateLimits.prefix,
    redis,
    usage: redis ? createRedisUsageCounter({ ...usageOptions, redis, keyPrefix: config.rateLimits.prefix }) : createMemoryUsageCounter(usageOptions),
    clock,
  });
  // The requests served since the last flush reach account_usage before the process stops.
  life.defer('usage counters', () => limits.close().catch((err: unknown) => logger.warn({ err }, 'could not flush the usage counters at shutdown')));

  // Periodic tasks take a Postgres advisory lock, so that one instance runs each at a time.
  const exclusive = <T>(name: string, work: () => Promise<T>) => runIfUnlocked(database, name, work);
  const purgeExpiredFiles = createPurgeExpiredFiles({ repo: reportsRepo, files, clock, exclusive, testRetentionDays: config.reports.testRetentionDays });
  // Late-bound: the schedule creates reports through the reports service, which needs the queue.
  let reportsService: ReportsService | undefined;
  const runScheduledReports = createRunScheduledReports({
    repo: reportsRepo,
    tokens,
    reports: { createScheduled: (schedule, periodo) => reportsService!.createScheduled(schedule, periodo) },
    clock,
    exclusive,
  });

  const jobs: JobsRuntime<WildfireJobs> = life.queue({
    queueName: WILDFIRE_QUEUE,
    registry: wildfireJobs,
    handlers: () =>
      wildfireJobHandlers({
        tokens,
        reports: { generateReport, purgeExpiredFiles, runScheduledReports },
        storageSweep: { service: 'wildfire', files, clock, exclusive },
      }),
    concurrency: config.workerConcurrency,
    stalledAfterMs: config.jobStalledMs,
    schedules: () => wildfireSchedules(config, files),
  });
  const reports = createReportsService({
    repo: reportsRepo,
    municipalities,
    readings,
    jobs: jobs.queue,
    files,
    clock,
    waitMs: config.reports.waitMs,
    testRetentionDays: config.reports.testRetentionDays,
    logger,
  });
  reportsService = reports;
  const reportSchedules = createReportSchedules({ repo: reportsRepo, tokens, municipalities, clock });
  const features: WildfireFeatures = {
    config,
    logger,
    jobs,
    tokens,
    municipalities,
    readings,
    ecosystem,
    decisionSupport,
    decisions,
    seasons,
    framing,
    reports,
    reportSchedules,
    limits,
    ingest,
    rebuildAutomaticDecisions: createRebuildAutomaticDecisions({ repo: decisionsRepo, clock }),
    clock,
  };
  return {
    runtime: features,
    app: () =>
      createWildfireApp({
        config,
        logger,
        metrics: createMetrics('wildfire'),
        version: life.version,
        database,
        redis,
        tokens,
        readings,
        ecosystem,
        decisionSupport,
        decisions,
        framing,
        reports,
        limits,
        jobs: jobs.queue,
        signing: { selfSigned: identity!.selfSigned, tsa: Boolean(config.signing.tsaUrl) },
        clock,
      }),
    demoCredential: config.demoToken ? () => tokens.createDemoTokenIfEmpty() : undefined,
  };
}
