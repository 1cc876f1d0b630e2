import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { constants as zlib, createBrotliCompress, createGzip } from 'node:zlib';
import type { Request, Response } from 'express';
import { nextRunAfter } from '@firma-riesgo/service-kit';
import { SCHEDULE_TIME_ZONE } from '../config';
import { LruCache } from '../synthetic/lru-cache';

/** The content codings offered, best first; `identity` when the client accepts neither. */
const ENCODINGS = ['br', 'gzip', 'identity'] as const;
type Encoding = (typeof ENCODINGS)[number];
const TAG_SUFFIX: Record<Encoding, string> = { br: '-br', gzip: '-gz', identity: '' };
/** Brotli quality 5: about gzip's speed, a fifth smaller on this data; 11 (the default) costs ten times the time. */
const BROTLI_QUALITY = 5;

export interface CachedAnswer {
  contentType: string;
  /** What the representation is made from: its digest is the strong ETag. */
  validator: Iterable<string>;
  lastModified: Date | null;
  /** Seconds a client may reuse it (until the next expected ingestion). */
  maxAgeSeconds: number;
  body: () => Iterable<string>;
}

/** Seconds from `now` to the next expected ingestion (WILDFIRE_INGESTION_CRON, Madrid time), at least 1. */
export function secondsToNextIngestion(cron: string, now: Date): number {
  return Math.max(1, Math.ceil((nextRunAfter({ pattern: cron, tz: SCHEDULE_TIME_ZONE }, now).getTime() - now.getTime()) / 1000));
}

/** A strong validator: the SHA-256 of the parts (base64url, 22 characters: 132 bits). */
export function digestOf(parts: Iterable<string>): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  return hash.digest('base64url').slice(0, 22);
}

/** A representation kept for every caller of the same content version: its tag, and its bytes per content coding, compressed once. */
interface SharedAnswer {
  tag: string;
  encoded: Partial<Record<Exclude<Encoding, 'identity'>, Promise<Buffer>>>;
}

/** Representations kept per instance, by content version and media type (at most `capacity`, least recently used out). */
export function createSharedAnswers(capacity: number) {
  return new LruCache<string, SharedAnswer>(capacity);
}

export type SharedAnswers = ReturnType<typeof createSharedAnswers>;

const compressor = (encoding: Exclude<Encoding, 'identity'>) =>
  encoding === 'br' ? createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } }) : createGzip();

/** The body compressed whole, chunk by chunk (never one string), into one buffer. */
async function compressWhole(body: Iterable<string>, encoding: Exclude<Encoding, 'identity'>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  await pipeline(Readable.from(body, { objectMode: false }), compressor(encoding), async (compressed: AsyncIterable<Buffer>) => {
    for await (const chunk of compressed) chunks.push(chunk);
  });
  return Buffer.concat(chunks);
}

/**
 * Answers a representation with a strong ETag (per content coding, RFC 9110 §8.8.3),
 * Last-Modified, `Cache-Control: private, max-age` and `Vary`, or 304 when the request's
 * If-None-Match (or, without it, If-Modified-Since) says the client has it. The body is
 * compressed with brotli or gzip as Accept-Encoding prefers, written chunk by chunk
 * under the socket's back-pressure. With `shared` (content every caller of that version
 * sees alike), the tag is computed once and the compressed bytes are made once per
 * content coding and kept; an uncompressed answer is still streamed.
 */
export async function sendCached(req: Request, res: Response, answer: CachedAnswer, shared?: { answers: SharedAnswers; key: string }): Promise<void> {
  const accepted = req.acceptsEncodings([...ENCODINGS]);
  const encoding: Encoding = accepted === 'br' || accepted === 'gzip' ? accepted : 'identity';
  let kept = shared?.answers.get(shared.key);
  if (shared && !kept) shared.answers.set(shared.key, (kept = { tag: digestOf(answer.validator), encoded: {} }));
  res.setHeader('Content-Type', answer.contentType);
  res.setHeader('ETag', `"${kept?.tag ?? digestOf(answer.validator)}${TAG_SUFFIX[encoding]}"`);
  if (answer.lastModified) res.setHeader('Last-Modified', answer.lastModified.toUTCString());
  // private: the answer depends on the token (its municipality list); shared caches must not keep it.
  res.setHeader('Cache-Control', `private, max-age=${answer.maxAgeSeconds}`);
  res.vary('Accept').vary('Accept-Encoding').vary('Authorization');
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.status(200);
  if (encoding !== 'identity') res.setHeader('Content-Encoding', encoding);
  if (kept && encoding !== 'identity') {
    // Compressed once per version and coding; concurrent first requests share the one compression.
    const pending = (kept.encoded[encoding] ??= compressWhole(answer.body(), encoding));
    const bytes = await pending.catch((err: unknown) => {
      if (kept.encoded[encoding] === pending) delete kept.encoded[encoding];
      throw err;
    });
    res.setHeader('Content-Length', bytes.length);
    res.end(bytes);
    return;
  }
  const source = Readable.from(answer.body(), { objectMode: false });
  try {
    if (encoding === 'identity') await pipeline(source, res);
    else await pipeline(source, compressor(encoding), res);
  } catch (err) {
    // A client that goes away mid-answer: the pipeline has closed the response; nothing more can be said to it.
    if (!res.headersSent) throw err;
  }
}
