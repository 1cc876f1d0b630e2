import type { PdfWorkerPool } from '@firma-riesgo/pdf-core';
import type { Database, LockedRun, Logger } from '@firma-riesgo/service-kit';
import { todayInSpain } from './calendar';
import type { WildfireConfig } from './config';
import type { schema } from './db';
import { createDecisionSupportService, type DecisionSupportService } from './decision-support/service';
import { AUTOMATIC_MIN_FWI, createRebuildAutomaticDecisions, createUpdateAutomaticDecisions } from './decisions/automatic-decisions';
import { createIngestDecisions, type DecisionIngestSummary } from './decisions/ingest-decisions';
import { createDecisionsRepository } from './decisions/repository';
import { createDecisionsService, type DecisionsService } from './decisions/service';
import { createIngestEcosystem, type EcosystemIngestSummary } from './ecosystem/ingest-ecosystem';
import { createEcosystemRepository } from './ecosystem/repository';
import { createEcosystemService, type EcosystemService } from './ecosystem/service';
import { createFramingService, type FramingService } from './framing/service';
import { createIngestMunicipalities, type MunicipalityIngestSummary } from './municipalities/ingest-municipalities';
import { createMunicipalitiesRepository } from './municipalities/repository';
import { createMunicipalitiesService, type MunicipalitiesService } from './municipalities/service';
import { createAemetClient } from './aemet/client';
import { createAemetForecast, type AemetForecast } from './aemet/ingest-forecast';
import { replaceForecastDecisions } from './decisions/forecast-decisions';
import { createAemetObservations, type AemetObservations } from './aemet/ingest-observations';
import { createForecastRepository } from './forecast/repository';
import { createForecastService, type ForecastService } from './forecast/service';
import { createAemetRepository } from './aemet/repository';
import { createIngestWeather, createIngestWeatherColumns, type IngestWeatherDeps, type WeatherIngestSummary } from './readings/ingest-weather';
import type { WeatherFileRead } from './readings/weather-file';
import { createReadingsRepository } from './readings/repository';
import { createReadingsService, type ReadingsService } from './readings/service';
import { READINGS_CHANGED, type LatestReadingCache, type ReadingsChange } from './readings/latest-cache';
import { credentialChangeNotifier } from '@firma-riesgo/auth';
import { createGenerateReport, type GenerateReportDeps } from './reports/generate-report';
import type { ReportGenerationQueue } from './reports/jobs';
import { createPurgeExpiredFiles } from './reports/purge-expired-files';
import { createReportSchedules, type ReportSchedules } from './reports/report-schedules';
import { createReportsRepository } from './reports/repository';
import { createRunScheduledReports } from './reports/run-scheduled-reports';
import { createReportsService, type ReportsService } from './reports/service';
import { createIngestSeasons, type SeasonIngestSummary } from './seasons/ingest-seasons';
import { createSeasonsRepository } from './seasons/repository';
import { createSeasonsService, type SeasonsService } from './seasons/service';
import { createServiceFileStore } from './storage/file-store';
import { createSyntheticData, type SyntheticData } from './synthetic/synthetic-data';
import type { WinterRules } from './fwi/winter';
import { createTerritoryService, type TerritoryService } from './territory/service';
import { createAlertDelivery } from './alerts/delivery';
import type { AlertDeliveryQueue } from './alerts/jobs';
import { createRaiseAlerts, type RaiseAlerts } from './alerts/raise-alerts';
import { createAlertsRepository } from './alerts/repository';
import { createAlertsService } from './alerts/service';
import { tokenAccessOf } from './alerts/token-access';
import { createSecretBox } from '@firma-riesgo/webhooks';
import type { TokensService } from './tokens/service';

