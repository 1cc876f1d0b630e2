import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/**
 * S3 bucket versioning for the test S3 server (s3rver has none), after the S3 API reference:
 * PutBucketVersioning / GetBucketVersioning, ListObjectVersions (`GET /{bucket}?versions`),
 * and in a bucket whose versioning is `Enabled`: every PUT (simple, copy, or a completed
 * multipart upload) makes a new version and answers its `x-amz-version-id`; DeleteObject
 * without a version id adds a delete marker and keeps the data; DeleteObject and
 * DeleteObjects with `VersionId` remove that version for good, and when it was the latest the
 * previous version becomes current again. Objects written before versioning was enabled are
 * the `null` version. Only path-style requests; `Suspended` is not implemented. Requests this
 * layer answers itself skip s3rver's signature check (the test server's credentials are fixed).
 *
 * s3rver keeps the current version as it always does (so GET, HEAD and ListObjectsV2 work
 * unchanged); noncurrent versions are copies of s3rver's files in a folder of their own.
 */

/** What s3rver's filesystem store offers that this layer uses. */
export interface VersionedStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  getMetadata(bucket: string, key: string): Promise<Record<string, string | number>>;
  existsObject(bucket: string, key: string): Promise<boolean>;
  deleteObject(bucket: string, key: string): Promise<void>;
  listObjects(bucket: string, options: { prefix?: string }): Promise<{ objects: { key: string; metadata: Record<string, string | number> }[] }>;
}

interface Version {
  versionId: string;
  deleteMarker: boolean;
  lastModified: Date;
  etag: string;
  size: number;
  /** Where a noncurrent object version's files were copied (the latest object version lives in s3rver's store). */
  stored?: string;
}

/** The subset of Koa's context this layer reads and writes. */
interface Ctx {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  req: AsyncIterable<Buffer>;
  status: number;
  body: unknown;
  type: string;
  set(field: string, value: string): void;
}

const XMLNS = 'http://s3.amazonaws.com/doc/2006-03-01/';
/** s3rver's files of one object. */
const RESOURCES = ['object', 'object.md5', 'metadata.json'];

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const unescapeXml = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
const newVersionId = () => randomBytes(24).toString('base64url');
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

async function readBody(ctx: Ctx): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

