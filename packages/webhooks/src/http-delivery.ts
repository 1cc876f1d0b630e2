import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkOutboundUrl, OutboundAddressError, type OutboundPolicy } from '@firma-riesgo/auth';

/** What one HTTP attempt gave: the status (null when none came back), an error, the time it took. */
export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** At most RESPONSE_BODY_LIMIT bytes of what the receiver answered. */
  responseBody: string | null;
  retryAfter?: string;
  ok: boolean;
}

export const RESPONSE_BODY_LIMIT = 4096;

export interface DeliveryRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * POSTs one webhook message. The URL passes the outbound guard again at every attempt
 * (a name may resolve elsewhere since the endpoint was created) and the connection goes
 * to the address that was checked, so DNS rebinding cannot swap it. No redirects are
 * followed (a 3xx is a failure); only 2xx succeeds; the whole attempt has `timeoutMs`.
 */
export async function postWebhook(request: DeliveryRequest, options: { policy: OutboundPolicy; timeoutMs: number }): Promise<AttemptOutcome> {
  const started = performance.now();
  const took = () => Math.round(performance.now() - started);
  let target;
  try {
    target = await checkOutboundUrl(request.url, options.policy);
  } catch (err) {
    if (err instanceof OutboundAddressError) return { ok: false, statusCode: null, error: `refused: ${err.message}`, durationMs: took(), responseBody: null };
    throw err;
  }
  // Connect to the checked address whatever the name resolves to now.
  const pinned: LookupFunction = (_hostname, opts, callback) => {
    if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<AttemptOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: took() });
    };
    const req = client.request(
      target.url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: pinned,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_BODY_LIMIT) chunks.push(chunk.subarray(0, RESPONSE_BODY_LIMIT - size));
          size += chunk.length;
          if (size >= RESPONSE_BODY_LIMIT) res.destroy();
        });
        const done = () => {
          const statusCode = res.statusCode ?? null;
          const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
          const retryAfter = res.headers['retry-after'];
          finish({
            ok,
            statusCode,
            error: ok ? null : statusCode !== null && statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `HTTP ${statusCode}`,
            responseBody: chunks.length ? Buffer.concat(chunks).toString('utf8') : null,
            ...(typeof retryAfter === 'string' ? { retryAfter } : {}),
          });
        };
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      finish({ ok: false, statusCode: null, error: `no answer within ${options.timeoutMs} ms`, responseBody: null });
    }, options.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ ok: false, statusCode: null, error: `${err.code ?? 'error'}: ${err.message}`.slice(0, 300), responseBody: null }));
    req.end(request.body);
  });
}
