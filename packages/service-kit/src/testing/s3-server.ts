import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { mkdir, rename, unlink } from 'node:fs/promises';
import crypto, { createHash, randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import S3rver from 's3rver';
import type { S3Settings } from '../storage/s3-blob-store';
import { createS3Versioning, type VersionedStore } from './s3-versioning';

/**
 * An S3-protocol server (s3rver) on loopback for tests, with one empty bucket and its
 * objects in a temp folder; `settings` are what S3_* would configure. Bucket versioning
 * (PutBucketVersioning, ListObjectVersions, versioned deletes) comes from `s3-versioning.ts`.
 */
export interface TestS3Server {
  settings: S3Settings;
  close(): Promise<void>;
}

interface S3rverStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObject(object: { bucket: string; key: string; content: Buffer | Readable; metadata: unknown }): Promise<{ size: number; md5: string }>;
}

/**
 * S3 replaces an object atomically (readers and concurrent writers see one whole
 * object); s3rver writes in place and answers before the file is flushed. The
 * stand-in gets S3's behaviour: a complete temp file, then a rename.
 */
function makePutsAtomic(store: S3rverStore): void {
  store.putObject = async (object) => {
    const path = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    const md5 = createHash('md5');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        md5.update(chunk);
        size += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(Buffer.isBuffer(object.content) ? Readable.from([object.content]) : object.content, count, createWriteStream(temp));
      await rename(temp, path);
    } catch (err) {
      await unlink(temp).catch(() => undefined);
      throw err;
    }
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    return { size, md5: digest };
  };
}

/**
 * s3rver signs ListObjectsV2 continuation tokens with single DES, which OpenSSL 3 no
 * longer offers, so any listing of more than 1,000 keys failed with InternalError.
 * Triple DES with the key repeated three times is, by definition, single DES; only
 * the `des` cipher is mapped, every other algorithm goes through untouched.
 */
function allowSingleDes(): void {
  const marked = crypto as unknown as { __s3rverDes?: boolean };
  if (marked.__s3rverDes) return;
  marked.__s3rverDes = true;
  const tripled = (key: crypto.CipherKey) => Buffer.concat([key as Buffer, key as Buffer, key as Buffer]);
  type Factory = (algorithm: string, key: crypto.CipherKey, ...rest: unknown[]) => unknown;
  const wrap = (original: Factory): Factory => (algorithm, key, ...rest) => (algorithm === 'des' ? original('des-ede3-cbc', tripled(key), ...rest) : original(algorithm, key, ...rest));
  const cipher = crypto.createCipheriv as unknown as Factory;
  const decipher = crypto.createDecipheriv as unknown as Factory;
  crypto.createCipheriv = wrap(cipher) as unknown as typeof crypto.createCipheriv;
  crypto.createDecipheriv = wrap(decipher) as unknown as typeof crypto.createDecipheriv;
}

export async function startTestS3Server(bucket = 'test-blobs'): Promise<TestS3Server> {
  const directory = mkdtempSync(join(tmpdir(), 's3rver-'));
  const versionsDir = mkdtempSync(join(tmpdir(), 's3rver-versions-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs: [] }] });
  const store = (server as unknown as { store: S3rverStore & VersionedStore }).store;
  makePutsAtomic(store);
  // Before s3rver's router (the last middleware), so versioned requests are answered here.
  const app = server as unknown as { middleware: unknown[] };
  app.middleware.splice(app.middleware.length - 1, 0, createS3Versioning(store, versionsDir));
  allowSingleDes();
  const address = await server.run();
  return {
    settings: {
      endpoint: `http://127.0.0.1:${address.port}`,
      bucket,
      region: 'us-east-1',
      // s3rver's fixed test credentials.
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      forcePathStyle: true,
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
      rmSync(versionsDir, { recursive: true, force: true });
    },
  };
}
