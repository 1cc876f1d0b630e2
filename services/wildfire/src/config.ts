import { z } from 'zod';
import { parseIsoDay } from './calendar';
import { parseWinterRules } from './fwi/winter';
import { ConfigError, env, isCronPattern, parseConfig, serviceEnv, serviceSettings, storageKindEnv, storageSettings, type StorageKind, type StorageSettings } from '@firma-riesgo/service-kit';
import { PADES_LEVELS } from './reports/pdf-stack';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '@firma-riesgo/webhooks';

/** One API version marked deprecated: its responses will carry `Deprecation` and `Sunset`. */
export interface DeprecatedPrefix {
  /** Path prefix as written, without a trailing slash: `/api/v1`. */
  prefix: string;
  /** The sunset day, at 00:00 UTC: the first day the version may stop answering. */
  sunset: Date;
  /** Where clients should move (`Link: <...>; rel="successor-version"`): a path or an http(s) URL. */
  successor: string | null;
}

const PREFIX = /^(?:\/[A-Za-z0-9._~-]+)+$/;

/**
 * WILDFIRE_DEPRECATED_PREFIXES: comma-separated `PREFIX=YYYY-MM-DD[>SUCCESSOR]`, e.g.
 * `/api/v1=2027-06-30>/api/v2,/api/v2=2027-12-31`. Throws an Error naming the entry.
 */
export function parseDeprecatedPrefixes(text: string): DeprecatedPrefix[] {
  const entries = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const seen = new Set<string>();
  return entries.map((entry) => {
    const eq = entry.indexOf('=');
    const hint = 'expected PREFIX=YYYY-MM-DD or PREFIX=YYYY-MM-DD>SUCCESSOR, e.g. /api/v1=2027-06-30>/api/v2';
    if (eq === -1) throw new Error(`"${entry}": ${hint}`);
    const prefix = entry.slice(0, eq).trim().replace(/\/+$/, '');
    const [dayText = '', successorText, ...extra] = entry.slice(eq + 1).split('>');
    if (!PREFIX.test(prefix)) throw new Error(`"${entry}": the prefix must be a path such as /api/v1`);
    const sunset = parseIsoDay(dayText.trim());
    if (!sunset) throw new Error(`"${entry}": "${dayText.trim()}" is not a date in the form YYYY-MM-DD`);
    if (extra.length > 0) throw new Error(`"${entry}": ${hint}`);
    const successor = successorText?.trim() || null;
    if (successor !== null && !PREFIX.test(successor) && !/^https?:\/\/\S+$/.test(successor)) {
      throw new Error(`"${entry}": the successor must be a path such as /api/v2 or an http(s) URL`);
    }
    if (seen.has(prefix)) throw new Error(`"${entry}": ${prefix} is listed more than once`);
    seen.add(prefix);
    return { prefix, sunset, successor };
  });
}

/** The zone every wildfire schedule is read in: the Spanish (peninsular) calendar of the reports. */
export const SCHEDULE_TIME_ZONE = 'Europe/Madrid';

/** A cron pattern (minute hour day month weekday), read in Madrid time. */
const cron = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .refine((pattern) => isCronPattern(pattern, SCHEDULE_TIME_ZONE), 'must be a cron pattern such as "30 3 * * *" (minute hour day month weekday, Madrid time)');

const INTERVAL_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;

/** An interval such as `1h`, `30m`, `90s` or `600000ms` (plain digits: milliseconds), in ms; at least a minute. */
export function parseInterval(text: string): number | null {
  const match = /^(\d+)\s*(ms|s|m|h)?$/.exec(text.trim());
  if (!match) return null;
  const ms = Number(match[1]) * INTERVAL_UNITS_MS[(match[2] ?? 'ms') as keyof typeof INTERVAL_UNITS_MS];
  return ms >= 60_000 && Number.isSafeInteger(ms) ? ms : null;
}

const interval = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const ms = parseInterval(value);
      if (ms === null) {
        ctx.addIssue({ code: 'custom', message: 'must be an interval of a minute or more such as "1h", "30m" or "90s"' });
        return z.NEVER;
      }
      return ms;
    });

