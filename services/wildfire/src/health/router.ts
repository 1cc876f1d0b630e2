import type { Router } from 'express';
import { z } from 'zod';
import { createHealthRouter, type OpenAPIRegistry } from '@firma-riesgo/service-kit';
import type { Redis } from 'ioredis';
import { daysBetween } from '../calendar';
import { ZErrorBodySchema } from '../openapi';

/** wildfire's own field of `/health`, after the common ones of service-kit. */
const HEALTH_FIELDS = {
  error: ZErrorBodySchema.shape.error
    .optional()
    .describe('Only with 503: the error object every error carries (interface §7), code SERVICE_UNAVAILABLE.'),
  signing: z
    .object({
      self_signed: z.boolean().describe('whether the certificate sealing report PDFs is self-signed (the generated one, or an operator’s issued by no CA)'),
      tsa: z.boolean().describe('whether WILDFIRE_TSA_URL is configured (timestamped seals: WILDFIRE_PADES_LEVEL, B-LTA by default)'),
    })
    .describe('How report PDFs are sealed.'),
  data: z
    .enum(['ok', 'stale'])
    .optional()
    .describe(
      'Only with AEMET_API_KEY: the observed-weather feed, stale when the newest day ingested from AEMET is WILDFIRE_AEMET_STALE_DAYS days old or more ' +
        '(or none is, or the database is down); otherwise ok. Absent without a key (readings come from loaded files; test tokens read synthetic data).',
    ),
  observed: z
    .object({
      newest_day: z.string().nullable().describe('The newest day (YYYY-MM-DD) ingested from AEMET observations; null when none is.'),
      age_days: z.number().int().nullable().describe('Days from newest_day to today in Spain; null when none is.'),
    })
    .optional()
    .describe('Only with AEMET_API_KEY: the age of the newest observed day.'),
};

export interface HealthDeps {
  version: string;
  database: { kind: 'postgres' | 'pglite'; ping(): Promise<boolean> };
  redis?: Redis;
  signing: { selfSigned: boolean; tsa: boolean };
  /** The AEMET observed-weather feed; absent without AEMET_API_KEY. */
  observed?: { newestDay(): Promise<string | null>; today(): string; staleDays: number };
}

type Freshness = { newest_day: string | null; age_days: number | null } | null;

async function freshness(observed: NonNullable<HealthDeps['observed']>): Promise<Freshness> {
  try {
    const newest = await observed.newestDay();
    return { newest_day: newest, age_days: newest === null ? null : daysBetween(newest, observed.today()) };
  } catch {
    // The database is down: the 503 says so; the feed's age is unknown.
    return null;
  }
}

export function healthRouter(registry: OpenAPIRegistry, deps: HealthDeps): Router {
  const observed = deps.observed;
  return createHealthRouter(registry, {
    service: 'wildfire',
    description: 'Database and Redis reachability, and how report PDFs are sealed. No authentication.',
    version: deps.version,
    database: deps.database,
    redis: deps.redis,
    fields: HEALTH_FIELDS,
    probe: async (): Promise<Freshness> => (observed ? freshness(observed) : null),
    // A 503 is an error like any other for a client: it carries the §7 error object besides the status fields.
    extra: ({ databaseOk, req, probe }) => ({
      signing: { self_signed: deps.signing.selfSigned, tsa: deps.signing.tsa },
      ...(observed
        ? {
            data: probe?.age_days != null && probe.age_days < observed.staleDays ? ('ok' as const) : ('stale' as const),
            observed: probe ?? { newest_day: null, age_days: null },
          }
        : {}),
      ...(databaseOk
        ? {}
        : { error: { code: 'SERVICE_UNAVAILABLE', message: 'The database cannot be reached; retry with backoff', param: null, request_id: req.requestId ?? '' } }),
    }),
  });
}