/** The data side of wildfire: municipalities, seasons, readings, the ecosystem, decisions and their framing. */
export interface DataFeatures {
  municipalities: MunicipalitiesService;
  seasons: SeasonsService;
  readings: ReadingsService;
  ecosystem: EcosystemService;
  decisionSupport: DecisionSupportService;
  decisions: DecisionsService;
  framing: FramingService;
  /** The whole-area reads: territory and summary. */
  territory: TerritoryService;
  /** One synthetic model for every feature, so its cache serves m1 and the fuel moisture index alike. */
  synthetic: SyntheticData;
  /** `wildfire ingest ...`: each validates the whole file and loads all of it or nothing. */
  ingest: {
    /** `reading`: the file already being read on a worker thread (the CLI: readings/weather-file.ts). */
    weather(path: string, reading?: Promise<WeatherFileRead>): Promise<WeatherIngestSummary>;
    municipalities(path: string): Promise<MunicipalityIngestSummary>;
    ecosystem(path: string): Promise<EcosystemIngestSummary>;
    decisions(path: string): Promise<DecisionIngestSummary>;
    seasons(path: string): Promise<SeasonIngestSummary>;
  };
  /** AEMET observed weather (`wildfire ingest aemet-observations`, the `aemet.observations` job); null without AEMET_API_KEY. */
  aemetObservations: AemetObservations | null;
  /** `wildfire ingest aemet-forecast`, the `aemet.forecast` job; null without AEMET_API_KEY. */
  aemetForecast: AemetForecast | null;
  /** `GET /api/v3/m1/forecast`. */
  forecast: ForecastService;
  /** The newest day ingested from AEMET observations, or null (for /health). */
  newestObservedDay(): Promise<string | null>;
  /** `wildfire decisions rebuild-automatic`: the automatic decisions of every stored reading, derived again. */
  rebuildAutomaticDecisions(): Promise<{ municipalities: number; created: number; updated: number; removed: number }>;
}

/**
 * The data features, each with the repositories and collaborators it uses and no others.
 * Loads the built-in municipality registry and épocas de peligro table when missing.
 */