const deprecatedPrefixes = () =>
  z
    .string()
    .default('')
    .transform((value, ctx) => {
      try {
        return parseDeprecatedPrefixes(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

const winterRules = () =>
  z
    .string()
    .default('')
    .transform((value, ctx) => {
      try {
        return parseWinterRules(value);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    });

/**
 * Every environment variable wildfire reads, parsed once at start-up. The README's
 * configuration table lists the same names and defaults.
 */
const ZWildfireEnvSchema = z.object({
  ...serviceEnv,
  WILDFIRE_PORT: env.port(8002),
  WILDFIRE_PUBLIC_URL: env.url(['http', 'https']).optional(),
  WILDFIRE_DATABASE_URL: env.url(['postgres', 'postgresql']).optional(),
  WILDFIRE_DEPRECATED_PREFIXES: deprecatedPrefixes(),
  WILDFIRE_DEMO_TOKEN: env.bool(true),
  WILDFIRE_WORKER_CONCURRENCY: env.int(4, 1),
  WILDFIRE_JOB_STALLED_MS: env.int(30_000, 1_000),
  WILDFIRE_JSON_LIMIT: z.string().default('100kb'),
  RATE_LIMIT_PREFIX: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').default('wildfire-rl'),
  WILDFIRE_RATE_LIMIT_DATA: env.int(100, 1),
  WILDFIRE_RATE_LIMIT_REPORTS: env.int(10, 1),
  WILDFIRE_RATE_LIMIT_TERRITORY: env.int(10, 1),
  WILDFIRE_INGESTION_CRON: cron('0 14 * * *'),
  WILDFIRE_USAGE_FLUSH_MS: env.int(5_000, 100),
  WILDFIRE_TOKEN_CACHE_MS: env.int(5_000, 0),
  WILDFIRE_TOKEN_CACHE_SIZE: env.int(10_000, 1),
  WILDFIRE_READINGS_CACHE_MS: env.int(60_000, 0),
  WILDFIRE_READINGS_CACHE_SIZE: env.int(10_000, 1),
  WILDFIRE_REPORT_WAIT_MS: env.int(60_000, 1),
  WILDFIRE_PDF_WORKERS: env.int(2, 1),
  WILDFIRE_REPORT_RETENTION_CRON: cron('30 3 * * *'),
  WILDFIRE_REPORT_SCHEDULE_CRON: cron('0 6 1 * *'),
  WILDFIRE_TEST_REPORT_RETENTION_DAYS: env.int(7, 1),
  WILDFIRE_REPORT_ACCOUNT_CONCURRENCY: env.int(2, 1),
  WILDFIRE_SIGNING_P12_PATH: z.string().min(1).optional(),
  WILDFIRE_SIGNING_P12_PASSWORD: z.string().optional(),
  WILDFIRE_TSA_URL: env.url(['http', 'https']).optional(),
  WILDFIRE_PADES_LEVEL: z.enum(PADES_LEVELS).optional(),
  WILDFIRE_REVOCATION_ALLOWLIST: env.list(),
  WILDFIRE_REVOCATION_TIMEOUT_MS: env.int(10_000, 100),
  WILDFIRE_STORAGE: storageKindEnv(),
  WILDFIRE_DC_WINTER: winterRules(),
  AEMET_API_KEY: z.string().trim().min(1).optional(),
  AEMET_BASE_URL: env.url(['http', 'https']).default('https://opendata.aemet.es/opendata'),
  WILDFIRE_AEMET_OBS_EVERY: interval('1h'),
  WILDFIRE_AEMET_STALE_DAYS: env.int(2, 1),
  WILDFIRE_AEMET_FORECAST_CRON: cron('30 5 * * *'),
  WILDFIRE_AEMET_REQUESTS_PER_MINUTE: env.int(40, 1),
  WILDFIRE_ALERT_SUBSCRIPTIONS_MAX: env.int(50, 1),
  WILDFIRE_WEBHOOK_ALLOW_PRIVATE: env.bool(false),
  WILDFIRE_WEBHOOK_ALLOW_HTTP: env.bool(false),
  WILDFIRE_WEBHOOK_RETRY_SCHEDULE: env.parsed(DEFAULT_RETRY_SCHEDULE, parseRetrySchedule),
  WILDFIRE_WEBHOOK_TIMEOUT_MS: env.int(10_000, 100),
  WILDFIRE_WEBHOOK_SECRET_KEY: env.key32(),
});

export type WildfireConfig = ReturnType<typeof loadConfig>;

export function loadConfig(source: NodeJS.ProcessEnv = process.env) {
  const e = parseConfig(ZWildfireEnvSchema, source);
  const padesLevel = e.WILDFIRE_PADES_LEVEL ?? (e.WILDFIRE_TSA_URL ? 'B-LTA' : 'B-B');
  if (padesLevel !== 'B-B' && !e.WILDFIRE_TSA_URL) throw new ConfigError([`WILDFIRE_PADES_LEVEL: ${padesLevel} needs WILDFIRE_TSA_URL (every level past B-B carries a timestamp)`]);
  if (e.WILDFIRE_SIGNING_P12_PASSWORD !== undefined && !e.WILDFIRE_SIGNING_P12_PATH) {
    // A password alone means the operator meant their own certificate: never fall back to a self-signed seal quietly.
    throw new ConfigError(['WILDFIRE_SIGNING_P12_PASSWORD: set without WILDFIRE_SIGNING_P12_PATH']);
  }
  return {
    /** HOST, DATA_DIR, REDIS_URL, QUEUE_PREFIX, TRUSTED_PROXIES, SHUTDOWN_GRACE_MS, LOG_LEVEL, HTTP_*_TIMEOUT_MS and METRICS_TOKEN, read as every service reads them. */
    ...serviceSettings(e),
    port: e.WILDFIRE_PORT,
    /** The base URL clients reach the API at (no trailing slash), served as the OpenAPI document's `servers`; unset, the document says `/`. */
    publicUrl: e.WILDFIRE_PUBLIC_URL?.replace(/\/+$/, ''),
    databaseUrl: e.WILDFIRE_DATABASE_URL,
    deprecatedPrefixes: e.WILDFIRE_DEPRECATED_PREFIXES,
    jsonLimit: e.WILDFIRE_JSON_LIMIT,
    /** Each community's winter stop and restart and its overwintering fractions (fwi/winter.ts): the built-in table with WILDFIRE_DC_WINTER over it. */
    winterRules: e.WILDFIRE_DC_WINTER,
    // A demo token is only created on an embedded first start, never against a real database.
    demoToken: e.WILDFIRE_DEMO_TOKEN && !e.WILDFIRE_DATABASE_URL,
    workerConcurrency: e.WILDFIRE_WORKER_CONCURRENCY,
    /** How long a killed worker's job stays claimed before another worker runs it again (BullMQ lock and stalled check). */
    jobStalledMs: e.WILDFIRE_JOB_STALLED_MS,
    rateLimits: {
      prefix: e.RATE_LIMIT_PREFIX,
      perMinute: { data: e.WILDFIRE_RATE_LIMIT_DATA, reports: e.WILDFIRE_RATE_LIMIT_REPORTS, territory: e.WILDFIRE_RATE_LIMIT_TERRITORY },
      /** How often the accounts' request counters reach account_usage (and the most usage a crash can lose). */
      usageFlushMs: e.WILDFIRE_USAGE_FLUSH_MS,
    },
    /** When new readings are expected (cron, Madrid time): territory and summary answers may be cached until the next one. */
    ingestionCron: e.WILDFIRE_INGESTION_CRON,
    /** Token lookups cached per API instance (with Redis only): how long an entry lives (0: no cache) and how many are kept. */
    tokenCache: { ttlMs: e.WILDFIRE_TOKEN_CACHE_MS, maxEntries: e.WILDFIRE_TOKEN_CACHE_SIZE },
    /** Latest readings cached per API instance for m1 (with Redis only): how long an entry lives (0: no cache; the staleness bound if a change message is lost) and how many are kept. */
    readingsCache: { ttlMs: e.WILDFIRE_READINGS_CACHE_MS, maxEntries: e.WILDFIRE_READINGS_CACHE_SIZE },
    reports: {
      /** How long POST /api/v1/report waits for the file before answering 202. */
      waitMs: e.WILDFIRE_REPORT_WAIT_MS,
      /** Worker threads rendering PDFs in a process that runs jobs. */
      pdfWorkers: e.WILDFIRE_PDF_WORKERS,
      /** When `report.retention` deletes expired files (cron, Madrid time). */
      retentionCron: e.WILDFIRE_REPORT_RETENTION_CRON,
      /** When `report.scheduled` generates the previous month's scheduled reports (cron, Madrid time). */
      scheduleCron: e.WILDFIRE_REPORT_SCHEDULE_CRON,
      /** Days a test token's report is kept (live reports: 12 months); `report.retention` then deletes its file and row. */
      testRetentionDays: e.WILDFIRE_TEST_REPORT_RETENTION_DAYS,
      /** Reports of one account generated at once across every worker process; the others wait their turn. */
      accountConcurrency: e.WILDFIRE_REPORT_ACCOUNT_CONCURRENCY,
    },
    /** The identity that seals report PDFs (a self-signed one under DATA_DIR unless a PKCS#12 is given), and the TSA for B-T seals. */
    signing: {
      p12Path: e.WILDFIRE_SIGNING_P12_PATH,
      p12Password: e.WILDFIRE_SIGNING_P12_PASSWORD,
      tsaUrl: e.WILDFIRE_TSA_URL,
      /** The PAdES level every report seal reaches or fails at: B-LTA with a TSA, B-B without. */
      padesLevel,
      /** OCSP and CRL fetching for B-LT: public addresses only, except these hosts. */
      revocation: { allowedHosts: e.WILDFIRE_REVOCATION_ALLOWLIST, timeoutMs: e.WILDFIRE_REVOCATION_TIMEOUT_MS },
    },
    /** Where the service's files live (WILDFIRE_STORAGE: local files under DATA_DIR, its Postgres database, or an S3 bucket with S3_*). */
    storage: storageSettings(e.WILDFIRE_STORAGE, e, 'WILDFIRE_STORAGE'),
    /** AEMET OpenData: observed weather is polled only with a key; without one, nothing changes (synthetic data for test tokens, CSVs for live ones). */
    aemet: {
      apiKey: e.AEMET_API_KEY,
      baseUrl: e.AEMET_BASE_URL,
      /** How often `aemet.observations` polls (WILDFIRE_AEMET_OBS_EVERY). */
      observationsEveryMs: e.WILDFIRE_AEMET_OBS_EVERY,
      /** /health answers `data: stale` when the newest observed day is this many days old or more. */
      staleDays: e.WILDFIRE_AEMET_STALE_DAYS,
      /** When `aemet.forecast` runs (cron, Madrid time). */
      forecastCron: e.WILDFIRE_AEMET_FORECAST_CRON,
      /** AEMET requests a forecast run makes per minute at most (4 per municipality). */
      requestsPerMinute: e.WILDFIRE_AEMET_REQUESTS_PER_MINUTE,
    },
    /** Alert subscriptions (alerts/): how many an account may hold, and how their webhooks are sent (the shared core of @firma-riesgo/webhooks). */
    alerts: {
      maxSubscriptions: e.WILDFIRE_ALERT_SUBSCRIPTIONS_MAX,
      webhooks: {
        /** Outbound guard: public https targets only, unless allowed. */
        policy: { allowPrivate: e.WILDFIRE_WEBHOOK_ALLOW_PRIVATE, allowHttp: e.WILDFIRE_WEBHOOK_ALLOW_HTTP },
        retrySchedule: e.WILDFIRE_WEBHOOK_RETRY_SCHEDULE,
        timeoutMs: e.WILDFIRE_WEBHOOK_TIMEOUT_MS,
        /** Seals the signing secrets at rest; unset, they are stored as they are (a warning at start). */
        secretKey: e.WILDFIRE_WEBHOOK_SECRET_KEY,
      },
    },
    /** Another backend from the same variables: the target of `wildfire storage migrate --to KIND` (ConfigError when its variables are missing). */
    storageFor: (kind: StorageKind): StorageSettings => {
      if (kind === 'postgres' && !e.WILDFIRE_DATABASE_URL) throw new ConfigError(['WILDFIRE_DATABASE_URL: the postgres backend needs it (not the embedded database)']);
      return storageSettings(kind, e, 'storage migrate --to');
    },
  };
}
