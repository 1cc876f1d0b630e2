/**
 * AEMET OpenData client. Every product is fetched in two steps:
 *  1. `GET {base}/api/...` with the key in the `api_key` header answers an envelope
 *     `{descripcion, estado, datos, metadatos}`; `estado` repeats the HTTP status
 *     (200 success, 401 bad key, 404 "no hay datos", 429 too many requests);
 *  2. `GET {datos}` answers the data itself, a JSON array, often as
 *     `text/plain;charset=ISO-8859-15`, sometimes UTF-8.
 *
 * Rules:
 *  - a body is decoded with the charset its Content-Type names (ISO-8859-15 when it names
 *    none and is not valid UTF-8), so "Ñ" and "€" survive either way;
 *  - HTTP 429, `estado` 429, 5xx, a network error or a body that is not complete JSON (a
 *    truncated transfer) is retried up to `attempts` times with exponential backoff
 *    (`backoffMs` · 2^n, capped at 60 s); the sleep goes through `sleep` so tests wait no
 *    wall-clock time;
 *  - `estado` 404 is an answer, not a failure: `null` ("no data for those criteria");
 *  - 401/403 and other 4xx are not retried;
 *  - `datos` must be on the same origin as the base URL: the key's answer can never send
 *    the client elsewhere;
 *  - every answer's `Remaining-request-count` header is logged (debug; warn under 10) and
 *    handed to `onRemaining` (the `aemet_remaining_requests` gauge).
 */
import type { Logger } from '@firma-riesgo/service-kit';

export interface AemetClientOptions {
  apiKey: string;
  /** `https://opendata.aemet.es/opendata` or a loopback fake. */
  baseUrl: string;
  logger: Logger;
  attempts?: number;
  backoffMs?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
  onRemaining?: (remaining: number) => void;
}

export class AemetError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
    this.name = 'AemetError';
  }
}

/** A failure worth another try (rate limit, server error, network, truncated body). */
class RetryableAemetError extends AemetError {}

const REMAINING_HEADER = 'remaining-request-count';
const MAX_BACKOFF_MS = 60_000;

/** The text of a body in the charset its Content-Type names; ISO-8859-15 when none is named and it is not UTF-8. */
export function decodeAemetBody(bytes: Uint8Array, contentType: string | null): string {
  const named = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  if (named) {
    try {
      return new TextDecoder(named).decode(bytes);
    } catch {
      // an unknown label: fall through to detection
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('iso-8859-15').decode(bytes);
  }
}

interface Envelope {
  descripcion?: unknown;
  estado?: unknown;
  datos?: unknown;
}

export function createAemetClient(options: AemetClientOptions) {
  const base = new URL(options.baseUrl.replace(/\/+$/, '') + '/');
  const attempts = options.attempts ?? 4;
  const backoffMs = options.backoffMs ?? 2_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const { logger } = options;

  function noteRemaining(res: Response, url: string): void {
    const raw = res.headers.get(REMAINING_HEADER);
    if (raw === null) return;
    const remaining = Number(raw);
    if (!Number.isFinite(remaining)) return;
    options.onRemaining?.(remaining);
    if (remaining < 10) logger.warn({ remaining, url }, 'AEMET OpenData: few requests left for this key');
    else logger.debug({ remaining, url }, 'AEMET OpenData: requests left for this key');
  }

  async function getJson(url: URL, withKey: boolean): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(url, {
        headers: { Accept: 'application/json', ...(withKey ? { api_key: options.apiKey } : {}) },
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'error',
      });
    } catch (err) {
      throw new RetryableAemetError(`AEMET OpenData did not answer ${url.pathname}: ${(err as Error).message}`, null);
    }
    noteRemaining(res, url.pathname);
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await res.arrayBuffer());
    } catch (err) {
      throw new RetryableAemetError(`AEMET OpenData's answer to ${url.pathname} was cut off: ${(err as Error).message}`, res.status);
    }
    if (res.status === 429 || res.status >= 500) throw new RetryableAemetError(`AEMET OpenData answered ${res.status} to ${url.pathname}`, res.status);
    const text = decodeAemetBody(bytes, res.headers.get('content-type'));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // A body cut off mid-transfer parses as nothing; so does an HTML error page.
      if (res.ok) throw new RetryableAemetError(`AEMET OpenData's answer to ${url.pathname} is not complete JSON (${bytes.length} bytes)`, res.status);
      throw new AemetError(`AEMET OpenData answered ${res.status} to ${url.pathname}`, res.status);
    }
    if (!res.ok && !(body && typeof body === 'object' && 'estado' in body)) throw new AemetError(`AEMET OpenData answered ${res.status} to ${url.pathname}`, res.status);
    return body;
  }

  async function withRetries<T>(what: string, work: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await work();
      } catch (err) {
        if (!(err instanceof RetryableAemetError) || attempt >= attempts) throw err;
        const wait = Math.min(MAX_BACKOFF_MS, backoffMs * 2 ** (attempt - 1));
        logger.warn({ attempt, waitMs: wait, status: err.status, err: err.message }, `AEMET OpenData: ${what} failed, retrying`);
        await sleep(wait);
      }
    }
  }

  /** The data of one product (`path` after `/api/`), or null when AEMET has none (`estado` 404). */
  async function fetchProduct<T = unknown>(path: string): Promise<T | null> {
    return withRetries(path, async () => {
      const envelope = (await getJson(new URL(`api/${path.replace(/^\/+/, '')}`, base), true)) as Envelope;
      const estado = Number(envelope?.estado);
      const descripcion = typeof envelope?.descripcion === 'string' ? envelope.descripcion : '';
      if (estado === 404) return null;
      if (estado === 429) throw new RetryableAemetError(`AEMET OpenData: ${descripcion || 'too many requests'}`, 429);
      if (estado !== 200 || typeof envelope.datos !== 'string') throw new AemetError(`AEMET OpenData refused ${path}: estado ${envelope?.estado} ${descripcion}`.trim(), estado || null);
      const datos = new URL(envelope.datos);
      if (datos.origin !== base.origin) throw new AemetError(`AEMET OpenData's datos URL ${datos.origin} is not on ${base.origin}`, null);
      return (await getJson(datos, false)) as T;
    });
  }

  return { fetchProduct };
}

export type AemetClient = ReturnType<typeof createAemetClient>;
