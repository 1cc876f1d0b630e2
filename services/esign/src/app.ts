import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { createRateLimiter } from '@firma-riesgo/auth';
import { esignEnvelope } from '@firma-riesgo/errors';
import { createHttpApp, docsRouter, generateOpenApiDocument, type JobQueue, type Logger, type Metrics } from '@firma-riesgo/service-kit';
import type { EsignJobs } from './jobs/registry';
import type { EsignConfig } from './config';
import { healthRouter } from './health/router';
import { certificateSha256 } from './signatures/seal-identity';
import type { KeysService } from './keys/service';
import { createEsignRegistry, ESIGN_API_DESCRIPTION, ESIGN_INTERFACE_VERSION, esignCommonResponses, esignServers } from './openapi';
import type { ToolsContext } from './tools/context';
import { authenticate } from './keys/authenticate';
import { documentsRouter } from './documents/router';
import type { SigningFeatures } from './features';
import { signeeRouter } from './signee/router';
import { signingRequestsRouter } from './signing-requests/router';
import { toolsRouter } from './tools/router';
import { verificationRouter } from './verification/router';
import { pkiRouter } from './pki/router';
import { webhooksRouter } from './webhooks/router';
import { contractsRouter } from './contracts/router';
import { brandingRouter } from './branding/router';
import { tenantSettingsRouter } from './tenant-settings/router';
import { adminRouter } from './admin/router';
import { adminKeysRouter } from './keys/admin-router';
import { keysRouter } from './keys/router';
import { dashboardRouter } from './admin/dashboard-routes';
import { createSessions } from './admin/session';
import { tenantRateLimit } from './keys/tenant-rate-limit';

export interface EsignAppDeps {
  config: EsignConfig;
  logger: Logger;
  metrics: Metrics;
  version: string;
  database: { kind: 'postgres' | 'pglite'; ping(): Promise<boolean> };
  redis?: Redis;
  keys: KeysService;
  /** The runtime's "now" (key listings say which keys are expired by it). */
  clock: () => Date;
  /** Feature routers enqueue their jobs here (after their transaction commits). */
  jobs: JobQueue<EsignJobs>;
  /** Engines and worker threads of the PDF tools. */
  tools: ToolsContext;
  /** Documents, signing requests, the signee flow and the seals. */
  signing: SigningFeatures;
}

/** Wires the HTTP surface: every feature router, the docs, and the error envelope. */
export function createEsignApp(deps: EsignAppDeps): Express {
  const registry = createEsignRegistry();
  const http = createHttpApp({
    logger: deps.logger,
    metrics: deps.metrics,
    envelope: esignEnvelope,
    jsonLimit: deps.config.jsonLimit,
    trustedProxies: deps.config.trustedProxies,
    edge: deps.config.http,
  });
  http.app.use(
    healthRouter(registry, {
      version: deps.version,
      database: deps.database,
      redis: deps.redis,
      signing: {
        selfSigned: !deps.config.signing.p12Path,
        tsa: Boolean(deps.config.signing.tsaUrl),
        certificateSha256: certificateSha256(deps.signing.identity),
      },
    }),
  );
  const auth = authenticate({ keys: deps.keys, jobs: deps.jobs, logger: deps.logger });
  /** ESIGN_TOOLS_RATE_LIMIT calls a minute per client, on a counter of its own for each public endpoint family. */
  const perClientLimiter = (name: string) =>
    createRateLimiter({ points: deps.config.toolsRateLimit, durationSeconds: 60, keyPrefix: `${deps.config.rateLimitPrefix}:${name}`, redis: deps.redis });
  /** Per-tenant budgets (ESIGN_*_RATE_LIMIT), each on a counter of its own. */
  const perTenant = (name: string, points: number, what: string, durationSeconds = 60) =>
    tenantRateLimit(createRateLimiter({ points, durationSeconds, keyPrefix: `${deps.config.rateLimitPrefix}:tenant-${name}`, redis: deps.redis }), what);
  const limits = deps.config.tenantLimits;
  const { signing } = deps;
  http.app.use(
    documentsRouter(registry, {
      documents: signing.documents,
      authenticate: auth,
      maxUploadBytes: deps.config.maxUploadBytes,
      uploadLimit: perTenant('uploads', limits.uploadsPerMinute, 'uploads'),
    }),
  );
  http.app.use(
    signingRequestsRouter(registry, {
      requests: signing.requests,
      authenticate: auth,
      createLimits: [perTenant('requests', limits.requestsPerMinute, 'signing requests'), perTenant('requests-day', limits.requestsPerDay, 'signing requests', 86_400)],
    }),
  );
  http.app.use(signeeRouter(registry, { signee: signing.signee }));
  http.app.use(pkiRouter(registry, { pki: signing.pki, ocspLimiter: perClientLimiter('pki-ocsp') }));
  http.app.use(
    verificationRouter(registry, {
      verification: signing.verification,
      maxUploadBytes: deps.config.maxUploadBytes,
      // The tools' budget and mechanism, counted apart: checking a file does not use up a client's tool calls.
      limiter: perClientLimiter('verify'),
    }),
  );
  http.app.use(
    contractsRouter(registry, {
      contracts: signing.contracts,
      authenticate: auth,
      // The tools' budget and mechanism, counted apart.
      limiter: perClientLimiter('contracts'),
    }),
  );
  http.app.use(webhooksRouter(registry, { webhooks: signing.webhooks, authenticate: auth, outboundLimit: perTenant('webhooks', limits.webhookCallsPerMinute, 'webhook creations, changes and tests') }));
  http.app.use(keysRouter(registry, { keys: deps.keys, authenticate: auth, clock: deps.clock }));
  http.app.use(brandingRouter(registry, { branding: signing.branding, authenticate: auth }));
  http.app.use(tenantSettingsRouter(registry, { settings: signing.settings, authenticate: auth }));
  const authenticateSuperadmin = authenticate({ keys: deps.keys, jobs: deps.jobs, logger: deps.logger }, { superadmin: true });
  http.app.use(adminRouter(registry, { admin: signing.admin, metering: signing.metering, authenticateSuperadmin }));
  http.app.use(adminKeysRouter(registry, { keys: deps.keys, authenticateSuperadmin, clock: deps.clock }));
  http.app.use(dashboardRouter(registry, { admin: signing.admin, keys: deps.keys, sessions: createSessions(deps.config.sessionSecret), publicUrl: deps.config.publicUrl, authenticateSuperadmin }));
  const toolsLimiter = perClientLimiter('tools');
  http.app.use(
    toolsRouter(registry, {
      auth: { keys: deps.keys, jobs: deps.jobs, logger: deps.logger },
      engines: deps.tools,
      maxUploadBytes: deps.config.maxUploadBytes,
      outputBudgetBytes: deps.config.toolOutputBytes,
      limiter: toolsLimiter,
      countCall: signing.countToolCall,
    }),
  );
  http.app.use(
    docsRouter(
      () =>
        generateOpenApiDocument(registry, {
          title: 'esign',
          version: ESIGN_INTERFACE_VERSION,
          packageVersion: deps.version,
          description: ESIGN_API_DESCRIPTION,
          servers: esignServers(deps.config.publicUrlSet),
          commonResponses: esignCommonResponses,
        }),
      'esign',
    ),
  );
  return http.finish();
}
