import { z } from 'zod';
import { ConfigError } from './config-error';

export { ConfigError };

/**
 * Parses the environment once, at start-up, into a typed object. Empty strings
 * count as unset so `FOO=` in a .env file falls back to the default.
 */
export function parseConfig<S extends z.ZodObject>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value.trim() !== '') cleaned[key] = value;
  }
  const problems = placeholderProblems(Object.keys(schema.shape), cleaned);
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    // A placeholder is reported once, as a placeholder, whatever else its value breaks.
    const reported = new Set(problems.map((p) => p.slice(0, p.indexOf(':'))));
    for (const issue of result.error.issues) {
      if (!reported.has(String(issue.path[0]))) problems.push(`${issue.path.join('.') || '(root)'}: ${issue.message}`);
    }
  }
  if (problems.length > 0 || !result.success) throw new ConfigError(problems);
  return result.data;
}

/**
 * Markers of the example values the repository ships (infra/k8s/config.yaml's Secrets:
 * `change-me…`, `REPLACE+with+openssl+rand…`). They are well-formed, so without this check a
 * copied example would start a service with a published password, key or token.
 */
export const PLACEHOLDER_VALUE = /change[-_ ]?me|replace[-_+ ]with/i;

/** One problem per variable among `names` whose value is an example placeholder. */
export function placeholderProblems(names: readonly string[], env: Record<string, string | undefined>): string[] {
  return names
    .filter((name) => env[name] !== undefined && PLACEHOLDER_VALUE.test(env[name]!))
    .map((name) => `${name}: is an example placeholder (it contains "${PLACEHOLDER_VALUE.exec(env[name]!)![0]}"); set a real value from your secret store`);
}

/** Reusable zod types for environment variables (strings in, typed values out). */
export const env = {
  port: (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback),
  int: (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback),
  bool: (fallback: boolean) =>
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
      .default(fallback ? 'true' : 'false')
      .transform((v) => v === 'true' || v === '1' || v === 'yes'),
  url: (protocols: string[]) =>
    z.url({ message: `expected a URL (${protocols.join(', ')})` }).refine((value) => protocols.some((p) => value.startsWith(`${p}:`)), {
      message: `expected a URL starting with ${protocols.map((p) => `${p}://`).join(' or ')}`,
    }),
  list: () =>
    z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** An optional 32-byte key, base64-encoded (`openssl rand -base64 32`), as a Buffer. */
  key32: () =>
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (v === undefined) return undefined;
        const key = Buffer.from(v, 'base64');
        if (key.length !== 32) {
          ctx.addIssue({ code: 'custom', message: 'must be 32 bytes, base64-encoded (e.g. openssl rand -base64 32)' });
          return z.NEVER;
        }
        return key;
      }),
  /** A string (default `fallback`) read by `parse`, whose thrown message becomes the variable's problem. */
  parsed: <T>(fallback: string, parse: (value: string) => T) =>
    z
      .string()
      .default(fallback)
      .transform((v, ctx) => {
        try {
          return parse(v);
        } catch (err) {
          ctx.addIssue({ code: 'custom', message: (err as Error).message });
          return z.NEVER;
        }
      }),
};

/** The HTTP edge every service shares: server timeouts and access to /metrics. */
export interface HttpEdgeSettings {
  /** Time a client has to send the complete request headers. */
  headersTimeoutMs: number;
  /** Time a client has to send the complete request, body included. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** Bearer token /metrics requires; unset, /metrics answers 404. */
  metricsToken?: string;
}

/** The environment variables behind HttpEdgeSettings; spread them into a service's schema. */
export const httpEdgeEnv = {
  HTTP_HEADERS_TIMEOUT_MS: env.int(15_000, 1),
  HTTP_REQUEST_TIMEOUT_MS: env.int(120_000, 1),
  HTTP_KEEPALIVE_TIMEOUT_MS: env.int(5_000, 1),
  METRICS_TOKEN: z.string().min(16, 'use at least 16 characters').regex(/^[\x21-\x7e]+$/, 'printable ASCII without spaces').optional(),
};

/** Reads the parsed HTTP edge variables; throws ConfigError when the timeouts contradict each other. */
export function httpEdgeSettings(e: {
  HTTP_HEADERS_TIMEOUT_MS: number;
  HTTP_REQUEST_TIMEOUT_MS: number;
  HTTP_KEEPALIVE_TIMEOUT_MS: number;
  METRICS_TOKEN?: string;
}): HttpEdgeSettings {
  // Node refuses a headers timeout longer than the whole-request timeout.
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError([`HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS (${e.HTTP_REQUEST_TIMEOUT_MS})`]);
  }
  return {
    headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeoutMs: e.HTTP_KEEPALIVE_TIMEOUT_MS,
    metricsToken: e.METRICS_TOKEN,
  };
}

/** Node's own defaults are 60 s for headers and 300 s per request: far too patient with slow clients. */
export const DEFAULT_HTTP_EDGE: HttpEdgeSettings = { headersTimeoutMs: 15_000, requestTimeoutMs: 120_000, keepAliveTimeoutMs: 5_000 };
