import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/** The address a URL may be fetched from, after the caller's outbound policy checked it. */
export interface OutboundTarget {
  address: string;
  family: 4 | 6;
}

/**
 * The outbound policy for revocation fetching (the same as webhooks'): checks a URL and
 * resolves it once, or throws. The fetch then connects to that address only (no second
 * resolution a rebinding DNS could answer differently).
 */
export type OutboundCheck = (url: string) => Promise<OutboundTarget>;

export class RevocationFetchError extends Error {}

export interface FetchOptions {
  method: 'GET' | 'POST';
  body?: Buffer;
  contentType?: string;
  accept: string;
  timeoutMs: number;
  maxBytes: number;
  check?: OutboundCheck;
}

/** One HTTP(S) exchange: no redirects, a deadline for the whole of it, a size cap on the answer. */
export async function fetchBytes(url: string, options: FetchOptions): Promise<Buffer> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new RevocationFetchError(`${url}: only http and https are fetched`);
  const target = options.check ? await options.check(url) : undefined;
  const lookup: LookupFunction | undefined = target
    ? (_host, opts, callback) => {
        if ((opts as { all?: boolean }).all) (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [target]);
        else callback(null, target.address, target.family);
      }
    : undefined;
  const client = parsed.protocol === 'https:' ? https : http;
  return new Promise<Buffer>((resolve, reject) => {
    const request = client.request(
      parsed,
      {
        method: options.method,
        headers: {
          accept: options.accept,
          ...(options.body ? { 'content-type': options.contentType ?? 'application/octet-stream', 'content-length': options.body.length } : {}),
        },
        ...(lookup ? { lookup } : {}),
        timeout: options.timeoutMs,
      },
      (response) => {
        if (response.statusCode !== 200) {
          response.resume();
          reject(new RevocationFetchError(`${url} answered HTTP ${response.statusCode}`));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            request.destroy(new RevocationFetchError(`${url} answered more than ${options.maxBytes} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve(Buffer.concat(chunks)));
        response.on('error', reject);
      },
    );
    const deadline = setTimeout(() => request.destroy(new RevocationFetchError(`${url} did not answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('timeout', () => request.destroy(new RevocationFetchError(`${url} did not answer within ${options.timeoutMs} ms`)));
    request.on('error', (err) => reject(err instanceof RevocationFetchError ? err : new RevocationFetchError(`${url}: ${err.message}`)));
    request.on('close', () => clearTimeout(deadline));
    request.end(options.body);
  });
}
