import type { Express } from 'express';
import { alertsRouter } from './alerts/router';
import type { AlertsService } from './alerts/service';
import type { Redis } from 'ioredis';
import { wildfireEnvelope } from '@firma-riesgo/errors';
import { createHttpApp, docsRouter, generateOpenApiDocument, type JobQueue, type Logger, type Metrics } from '@firma-riesgo/service-kit';
import type { WildfireConfig } from './config';
import { decisionSupportRouter } from './decision-support/router';
import type { DecisionSupportService } from './decision-support/service';
import { decisionsRouter } from './decisions/router';
import type { DecisionsService } from './decisions/service';
import { framingRouter } from './framing/router';
import type { FramingService } from './framing/service';
import { deprecationHeaders, markDeprecatedOperations } from './deprecation/headers';
import { ecosystemRouter } from './ecosystem/router';
import type { EcosystemService } from './ecosystem/service';
import { forecastRouter } from './forecast/router';
import type { ForecastService } from './forecast/service';
import { healthRouter, type HealthDeps } from './health/router';
import type { WildfireJobs } from './jobs/registry';
import { createWildfireRegistry, WILDFIRE_API_DESCRIPTION, WILDFIRE_INTERFACE_VERSION, wildfireCommonResponses, wildfireServers } from './openapi';
import type { RateLimits } from './rate-limits/service';
import { readingsRouter } from './readings/router';
import { reportsRouter } from './reports/router';
import type { ReportsService } from './reports/service';
import type { ReadingsService } from './readings/service';
import { territoryRouter } from './territory/router';
import type { TerritoryService } from './territory/service';
import { tokensRouter } from './tokens/router';
import { adminTokensRouter } from './tokens/admin-router';
import type { TokenAdministration } from './tokens/administration';
import type { TokensService } from './tokens/service';

export interface WildfireAppDeps {
  config: Pick<WildfireConfig, 'jsonLimit' | 'trustedProxies' | 'http' | 'deprecatedPrefixes' | 'publicUrl' | 'ingestionCron'>;
  logger: Logger;
  metrics: Metrics;
  version: string;
  database: { kind: 'postgres' | 'pglite'; ping(): Promise<boolean> };
  redis?: Redis;
  tokens: TokensService;
  /** The operator API's token operations (logged). */
  tokenAdmin: TokenAdministration;
  readings: ReadingsService;
  ecosystem: EcosystemService;
  decisionSupport: DecisionSupportService;
  forecast: ForecastService;
  decisions: DecisionsService;
  framing: FramingService;
  territory: TerritoryService;
  alerts: AlertsService;
  reports: ReportsService;
  limits: RateLimits;
  jobs: JobQueue<WildfireJobs>;
  /** How report PDFs are sealed, for /health. */
  signing: { selfSigned: boolean; tsa: boolean };
  /** The AEMET observed-weather feed, for /health; absent without AEMET_API_KEY. */
  observed?: HealthDeps['observed'];
  clock?: () => Date;
}

/** Wires the HTTP surface: every feature router, the docs, and the error envelope. */
export function createWildfireApp(deps: WildfireAppDeps): Express {
  const registry = createWildfireRegistry();
  const http = createHttpApp({
    logger: deps.logger,
    metrics: deps.metrics,
    envelope: wildfireEnvelope,
    jsonLimit: deps.config.jsonLimit,
    trustedProxies: deps.config.trustedProxies,
    edge: deps.config.http,
  });
  const auth = { tokens: deps.tokens, jobs: deps.jobs, logger: deps.logger, clock: deps.clock, limits: deps.limits };
  http.app.use(deprecationHeaders(deps.config.deprecatedPrefixes, deps.clock));
  http.app.use(healthRouter(registry, { version: deps.version, database: deps.database, redis: deps.redis, signing: deps.signing, observed: deps.observed }));
  http.app.use(tokensRouter(registry, auth));
  http.app.use(adminTokensRouter(registry, auth, deps.tokenAdmin));
  // Before m1's router: /api/v3/m1/territorio is its own route, not an m1 request.
  http.app.use(territoryRouter(registry, auth, deps.territory, { ingestionCron: deps.config.ingestionCron, clock: deps.clock ?? (() => new Date()) }));
  http.app.use(forecastRouter(registry, auth, deps.forecast));
  http.app.use(readingsRouter(registry, auth, deps.readings));
  http.app.use(ecosystemRouter(registry, auth, deps.ecosystem));
  http.app.use(decisionSupportRouter(registry, auth, deps.decisionSupport));
  http.app.use(decisionsRouter(registry, auth, deps.decisions));
  http.app.use(framingRouter(registry, auth, deps.framing));
  http.app.use(reportsRouter(registry, auth, deps.reports));
  http.app.use(alertsRouter(registry, auth, deps.alerts, { publicUrl: deps.config.publicUrl }));
  http.app.use(
    docsRouter(
      () =>
        markDeprecatedOperations(
          generateOpenApiDocument(registry, {
            title: 'wildfire',
            version: WILDFIRE_INTERFACE_VERSION,
            packageVersion: deps.version,
            description: WILDFIRE_API_DESCRIPTION,
            servers: wildfireServers(deps.config.publicUrl),
            commonResponses: wildfireCommonResponses,
          }),
          deps.config.deprecatedPrefixes,
        ),
      'wildfire',
    ),
  );
  return http.finish();
}