export function createS3Versioning(store: VersionedStore, versionsDir: string) {
  const status = new Map<string, 'Enabled'>();
  const versions = new Map<string, Version[]>();
  const id = (bucket: string, key: string) => `${bucket}\u0000${key}`;

  async function currentAsVersion(bucket: string, key: string, versionId: string): Promise<Version> {
    const meta = await store.getMetadata(bucket, key);
    return { versionId, deleteMarker: false, lastModified: new Date(String(meta['last-modified'])), etag: String(meta.etag), size: Number(meta['content-length']) };
  }

  /** The key's versions, newest first; an object written before versioning is the `null` version. */
  async function entries(bucket: string, key: string): Promise<Version[]> {
    let list = versions.get(id(bucket, key));
    if (!list) {
      list = (await store.existsObject(bucket, key)) ? [await currentAsVersion(bucket, key, 'null')] : [];
      versions.set(id(bucket, key), list);
    }
    return list;
  }

  const copyResources = async (from: (r: string) => string, to: (r: string) => string) => {
    for (const resource of RESOURCES) {
      await mkdir(dirname(to(resource)), { recursive: true });
      await copyFile(from(resource), to(resource)).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
    }
  };

  /** The latest version stops being current: its files are copied aside. */
  async function keepCurrent(bucket: string, key: string): Promise<void> {
    const latest = (await entries(bucket, key))[0];
    if (!latest || latest.deleteMarker || latest.stored || !(await store.existsObject(bucket, key))) return;
    const folder = join(versionsDir, randomBytes(8).toString('hex'));
    await copyResources((r) => store.getResourcePath(bucket, key, r), (r) => join(folder, r));
    latest.stored = folder;
  }

  /** The newest remaining version becomes current again (or the key stays absent behind a delete marker). */
  async function restoreLatest(bucket: string, key: string, list: Version[]): Promise<void> {
    const latest = list[0];
    if (!latest || latest.deleteMarker || !latest.stored) return;
    const folder = latest.stored;
    await copyResources((r) => join(folder, r), (r) => store.getResourcePath(bucket, key, r));
    await rm(folder, { recursive: true, force: true });
    delete latest.stored;
  }

  async function addDeleteMarker(bucket: string, key: string): Promise<Version> {
    await keepCurrent(bucket, key);
    if (await store.existsObject(bucket, key)) await store.deleteObject(bucket, key);
    const marker: Version = { versionId: newVersionId(), deleteMarker: true, lastModified: new Date(), etag: '', size: 0 };
    (await entries(bucket, key)).unshift(marker);
    return marker;
  }

  /** Removes one version for good; answers it, or null when there was no such version. */
  async function deleteVersion(bucket: string, key: string, versionId: string): Promise<Version | null> {
    const list = await entries(bucket, key);
    const index = list.findIndex((v) => v.versionId === versionId);
    if (index === -1) return null;
    const [removed] = list.splice(index, 1);
    if (removed!.stored) await rm(removed!.stored, { recursive: true, force: true });
    else if (index === 0 && !removed!.deleteMarker) await store.deleteObject(bucket, key);
    if (index === 0) await restoreLatest(bucket, key, list);
    if (list.length === 0) versions.delete(id(bucket, key));
    return removed!;
  }

  /** Every version and delete marker under `prefix`, by key, newest first within a key. */
  async function allVersions(bucket: string, prefix: string): Promise<{ key: string; version: Version; isLatest: boolean }[]> {
    const keys = new Set<string>();
    for (const object of (await store.listObjects(bucket, { prefix })).objects) keys.add(object.key);
    for (const k of versions.keys()) {
      const [b, key] = k.split('\u0000') as [string, string];
      if (b === bucket && key.startsWith(prefix)) keys.add(key);
    }
    const out: { key: string; version: Version; isLatest: boolean }[] = [];
    for (const key of [...keys].sort()) {
      const list = versions.get(id(bucket, key)) ?? ((await store.existsObject(bucket, key)) ? [await currentAsVersion(bucket, key, 'null')] : []);
      list.forEach((version, i) => out.push({ key, version, isLatest: i === 0 }));
    }
    return out;
  }

  async function listObjectVersions(ctx: Ctx, bucket: string): Promise<void> {
    const prefix = one(ctx.query.prefix) ?? '';
    const keyMarker = one(ctx.query['key-marker']) ?? '';
    const versionIdMarker = one(ctx.query['version-id-marker']) ?? '';
    const maxKeys = Math.min(1000, Math.max(0, Number(one(ctx.query['max-keys']) ?? 1000)));
    let all = await allVersions(bucket, prefix);
    if (keyMarker) {
      // After the marker: later keys, and (with a version id marker) the marker key's older versions.
      const markerIndex = versionIdMarker ? all.findIndex((v) => v.key === keyMarker && v.version.versionId === versionIdMarker) : -1;
      all = markerIndex >= 0 ? all.slice(markerIndex + 1) : all.filter((v) => v.key > keyMarker);
    }
    const page = all.slice(0, maxKeys);
    const truncated = all.length > page.length;
    const last = page[page.length - 1];
    const rows = page.map(({ key, version, isLatest }) =>
      version.deleteMarker
        ? `<DeleteMarker><Key>${escapeXml(key)}</Key><VersionId>${version.versionId}</VersionId><IsLatest>${isLatest}</IsLatest><LastModified>${version.lastModified.toISOString()}</LastModified></DeleteMarker>`
        : `<Version><Key>${escapeXml(key)}</Key><VersionId>${version.versionId}</VersionId><IsLatest>${isLatest}</IsLatest><LastModified>${version.lastModified.toISOString()}</LastModified><ETag>${escapeXml(version.etag)}</ETag><Size>${version.size}</Size><StorageClass>STANDARD</StorageClass></Version>`,
    );
    ctx.type = 'application/xml';
    ctx.status = 200;
    ctx.body =
      `<?xml version="1.0" encoding="UTF-8"?>\n<ListVersionsResult xmlns="${XMLNS}"><Name>${escapeXml(bucket)}</Name><Prefix>${escapeXml(prefix)}</Prefix>` +
      `<KeyMarker>${escapeXml(keyMarker)}</KeyMarker><VersionIdMarker>${escapeXml(versionIdMarker)}</VersionIdMarker><MaxKeys>${maxKeys}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
      (truncated && last ? `<NextKeyMarker>${escapeXml(last.key)}</NextKeyMarker><NextVersionIdMarker>${last.version.versionId}</NextVersionIdMarker>` : '') +
      `${rows.join('')}</ListVersionsResult>`;
  }

  async function deleteObjects(ctx: Ctx, bucket: string): Promise<void> {
    const body = await readBody(ctx);
    const quiet = /<Quiet>\s*true\s*<\/Quiet>/i.test(body);
    const results: string[] = [];
    for (const [, object] of body.matchAll(/<Object>([\s\S]*?)<\/Object>/g)) {
      const key = unescapeXml(/<Key>([\s\S]*?)<\/Key>/.exec(object!)?.[1] ?? '');
      const versionId = /<VersionId>([\s\S]*?)<\/VersionId>/.exec(object!)?.[1];
      if (versionId !== undefined) {
        const removed = await deleteVersion(bucket, key, versionId);
        const marker = removed?.deleteMarker ? `<DeleteMarker>true</DeleteMarker><DeleteMarkerVersionId>${versionId}</DeleteMarkerVersionId>` : '';
        if (!quiet) results.push(`<Deleted><Key>${escapeXml(key)}</Key><VersionId>${escapeXml(versionId)}</VersionId>${marker}</Deleted>`);
      } else {
        const marker = await addDeleteMarker(bucket, key);
        if (!quiet) results.push(`<Deleted><Key>${escapeXml(key)}</Key><DeleteMarker>true</DeleteMarker><DeleteMarkerVersionId>${marker.versionId}</DeleteMarkerVersionId></Deleted>`);
      }
    }
    ctx.type = 'application/xml';
    ctx.status = 200;
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<DeleteResult xmlns="${XMLNS}">${results.join('')}</DeleteResult>`;
  }

  /** Koa middleware, placed before s3rver's router. */
  return async function s3Versioning(ctx: Ctx, next: () => Promise<unknown>): Promise<void> {
    const [bucket, ...parts] = ctx.path.split('/').slice(1).map((p) => decodeURIComponent(p));
    if (!bucket) return void (await next());
    const key = parts.join('/');
    const q = ctx.query;
    if (!key) {
      if ('versioning' in q && ctx.method === 'PUT') {
        const wanted = /<Status>\s*(\w+)\s*<\/Status>/.exec(await readBody(ctx))?.[1];
        if (wanted !== 'Enabled') {
          ctx.status = 501;
          ctx.type = 'application/xml';
          ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NotImplemented</Code><Message>Only Status Enabled is implemented by the test server</Message></Error>`;
          return;
        }
        status.set(bucket, 'Enabled');
        ctx.status = 200;
        ctx.body = '';
        return;
      }
      if ('versioning' in q && ctx.method === 'GET') {
        ctx.type = 'application/xml';
        ctx.status = 200;
        ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<VersioningConfiguration xmlns="${XMLNS}">${status.has(bucket) ? '<Status>Enabled</Status>' : ''}</VersioningConfiguration>`;
        return;
      }
      if ('versions' in q && ctx.method === 'GET') return listObjectVersions(ctx, bucket);
      if ('delete' in q && ctx.method === 'POST' && status.has(bucket)) return deleteObjects(ctx, bucket);
      return void (await next());
    }
    if (!status.has(bucket)) return void (await next());
    if (ctx.method === 'DELETE' && !('tagging' in q)) {
      const versionId = one(q.versionId);
      if (versionId !== undefined) {
        const removed = await deleteVersion(bucket, key, versionId);
        ctx.set('x-amz-version-id', versionId);
        if (removed?.deleteMarker) ctx.set('x-amz-delete-marker', 'true');
      } else {
        const marker = await addDeleteMarker(bucket, key);
        ctx.set('x-amz-version-id', marker.versionId);
        ctx.set('x-amz-delete-marker', 'true');
      }
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    // A write that makes a new current object: PutObject, CopyObject, CompleteMultipartUpload.
    // (The SDK adds `x-id=<Operation>` to the query; it names no subresource.)
    const subresources = Object.keys(q).filter((name) => name !== 'x-id');
    const writes = (ctx.method === 'PUT' && subresources.length === 0) || (ctx.method === 'POST' && 'uploadId' in q);
    if (!writes) return void (await next());
    await keepCurrent(bucket, key);
    let failed: unknown;
    try {
      await next();
    } catch (err) {
      failed = err;
    }
    const list = await entries(bucket, key);
    if (!failed && ctx.status === 200 && (await store.existsObject(bucket, key))) {
      const version = await currentAsVersion(bucket, key, newVersionId());
      list.unshift(version);
      ctx.set('x-amz-version-id', version.versionId);
    } else if (list[0]?.stored) {
      // The write failed: the copy aside is not needed, the current object is unchanged.
      await rm(list[0].stored, { recursive: true, force: true });
      delete list[0].stored;
    }
    if (failed) throw failed;
  };
}