export async function createDataFeatures(deps: {
  database: Database<typeof schema>;
  clock: () => Date;
  logger: Logger;
  syntheticCacheSize?: number;
  /** Each community's winter rule (fwi/winter.ts); default the built-in table. */
  winterRules?: WinterRules;
  /** AEMET OpenData (config.aemet); observed weather is polled only with an API key. */
  aemet?: Pick<WildfireConfig['aemet'], 'apiKey' | 'baseUrl' | 'requestsPerMinute'> & { onRemaining?: (remaining: number) => void; sleep?: (ms: number) => Promise<void> };
  /** Runs a periodic task unless another instance runs it (a Postgres advisory lock). */
  exclusive?: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
  /** The alerts' triggering, late-bound (it needs the data services): after observed days commit, and after each municipality of a forecast import. */
  alerts?: Pick<RaiseAlerts, 'observed' | 'forecast'>;
  /** The latest-reading cache of this instance (API with Redis) and the announcer of reading changes to every instance. */
  latestReadings?: { cache?: LatestReadingCache; announce?: (change: ReadingsChange) => Promise<void> };
}): Promise<DataFeatures> {
  const { database, clock, logger } = deps;
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
  const synthetic = createSyntheticData({ cacheSize: deps.syntheticCacheSize, winterRules: deps.winterRules });
  const aemetRepo = createAemetRepository(database);
  const readings = createReadingsService({ repo: readingsRepo, municipalities, synthetic, clock, provenance: aemetRepo.provenance, latestCache: deps.latestReadings?.cache });
  // Once an ingestion commits: this instance's cache drops its readings at once, then every other instance is told.
  const readingsChanged = credentialChangeNotifier({ ...deps.latestReadings, logger }, 'a readings change');
  const ecosystem = createEcosystemService({ repo: ecosystemRepo, municipalities, readings, synthetic, clock });
  const forecastRepo = createForecastRepository(database);
  const forecast = createForecastService({ repo: forecastRepo, municipalities, synthetic, clock });
  const decisionSupport = createDecisionSupportService({ readings, municipalities, seasons, ecosystem, synthetic, clock, forecastDays: forecast.daysAfter });
  const decisions = createDecisionsService({ repo: decisionsRepo, municipalities, readings, synthetic, clock, forecastDays: forecast.daysAfter });
  const weatherDeps: IngestWeatherDeps = {
    repo: readingsRepo,
    municipalities,
    today: () => todayInSpain(clock()),
    highFwi: AUTOMATIC_MIN_FWI,
    winterRules: deps.winterRules,
    now: clock,
    afterCommit: async (loaded) => {
      await readingsChanged(READINGS_CHANGED);
      if (deps.alerts) await deps.alerts.observed(loaded);
    },
    afterReadings: async (tx, touched, highRuns) => {
      const counts = await updateAutomaticDecisions(tx, touched, highRuns);
      if (counts.created + counts.updated + counts.removed > 0) logger.info(counts, 'updated the automatic decisions of the ingested municipalities');
    },
  };
  const ingestMunicipalities = createIngestMunicipalities({ repo: municipalitiesRepo });
  const { aemet } = deps;
  const aemetClient = aemet?.apiKey ? createAemetClient({ apiKey: aemet.apiKey, baseUrl: aemet.baseUrl, logger, onRemaining: aemet.onRemaining, sleep: aemet.sleep }) : null;
  const aemetForecast =
    aemetClient && deps.exclusive
      ? createAemetForecast({
          client: aemetClient,
          repo: forecastRepo,
          readings,
          municipalities,
          exclusive: deps.exclusive,
          clock,
          logger,
          sleep: aemet!.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
          requestsPerMinute: aemet!.requestsPerMinute,
          afterWrite: deps.alerts && ((code, rows) => deps.alerts!.forecast(code, rows)),
          forecastDecisions: async (tx, municipioId, days) => {
            const counts = await replaceForecastDecisions(tx, municipioId, days, clock());
            if (counts.created + counts.updated + counts.removed > 0) logger.info({ municipio_id: municipioId, ...counts }, 'updated the automatic decisions of the forecast days');
          },
        })
      : null;
  const aemetObservations =
    aemetClient && deps.exclusive
      ? createAemetObservations({
          client: aemetClient,
          repo: aemetRepo,
          municipalities,
          ingestColumns: createIngestWeatherColumns(weatherDeps),
          exclusive: deps.exclusive,
          clock,
          logger,
        })
      : null;
  return {
    municipalities,
    seasons,
    readings,
    ecosystem,
    decisionSupport,
    decisions,
    framing: createFramingService({ decisionSupport, forecastDays: forecast.daysAheadOfToday }),
    territory: createTerritoryService({ readings, municipalities, seasons, synthetic, clock }),
    synthetic,
    ingest: {
      weather: createIngestWeather(weatherDeps),
      // Names, codes and coordinates are part of the kept territory rows: a registry change drops them as an ingestion of readings does.
      municipalities: async (path) => {
        const summary = await ingestMunicipalities(path);
        await readingsChanged(READINGS_CHANGED);
        return summary;
      },
      ecosystem: createIngestEcosystem({ repo: ecosystemRepo, municipalities }),
      decisions: createIngestDecisions({ repo: decisionsRepo, municipalities, clock }),
      seasons: createIngestSeasons({ repo: seasonsRepo, clock }),
    },
    aemetObservations,
    aemetForecast,
    forecast,
    newestObservedDay: () => aemetRepo.newestObservedDay(),
    rebuildAutomaticDecisions: createRebuildAutomaticDecisions({ repo: decisionsRepo, clock }),
  };
}

