import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, env, parseConfig, serviceEnv, serviceSettings, storageKindEnv, storageSettings, type StorageKind, type StorageSettings } from '@firma-riesgo/service-kit';
import { ENGINE_SANDBOX_MODES, PADES_LEVELS } from '@firma-riesgo/pdf-core';
import { readTrustAnchors } from './verification/trust-anchors';
import { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from '@firma-riesgo/webhooks';

/** A name server as `dns.Resolver.setServers` takes it: `1.2.3.4`, `1.2.3.4:53`, `::1`, `[::1]:53`. */
function isValidDnsServer(server: string): boolean {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server);
  const plain = /^([\d.]+)(?::(\d{1,5}))?$/.exec(server);
  const [address, port] = bracketed ? [bracketed[1]!, bracketed[2]] : plain ? [plain[1]!, plain[2]] : [server, undefined];
  if (port !== undefined && !(Number(port) >= 1 && Number(port) <= 65_535)) return false;
  return isIP(address) !== 0;
}

/**
 * Every environment variable esign reads, parsed once at start-up. The README's
 * configuration table lists the same names and defaults.
 */
const ZEsignEnvSchema = z.object({
  ...serviceEnv,
  ESIGN_PORT: env.port(8001),
  ESIGN_DATABASE_URL: env.url(['postgres', 'postgresql']).optional(),
  SMTP_URL: env.url(['smtp', 'smtps']).optional(),
  SMTP_FROM: z.string().default('Firma <no-reply@localhost>'),
  ESIGN_PUBLIC_URL: env.url(['http', 'https']).optional(),
  ESIGN_MAX_UPLOAD_MB: env.int(25, 1),
  ESIGN_MAIL_ATTACH_MAX_MB: z.coerce.number().min(0).max(100).default(10),
  ESIGN_TOOL_OUTPUT_FACTOR: z.coerce.number().min(0.01).max(1000).default(4),
  ESIGN_TMP_DIR: z.string().optional(),
  ESIGN_ENGINE_SANDBOX: z.enum(ENGINE_SANDBOX_MODES).default('auto'),
  ESIGN_TEMPLATES_DIR: z.string().optional(),
  ESIGN_JSON_LIMIT: z.string().default('1mb'),
  SIGNING_P12_PATH: z.string().optional(),
  SIGNING_P12_PASSWORD: z.string().optional(),
  SIGNING_IDENTITY_KEY: env.key32(),
  ESIGN_AT_REST_KEY: env.key32(),
  TSA_URL: env.url(['http', 'https']).optional(),
  ESIGN_PADES_LEVEL: z.enum(PADES_LEVELS).optional(),
  ESIGN_TRUST_ANCHORS: z.string().optional(),
  ESIGN_REVOCATION_ALLOWLIST: env.list(),
  ESIGN_REVOCATION_TIMEOUT_MS: env.int(10_000, 100),
  ESIGN_VERIFY_FETCH_REVOCATION: env.bool(true),
  WEBHOOK_ALLOW_PRIVATE: env.bool(false),
  WEBHOOK_ALLOW_HTTP: env.bool(false),
  WEBHOOK_RETRY_SCHEDULE: env.parsed(DEFAULT_RETRY_SCHEDULE, parseRetrySchedule),
  WEBHOOK_TIMEOUT_MS: env.int(10_000, 100),
  WEBHOOK_DNS_TIMEOUT_MS: env.int(2_000, 100),
  WEBHOOK_DNS_SERVERS: env.list().refine((servers) => servers.every((s) => isValidDnsServer(s)), 'must be comma-separated IP addresses, each optionally with :port (IPv6 as [addr]:port)'),
  WEBHOOK_SECRET_KEY: env.key32(),
  ESIGN_WEBHOOK_CONCURRENCY: env.int(10, 1),
  ESIGN_SESSION_SECRET: z
    .string()
    .min(32, 'must be at least 32 characters (e.g. openssl rand -base64 32)')
    .optional()
    .transform((v) => (v === undefined ? undefined : Buffer.from(v))),
  METERING_TIMEZONE: z
    .string()
    .default('UTC')
    .refine((tz) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: tz });
        return true;
      } catch {
        return false;
      }
    }, 'must be an IANA time zone such as UTC or Europe/Madrid'),
  NODE_ENV: z.string().optional(),
  ESIGN_DEMO_KEY: env.bool(true),
  ESIGN_WORKER_CONCURRENCY: env.int(4, 1),
  ESIGN_TOOLS_RATE_LIMIT: env.int(60, 1),
  ESIGN_UPLOAD_RATE_LIMIT: env.int(60, 1),
  ESIGN_REQUEST_RATE_LIMIT: env.int(30, 1),
  ESIGN_REQUEST_DAILY_LIMIT: env.int(1_000, 1),
  ESIGN_WEBHOOK_RATE_LIMIT: env.int(30, 1),
  ESIGN_KEY_CACHE_MS: env.int(5_000, 0),
  ESIGN_KEY_CACHE_SIZE: env.int(10_000, 1),
  ESIGN_RATE_LIMIT_PREFIX: z.string().regex(/^[A-Za-z0-9_:-]+$/, 'letters, digits, _, : and - only').default('esign-rl'),
  ESIGN_RECOVERY_INTERVAL_MS: env.int(60_000, 1_000),
  /** How long a confirmation waits for its seal's first attempt before answering `sealing` (the job goes on). */
  ESIGN_SEAL_WAIT_MS: env.int(20_000, 100),
  ESIGN_REMINDER_INTERVAL_MS: env.int(600_000, 1_000),
  ESIGN_STORAGE: storageKindEnv(),
});

