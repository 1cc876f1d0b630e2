import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import request from 'supertest';
import { generateSelfSignedPkcs12, loadPkcs12 } from '@firma-riesgo/pdf-core';
import { createTestDatabase, uniquePrefix, clearRedisPrefix, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { startEsign, type EsignRuntime } from '../runtime';
import { shortTempDir, testConfig } from '../__tests__/support';

/**
 * One sealing identity for every instance: without SIGNING_P12_PATH but with
 * SIGNING_IDENTITY_KEY, the self-signed identity lives once in esign's database, encrypted.
 */
const KEY = Buffer.alloc(32, 0x5a).toString('base64');
const REDIS_URL = 'redis://127.0.0.1:6379';
const sha256 = (der: Buffer) => createHash('sha256').update(der).digest('hex');

/** The `signing_identity` rows as Postgres holds them. */
async function storedRows(db: TestDatabase) {
  const client = new Client({ connectionString: db.url });
  await client.connect();
  try {
    return (await client.query<{ name: string; p12_encrypted: Buffer; certificate_sha256: string; origin: string }>('select * from signing_identity')).rows;
  } finally {
    await client.end();
  }
}

describe('the sealing identity', () => {
  const runtimes: EsignRuntime[] = [];
  const dirs: string[] = [];
  const databases: TestDatabase[] = [];
  const prefixes: string[] = [];

  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((rt) => rt.close()));
    await Promise.all(databases.splice(0).map((db) => db.drop()));
    await Promise.all(prefixes.splice(0).map((prefix) => clearRedisPrefix(prefix)));
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const newDatabase = async () => {
    const db = await createTestDatabase('esign_identity');
    databases.push(db);
    return db;
  };
  const newDataDir = () => {
    const dir = shortTempDir();
    dirs.push(dir);
    return dir;
  };
  const start = async (role: 'api' | 'worker' | 'cli', env: Record<string, string>) => {
    const rt = await startEsign(testConfig(env), role);
    runtimes.push(rt);
    return rt;
  };

  it('is generated once and shared: an API and a worker started together on one Postgres seal with the same certificate, stored only encrypted', async () => {
    const db = await newDatabase();
    const prefix = uniquePrefix();
    prefixes.push(prefix);
    const common = { ESIGN_DATABASE_URL: db.url, REDIS_URL, QUEUE_PREFIX: prefix, SIGNING_IDENTITY_KEY: KEY, ESIGN_STORAGE: 'postgres' };
    const [dirA, dirB] = [newDataDir(), newDataDir()];
    const [api, worker] = await Promise.all([start('api', { ...common, DATA_DIR: dirA }), start('worker', { ...common, DATA_DIR: dirB })]);

    expect(api.signing.identity.certificateDer.equals(worker.signing.identity.certificateDer)).toBe(true);
    expect(api.signing.identity.selfSigned).toBe(true);
    const health = await request(api.server!).get('/health');
    expect(health.status).toBe(200);
    expect(health.body.signing).toEqual({ self_signed: true, tsa: false, certificate_sha256: sha256(api.signing.identity.certificateDer) });

    const rows = await storedRows(db);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: 'seal', origin: 'generated', certificate_sha256: sha256(api.signing.identity.certificateDer) });
    // Not a readable PKCS#12: nothing of it (not even the certificate) shows through the encryption.
    await expect(loadPkcs12(rows[0]!.p12_encrypted, undefined)).rejects.toThrow(/Cannot read the PKCS#12/);
    expect(rows[0]!.p12_encrypted.includes(api.signing.identity.certificateDer.subarray(0, 64))).toBe(false);
    // Nothing on either instance's disk.
    expect(existsSync(join(dirA, 'esign', 'signing'))).toBe(false);
    expect(existsSync(join(dirB, 'esign', 'signing'))).toBe(false);

    // A later instance (or a restart) reads the same row.
    const later = await start('cli', { ...common, DATA_DIR: newDataDir() });
    expect(later.signing.identity.certificateDer.equals(api.signing.identity.certificateDer)).toBe(true);
  });

  it('imports the self-signed file an existing deployment generated under DATA_DIR, so its sealed documents keep verifying with the same certificate', async () => {
    const db = await newDatabase();
    const dataDir = newDataDir();
    mkdirSync(join(dataDir, 'esign', 'signing'), { recursive: true });
    const oldP12 = generateSelfSignedPkcs12({ commonName: 'esign service seal (self-signed)' });
    writeFileSync(join(dataDir, 'esign', 'signing', 'self-signed-seal.p12'), oldP12, { mode: 0o600 });
    const old = await loadPkcs12(oldP12, undefined);

    const rt = await start('cli', { ESIGN_DATABASE_URL: db.url, SIGNING_IDENTITY_KEY: KEY, DATA_DIR: dataDir });
    expect(rt.signing.identity.certificateDer.equals(old.certificateDer)).toBe(true);
    const rows = await storedRows(db);
    expect(rows.map(({ origin, certificate_sha256 }) => ({ origin, certificate_sha256 }))).toEqual([{ origin: 'imported', certificate_sha256: sha256(old.certificateDer) }]);
    // A second instance with a DATA_DIR of its own gets the imported one too.
    const other = await start('cli', { ESIGN_DATABASE_URL: db.url, SIGNING_IDENTITY_KEY: KEY, DATA_DIR: newDataDir() });
    expect(other.signing.identity.certificateDer.equals(old.certificateDer)).toBe(true);
  });

  it('refuses to start with a different SIGNING_IDENTITY_KEY than the identity was stored with, naming the variable', async () => {
    const db = await newDatabase();
    const first = await start('cli', { ESIGN_DATABASE_URL: db.url, SIGNING_IDENTITY_KEY: KEY, DATA_DIR: newDataDir() });
    const [stored] = await storedRows(db);
    await first.close();
    runtimes.splice(runtimes.indexOf(first), 1);

    const otherKey = Buffer.alloc(32, 0x11).toString('base64');
    await expect(startEsign(testConfig({ ESIGN_DATABASE_URL: db.url, SIGNING_IDENTITY_KEY: otherKey, DATA_DIR: newDataDir() }), 'cli')).rejects.toThrow(
      /SIGNING_IDENTITY_KEY does not open the sealing identity stored in the database/,
    );
    // The stored identity is left as it was.
    const after = await storedRows(db);
    expect(after).toHaveLength(1);
    expect(after[0]!.p12_encrypted.equals(stored!.p12_encrypted)).toBe(true);
  });

  it('with a configured P12, /health reports that certificate and the database keeps no identity', async () => {
    const db = await newDatabase();
    const dir = newDataDir();
    mkdirSync(dir, { recursive: true });
    const p12Path = join(dir, 'operator.p12');
    writeFileSync(p12Path, generateSelfSignedPkcs12({ commonName: 'Operator seal' }));
    const expected = sha256((await loadPkcs12(readFileSync(p12Path), undefined)).certificateDer);

    const rt = await start('api', { ESIGN_DATABASE_URL: db.url, SIGNING_P12_PATH: p12Path, SIGNING_IDENTITY_KEY: KEY, DATA_DIR: dir });
    const health = await request(rt.server!).get('/health');
    expect(health.body.signing).toEqual({ self_signed: false, tsa: false, certificate_sha256: expected });
    // The OpenAPI document (generated from the zod schema) describes the field.
    const doc = await request(rt.server!).get('/openapi.json');
    const found: unknown[] = [];
    JSON.stringify(doc.body, (name, value: unknown) => {
      if (name === 'certificate_sha256') found.push(value);
      return value;
    });
    expect(found).toEqual([expect.objectContaining({ type: 'string', pattern: '^[0-9a-f]{64}$', description: expect.stringContaining('SHA-256 of the sealing certificate') })]);
    expect(await storedRows(db)).toHaveLength(0);
  });
});