/** The reports: the service, the monthly schedules, and the use cases their jobs run. */
export function createReportFeatures(deps: {
  config: WildfireConfig;
  database: Database<typeof schema>;
  data: DataFeatures;
  tokens: TokensService;
  pool: Pick<PdfWorkerPool, 'run'>;
  sealer: GenerateReportDeps['sealer'];
  /** Late-bound: the job handlers need the reports, and the reports enqueue jobs. */
  jobs: ReportGenerationQueue;
  /** Runs a periodic task unless another instance runs it (a Postgres advisory lock). */
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
  clock: () => Date;
  logger: Logger;
  rendering?: Pick<GenerateReportDeps, 'onRenderSlot' | 'busyRetryMs'>;
}) {
  const { config, data, clock, exclusive } = deps;
  // Report files: under DATA_DIR/wildfire/files (API and worker processes must share that folder), in the database, or in S3 (WILDFIRE_STORAGE).
  const files = createServiceFileStore(config, deps.database);
  const repo = createReportsRepository(deps.database.db);
  const reports: ReportsService = createReportsService({
    repo,
    municipalities: data.municipalities,
    readings: data.readings,
    jobs: deps.jobs,
    files,
    clock,
    waitMs: config.reports.waitMs,
    testRetentionDays: config.reports.testRetentionDays,
    logger: deps.logger,
  });
  const reportSchedules: ReportSchedules = createReportSchedules({ repo, tokens: deps.tokens, municipalities: data.municipalities, clock });
  return {
    files,
    reports,
    reportSchedules,
    generateReport: createGenerateReport({
      repo,
      municipalities: data.municipalities,
      readings: data.readings,
      synthetic: data.synthetic,
      decisions: data.decisions,
      ecosystem: data.ecosystem,
      pool: deps.pool,
      sealer: deps.sealer,
      territory: data.territory,
      files,
      clock,
      accountConcurrency: config.reports.accountConcurrency,
      ...deps.rendering,
    }),
    purgeExpiredFiles: createPurgeExpiredFiles({ repo, files, clock, exclusive, testRetentionDays: config.reports.testRetentionDays }),
    runScheduledReports: createRunScheduledReports({ repo, tokens: deps.tokens, reports, clock, exclusive }),
  };
}

/**
 * The alerts: subscriptions, the triggering the ingestions call (passed to
 * `createDataFeatures` late-bound), and the webhook delivery on the shared core.
 */
export function createAlertFeatures(deps: {
  config: Pick<WildfireConfig, 'alerts' | 'publicUrl'>;
  database: Database<typeof schema>;
  data: Pick<DataFeatures, 'municipalities' | 'readings' | 'seasons'>;
  /** What each subscribing token may read now (currentAccess): alerts and the CAP feed follow it. */
  tokens: Pick<TokensService, 'currentAccess'>;
  /** Late-bound: the job handlers need the delivery, and the delivery enqueues jobs. */
  jobs: AlertDeliveryQueue;
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
  version: string;
  clock: () => Date;
  logger: Logger;
  /** The keys the webhook secrets are sealed under: the configured WILDFIRE_WEBHOOK_SECRET_KEY first, if any, then the one kept under DATA_DIR. */
  webhookKeys: readonly Buffer[];
}) {
  const { config, data, clock } = deps;
  const repo = createAlertsRepository(deps.database.db);
  const webhooks = config.alerts.webhooks;
  const secrets = createSecretBox(deps.webhookKeys, 'WILDFIRE_WEBHOOK_SECRET_KEY');
  const logger = deps.logger.child({ component: 'alerts' });
  const tokenAccess = tokenAccessOf(deps.tokens);
  const delivery = createAlertDelivery({
    repo,
    queue: deps.jobs,
    secrets,
    policy: webhooks.policy,
    retrySchedule: webhooks.retrySchedule,
    timeoutMs: webhooks.timeoutMs,
    userAgent: `firma-riesgo-wildfire-alerts/${deps.version}`,
    exclusive: deps.exclusive,
    clock,
    logger,
  });
  return {
    alerts: createAlertsService({ repo, municipalities: data.municipalities, secrets, policy: webhooks.policy, tokenAccess, maxSubscriptions: config.alerts.maxSubscriptions, clock }),
    raise: createRaiseAlerts({ repo, readings: data.readings, municipalities: data.municipalities, seasons: data.seasons, tokenAccess, enqueueDeliveries: delivery.enqueue, publicUrl: config.publicUrl, clock, logger }),
    delivery,
    repo,
  };
}

export type AlertFeatures = ReturnType<typeof createAlertFeatures>;