export type EsignConfig = ReturnType<typeof loadConfig>;

export function loadConfig(source: NodeJS.ProcessEnv = process.env) {
  const e = parseConfig(ZEsignEnvSchema, source);
  if (e.ESIGN_STORAGE === 'postgres' && !e.ESIGN_DATABASE_URL) {
    // Embedded PGlite serves one connection, and the final seal stores its PDF while a transaction holds it.
    throw new ConfigError(['ESIGN_STORAGE: postgres needs ESIGN_DATABASE_URL (with the embedded database keep the default, local)']);
  }
  const storage = storageSettings(e.ESIGN_STORAGE, e, 'ESIGN_STORAGE');
  // B-LTA with a TSA, B-B without; a level past B-B cannot be reached without one.
  const padesLevel = e.ESIGN_PADES_LEVEL ?? (e.TSA_URL ? 'B-LTA' : 'B-B');
  if (padesLevel !== 'B-B' && !e.TSA_URL) throw new ConfigError([`ESIGN_PADES_LEVEL: ${padesLevel} needs TSA_URL (every level past B-B carries a timestamp)`]);
  if (e.ESIGN_STORAGE !== 'local' && !e.SIGNING_P12_PATH && !e.SIGNING_IDENTITY_KEY) {
    // Shared storage means several instances: a self-signed identity under each DATA_DIR would differ per instance.
    throw new ConfigError([
      `ESIGN_STORAGE: ${e.ESIGN_STORAGE} needs SIGNING_P12_PATH or SIGNING_IDENTITY_KEY, so that every instance seals with one identity (see the README, Sealing identity)`,
    ]);
  }
  if (e.ESIGN_DATABASE_URL && !e.ESIGN_AT_REST_KEY && !e.SIGNING_IDENTITY_KEY) {
    // With a real database the API and the workers are separate processes: a key generated
    // under each DATA_DIR would differ, and a worker could not open the email an API queued.
    throw new ConfigError([
      'ESIGN_AT_REST_KEY: required with ESIGN_DATABASE_URL (or SIGNING_IDENTITY_KEY, from which it is then derived), so that every instance opens queued emails and checks signing codes with one key (see the README, Secrets at rest)',
    ]);
  }
  const anchors = e.ESIGN_TRUST_ANCHORS === undefined ? { ders: [] } : readTrustAnchors(resolve(e.INIT_CWD ?? process.cwd(), e.ESIGN_TRUST_ANCHORS));
  if ('error' in anchors) throw new ConfigError([`ESIGN_TRUST_ANCHORS: ${anchors.error}`]);
  const base = serviceSettings(e);
  const { dataDir } = base;
  return {
    /** HOST, DATA_DIR, REDIS_URL, QUEUE_PREFIX, TRUSTED_PROXIES, SHUTDOWN_GRACE_MS, LOG_LEVEL, HTTP_*_TIMEOUT_MS and METRICS_TOKEN, read as every service reads them. */
    ...base,
    port: e.ESIGN_PORT,
    databaseUrl: e.ESIGN_DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.SMTP_FROM,
    mailDir: resolve(dataDir, 'mail'),
    publicUrl: (e.ESIGN_PUBLIC_URL ?? `http://localhost:${e.ESIGN_PORT}`).replace(/\/+$/, ''),
    /** ESIGN_PUBLIC_URL as set (no trailing slash), or undefined: the OpenAPI document's `servers`. */
    publicUrlSet: e.ESIGN_PUBLIC_URL?.replace(/\/+$/, ''),
    maxUploadBytes: e.ESIGN_MAX_UPLOAD_MB * 1024 * 1024,
    /** A completion copy's final PDF is attached up to this size; above it the email carries a link valid 30 days. */
    mailAttachMaxBytes: Math.floor(e.ESIGN_MAIL_ATTACH_MAX_MB * 1024 * 1024),
    /** A PDF tool call's output budget: the files it answers with, ESIGN_TOOL_OUTPUT_FACTOR times the upload limit, in all. */
    toolOutputBytes: Math.floor(e.ESIGN_TOOL_OUTPUT_FACTOR * e.ESIGN_MAX_UPLOAD_MB * 1024 * 1024),
    /** A folder of operator contract templates, loaded after (and replacing) the built-in ones of the same id. */
    templatesDir: e.ESIGN_TEMPLATES_DIR === undefined ? undefined : resolve(e.INIT_CWD ?? process.cwd(), e.ESIGN_TEMPLATES_DIR),
    /** Where the PDF tools' per-call temp dirs go; the OS temp dir when unset. */
    tmpDir: e.ESIGN_TMP_DIR,
    /**
     * How the PDF engines are confined (bubblewrap: no network, only the call's temp dir):
     * auto (where the platform allows, else one warning), bwrap (refuse to start without it), off.
     */
    engineSandbox: e.ESIGN_ENGINE_SANDBOX,
    jsonLimit: e.ESIGN_JSON_LIMIT,
    /** DER certificates POST /verificar accepts as chain ends, besides our own root and seal certificate. */
    trustAnchorsDer: anchors.ders,
    /** POST /verificar asks a trusted signing certificate's issuer for its revocation status when the file holds none (under signing.revocation's policy). */
    verifyFetchRevocation: e.ESIGN_VERIFY_FETCH_REVOCATION,
    signing: {
      p12Path: e.SIGNING_P12_PATH,
      p12Password: e.SIGNING_P12_PASSWORD,
      /** Without a P12: the self-signed identity is kept once in the database, encrypted under this key (unset: a file under DATA_DIR). */
      identityKey: e.SIGNING_IDENTITY_KEY,
      tsaUrl: e.TSA_URL,
      sealWaitMs: e.ESIGN_SEAL_WAIT_MS,
      /** The PAdES level every seal reaches or fails at (never a lower one). */
      padesLevel,
      /**
       * Fetching OCSP responses and CRLs for B-LT: the webhooks' outbound policy (private
       * targets only with WEBHOOK_ALLOW_PRIVATE), plain http allowed (OCSP and CRLs are served
       * over http), and these hosts allowed even when private (an in-house CA's responder).
       */
      revocation: {
        allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
        allowedHosts: e.ESIGN_REVOCATION_ALLOWLIST,
        timeoutMs: e.ESIGN_REVOCATION_TIMEOUT_MS,
        dnsTimeoutMs: e.WEBHOOK_DNS_TIMEOUT_MS,
        dnsServers: e.WEBHOOK_DNS_SERVERS.length > 0 ? e.WEBHOOK_DNS_SERVERS : undefined,
      },
    },
    /**
     * The key outbox bodies are encrypted and signing codes are HMAC'd under (at-rest/keys.ts
     * derives one subkey for each): ESIGN_AT_REST_KEY, else SIGNING_IDENTITY_KEY; neither (the
     * embedded database only): a key generated on the first start and kept in `keyFile`.
     */
    atRest: {
      key: e.ESIGN_AT_REST_KEY ?? e.SIGNING_IDENTITY_KEY,
      source: e.ESIGN_AT_REST_KEY ? ('ESIGN_AT_REST_KEY' as const) : e.SIGNING_IDENTITY_KEY ? ('SIGNING_IDENTITY_KEY' as const) : ('file' as const),
      keyFile: resolve(dataDir, 'esign', 'secrets', 'at-rest.key'),
    },
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    /** Signs the dashboard's session cookies; unset: a random secret per process (sessions end on restart). */
    sessionSecret: e.ESIGN_SESSION_SECRET,
    /** The time zone whose calendar days the usage counters are kept in. */
    meteringTimeZone: e.METERING_TIMEZONE,
    webhooks: {
      /** Outbound guard: private targets only when allowed; plain http only outside production or when allowed. */
      // Names resolve on c-ares (not libuv's thread pool) within WEBHOOK_DNS_TIMEOUT_MS.
      policy: {
        allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
        allowHttp: e.WEBHOOK_ALLOW_HTTP || e.NODE_ENV !== 'production',
        dnsTimeoutMs: e.WEBHOOK_DNS_TIMEOUT_MS,
        dnsServers: e.WEBHOOK_DNS_SERVERS.length > 0 ? e.WEBHOOK_DNS_SERVERS : undefined,
      },
      retrySchedule: e.WEBHOOK_RETRY_SCHEDULE,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      secretKey: e.WEBHOOK_SECRET_KEY,
      concurrency: e.ESIGN_WEBHOOK_CONCURRENCY,
    },
    // A demo key is only created on an embedded first start, never against a real database.
    demoKey: e.ESIGN_DEMO_KEY && !e.ESIGN_DATABASE_URL,
    workerConcurrency: e.ESIGN_WORKER_CONCURRENCY,
    /** PDF tool calls per client (key, or IP without one) per minute. */
    toolsRateLimit: e.ESIGN_TOOLS_RATE_LIMIT,
    /** Per-tenant budgets of the keyed routes that cost the most or reach outside (every key of a tenant shares them). */
    tenantLimits: {
      /** POST /firma/documentos per tenant per minute. */
      uploadsPerMinute: e.ESIGN_UPLOAD_RATE_LIMIT,
      /** POST /firma/solicitudes (each emails an address the tenant chooses) per tenant per minute, and per day. */
      requestsPerMinute: e.ESIGN_REQUEST_RATE_LIMIT,
      requestsPerDay: e.ESIGN_REQUEST_DAILY_LIMIT,
      /** Webhook create, change and test (each resolves a name, a test also POSTs) per tenant per minute. */
      webhookCallsPerMinute: e.ESIGN_WEBHOOK_RATE_LIMIT,
    },
    rateLimitPrefix: e.ESIGN_RATE_LIMIT_PREFIX,
    /** API-key lookups cached per API instance with Redis (0 ms: off); changes are announced on `${rateLimitPrefix}:key-changes`. */
    keyCache: { ttlMs: e.ESIGN_KEY_CACHE_MS, maxEntries: e.ESIGN_KEY_CACHE_SIZE },
    /** How often a job-running process sweeps for work a crash interrupted (one instance at a time). */
    recoveryIntervalMs: e.ESIGN_RECOVERY_INTERVAL_MS,
    /** How often the reminder sweep looks for scheduled reminders and expiry warnings owed. */
    reminderIntervalMs: e.ESIGN_REMINDER_INTERVAL_MS,
    /** Where the service's files live (ESIGN_STORAGE: local files under DATA_DIR, its Postgres database, or an S3 bucket with S3_*). */
    storage,
    /** Another backend from the same variables: the target of `esign storage migrate --to KIND` (ConfigError when its variables are missing). */
    storageFor: (kind: StorageKind): StorageSettings => {
      if (kind === 'postgres' && !e.ESIGN_DATABASE_URL) throw new ConfigError(['ESIGN_DATABASE_URL: the postgres backend needs it (not the embedded database)']);
      return storageSettings(kind, e, 'storage migrate --to');
    },
  };
}
