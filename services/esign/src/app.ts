import type { Express } from 'express';
import type { Redis } from 'ioredis';
import { esignEnvelope } from '@platform/errors';
import { createHttpApp, docsRouter, generateOpenApiDocument, type JobQueue, type Logger, type Metrics } from '@platform/service-kit';
import type { EsignJobs } from './jobs/registry';
import type { EsignConfig } from './config';
import { healthRouter } from './health/router';
import type { KeysService } from './keys/service';
import { createEsignRegistry, ESIGN_API_DESCRIPTION } from './openapi';

export interface EsignAppDeps {
  config: EsignConfig;
  logger: Logger;
  metrics: Metrics;
  version: string;
  database: { kind: 'postgres' | 'pglite'; ping(): Promise<boolean> };
  redis?: Redis;
  keys: KeysService;
  /** Feature routers enqueue their jobs here (after their transaction commits). */
  jobs: JobQueue<EsignJobs>;
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
  });
  http.app.use(
    healthRouter(registry, {
      version: deps.version,
      database: deps.database,
      redis: deps.redis,
      signing: { selfSigned: !deps.config.signing.p12Path, tsa: Boolean(deps.config.signing.tsaUrl) },
    }),
  );
  http.app.use(
    docsRouter(
      () => generateOpenApiDocument(registry, { title: 'esign', version: deps.version, description: ESIGN_API_DESCRIPTION }),
      'esign',
    ),
  );
  return http.finish();
}
