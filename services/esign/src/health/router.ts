import type { Router } from 'express';
import { z } from 'zod';
import { createHealthRouter, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import { discoverEngines, type EngineName } from '@firma-riesgo/pdf-core';
import type { Redis } from 'ioredis';

const HEALTH_ENGINES: EngineName[] = ['ghostscript', 'qpdf', 'libreoffice', 'ocrmypdf', 'pdftoppm'];

const ZEngineStatusSchema = z.object({ available: z.boolean(), version: z.string().nullable() });

/** esign's own fields of `/health`, after the common ones of service-kit. */
const HEALTH_FIELDS = {
  engines: z.record(z.string(), ZEngineStatusSchema),
  signing: z.object({
    self_signed: z.boolean(),
    tsa: z.boolean().describe('whether TSA_URL is configured (timestamped seals: ESIGN_PADES_LEVEL, B-LTA by default)'),
    certificate_sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .describe('hex SHA-256 of the sealing certificate (DER): every instance of one deployment reports the same value'),
  }),
};

export interface HealthDeps {
  version: string;
  database: { kind: 'postgres' | 'pglite'; ping(): Promise<boolean> };
  redis?: Redis;
  signing: { selfSigned: boolean; tsa: boolean; certificateSha256: string };
}

export function healthRouter(registry: OpenAPIRegistry, deps: HealthDeps): Router {
  // Warm the engine cache so the first probe is fast; versions don't change while running.
  void discoverEngines(HEALTH_ENGINES);
  return createHealthRouter(registry, {
    service: 'esign',
    description: 'Database, Redis, PDF engines with versions, and the signing set-up. No authentication.',
    version: deps.version,
    database: deps.database,
    redis: deps.redis,
    fields: HEALTH_FIELDS,
    probe: () => discoverEngines(HEALTH_ENGINES),
    extra: ({ probe: engines }) => ({
      engines: Object.fromEntries(HEALTH_ENGINES.map((name) => [name, { available: engines[name]?.available ?? false, version: engines[name]?.version ?? null }])),
      signing: { self_signed: deps.signing.selfSigned, tsa: deps.signing.tsa, certificate_sha256: deps.signing.certificateSha256 },
    }),
  });
}
