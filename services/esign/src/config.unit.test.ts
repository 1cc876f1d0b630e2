import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { ConfigError } from '@firma-riesgo/service-kit';
import { loadConfig } from './config';

const KEY = Buffer.alloc(32, 7).toString('base64');

/** A throwaway self-signed CA certificate (PEM), made with node-forge. */
function selfSignedCaPem(commonName: string): string {
  const keys = forge.pki.rsa.generateKeyPair(1024);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '01';
  cert.validity.notBefore = new Date('2026-01-01T00:00:00Z');
  cert.validity.notAfter = new Date('2036-01-01T00:00:00Z');
  cert.setSubject([{ name: 'commonName', value: commonName }]);
  cert.setIssuer([{ name: 'commonName', value: commonName }]);
  cert.setExtensions([{ name: 'basicConstraints', cA: true }]);
  cert.sign(keys.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

describe('esign configuration', () => {
  it('runs on embedded defaults with no variables at all', () => {
    const config = loadConfig({ INIT_CWD: '/srv/app' });
    expect(config).toMatchObject({
      port: 8001,
      host: '0.0.0.0',
      databaseUrl: undefined,
      redisUrl: undefined,
      dataDir: '/srv/app/data',
      mailDir: '/srv/app/data/mail',
      publicUrl: 'http://localhost:8001',
      maxUploadBytes: 25 * 1024 * 1024,
      toolOutputBytes: 100 * 1024 * 1024,
      demoKey: true,
    });
  });

  it('fails fast naming every bad variable', () => {
    let error: unknown;
    try {
      loadConfig({ ESIGN_PORT: 'eighty', REDIS_URL: 'http://not-redis', WEBHOOK_ALLOW_PRIVATE: 'maybe' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('ESIGN_PORT');
    expect(message).toContain('REDIS_URL');
    expect(message).toContain('WEBHOOK_ALLOW_PRIVATE');
  });

  it('bounds every caller: per-tenant budgets and the DNS deadline, with defaults, positive integers only', () => {
    const defaults = loadConfig({});
    expect(defaults.tenantLimits).toEqual({ uploadsPerMinute: 60, requestsPerMinute: 30, requestsPerDay: 1_000, webhookCallsPerMinute: 30 });
    expect(defaults.webhooks.policy.dnsTimeoutMs).toBe(2_000);
    const set = loadConfig({ ESIGN_UPLOAD_RATE_LIMIT: '5', ESIGN_REQUEST_RATE_LIMIT: '6', ESIGN_REQUEST_DAILY_LIMIT: '7', ESIGN_WEBHOOK_RATE_LIMIT: '8', WEBHOOK_DNS_TIMEOUT_MS: '500' });
    expect(set.tenantLimits).toEqual({ uploadsPerMinute: 5, requestsPerMinute: 6, requestsPerDay: 7, webhookCallsPerMinute: 8 });
    expect(set.webhooks.policy.dnsTimeoutMs).toBe(500);
    expect(defaults.webhooks.policy.dnsServers).toBeUndefined();
    expect(loadConfig({ WEBHOOK_DNS_SERVERS: '10.0.0.53, 10.0.0.54:5353,[fd00::53]:53,::1' }).webhooks.policy.dnsServers).toEqual(['10.0.0.53', '10.0.0.54:5353', '[fd00::53]:53', '::1']);
    for (const bad of [{ ESIGN_UPLOAD_RATE_LIMIT: '0' }, { ESIGN_REQUEST_DAILY_LIMIT: 'lots' }, { WEBHOOK_DNS_TIMEOUT_MS: '10' }, { WEBHOOK_DNS_SERVERS: 'dns.example' }, { WEBHOOK_DNS_SERVERS: '10.0.0.1:99999' }]) {
      expect(() => loadConfig(bad)).toThrow(new RegExp(Object.keys(bad)[0]!));
    }
  });

  it('gives each PDF tool call an output budget of ESIGN_TOOL_OUTPUT_FACTOR times the upload limit (4 by default), refusing a factor of 0', () => {
    expect(loadConfig({ ESIGN_MAX_UPLOAD_MB: '10', ESIGN_TOOL_OUTPUT_FACTOR: '2.5' }).toolOutputBytes).toBe(25 * 1024 * 1024);
    expect(loadConfig({ ESIGN_MAX_UPLOAD_MB: '10' }).toolOutputBytes).toBe(40 * 1024 * 1024);
    expect(() => loadConfig({ ESIGN_TOOL_OUTPUT_FACTOR: '0' })).toThrow(/ESIGN_TOOL_OUTPUT_FACTOR/);
    expect(() => loadConfig({ ESIGN_TOOL_OUTPUT_FACTOR: 'lots' })).toThrow(/ESIGN_TOOL_OUTPUT_FACTOR/);
  });

  it('caches API-key lookups for 5 s, 10,000 keys at most, unless told otherwise (0 ms turns the cache off)', () => {
    expect(loadConfig({}).keyCache).toEqual({ ttlMs: 5_000, maxEntries: 10_000 });
    expect(loadConfig({ ESIGN_KEY_CACHE_MS: '0', ESIGN_KEY_CACHE_SIZE: '50' }).keyCache).toEqual({ ttlMs: 0, maxEntries: 50 });
    for (const bad of [{ ESIGN_KEY_CACHE_MS: '-1' }, { ESIGN_KEY_CACHE_MS: '5s' }, { ESIGN_KEY_CACHE_SIZE: '0' }]) {
      expect(() => loadConfig(bad)).toThrow(new RegExp(Object.keys(bad)[0]!));
    }
  });

  it('never creates a demo key against a real database', () => {
    expect(loadConfig({ ESIGN_DATABASE_URL: 'postgres://db/esign', ESIGN_AT_REST_KEY: KEY }).demoKey).toBe(false);
  });

  it('treats empty values as unset and strips a trailing slash from the public URL', () => {
    const config = loadConfig({ ESIGN_PORT: '', ESIGN_PUBLIC_URL: 'https://firma.example.es/' });
    expect(config.port).toBe(8001);
    expect(config.publicUrl).toBe('https://firma.example.es');
  });

  it('keeps files on the local disk by default, and with ESIGN_STORAGE=s3 needs the bucket and region (named in the error)', () => {
    expect(loadConfig({}).storage).toEqual({ kind: 'local' });
    expect(loadConfig({ ESIGN_STORAGE: 'postgres', ESIGN_DATABASE_URL: 'postgres://db/esign', SIGNING_P12_PATH: '/run/seal.p12', ESIGN_AT_REST_KEY: KEY }).storage).toEqual({ kind: 'postgres' });
    expect(() => loadConfig({ ESIGN_STORAGE: 'postgres' })).toThrow(/ESIGN_STORAGE: postgres needs ESIGN_DATABASE_URL/);
    expect(() => loadConfig({ ESIGN_STORAGE: 'disk' })).toThrow(/ESIGN_STORAGE: expected one of local, postgres, s3/);
    expect(() => loadConfig({ ESIGN_STORAGE: 's3' })).toThrow(ConfigError);
    expect(() => loadConfig({ ESIGN_STORAGE: 's3' })).toThrow(/S3_BUCKET: required when ESIGN_STORAGE=s3[\s\S]*S3_REGION: required/);
    const s3 = loadConfig({ ESIGN_STORAGE: 's3', S3_BUCKET: 'firma', S3_REGION: 'eu-south-2', S3_SSE: 'aws:kms', S3_SSE_KMS_KEY_ID: 'alias/firma', SIGNING_IDENTITY_KEY: KEY }).storage;
    expect(s3).toEqual({ kind: 's3', s3: { bucket: 'firma', region: 'eu-south-2', forcePathStyle: false, sse: 'aws:kms', sseKmsKeyId: 'alias/firma' } });
  });

  it('with shared storage, refuses to start without a P12 or SIGNING_IDENTITY_KEY (each instance would seal with its own self-signed key)', () => {
    const postgres = { ESIGN_STORAGE: 'postgres', ESIGN_DATABASE_URL: 'postgres://db/esign' };
    expect(() => loadConfig(postgres)).toThrow(ConfigError);
    expect(() => loadConfig(postgres)).toThrow(/ESIGN_STORAGE: postgres needs SIGNING_P12_PATH or SIGNING_IDENTITY_KEY/);
    expect(loadConfig({ ...postgres, SIGNING_IDENTITY_KEY: KEY }).signing.identityKey).toEqual(Buffer.alloc(32, 7));
    expect(() => loadConfig({ SIGNING_IDENTITY_KEY: 'c2hvcnQ=' })).toThrow(/SIGNING_IDENTITY_KEY: must be 32 bytes, base64-encoded/);
    // The embedded default still needs nothing.
    expect(loadConfig({}).signing.identityKey).toBeUndefined();
  });

  it('seals at B-LTA with a TSA and B-B without unless ESIGN_PADES_LEVEL says otherwise, and refuses a timestamped level without a TSA', () => {
    const tsa = { TSA_URL: 'https://tsa.example/tsr' };
    expect(loadConfig({}).signing.padesLevel).toBe('B-B');
    expect(loadConfig(tsa).signing.padesLevel).toBe('B-LTA');
    expect(loadConfig({ ...tsa, ESIGN_PADES_LEVEL: 'B-T' }).signing.padesLevel).toBe('B-T');
    expect(loadConfig({ ...tsa, ESIGN_PADES_LEVEL: 'B-LT', ESIGN_REVOCATION_ALLOWLIST: 'ocsp.internal', WEBHOOK_ALLOW_PRIVATE: 'true' }).signing.revocation).toMatchObject({
      allowPrivate: true,
      allowedHosts: ['ocsp.internal'],
      timeoutMs: 10_000,
    });
    expect(() => loadConfig({ ESIGN_PADES_LEVEL: 'B-T' })).toThrow(/ESIGN_PADES_LEVEL: B-T needs TSA_URL/);
    expect(() => loadConfig({ ...tsa, ESIGN_PADES_LEVEL: 'LTA' })).toThrow(/ESIGN_PADES_LEVEL/);
  });

  it('asks issuers for revocation data during verification unless ESIGN_VERIFY_FETCH_REVOCATION=false', () => {
    expect(loadConfig({}).verifyFetchRevocation).toBe(true);
    expect(loadConfig({ ESIGN_VERIFY_FETCH_REVOCATION: 'false' }).verifyFetchRevocation).toBe(false);
    expect(() => loadConfig({ ESIGN_VERIFY_FETCH_REVOCATION: 'sometimes' })).toThrow(/ESIGN_VERIFY_FETCH_REVOCATION/);
  });

  it('reads ESIGN_TRUST_ANCHORS as a PEM bundle, and stops the start on a missing file or one without readable certificates', () => {
    const dir = mkdtempSync(join(tmpdir(), 'esign-anchors-'));
    try {
      const [pemA, pemB] = [selfSignedCaPem('Anchor A'), selfSignedCaPem('Anchor B')];
      const [a, b] = [new X509Certificate(pemA).raw, new X509Certificate(pemB).raw];
      writeFileSync(join(dir, 'bundle.pem'), `comment\n${pemA}${pemB}`);
      writeFileSync(join(dir, 'empty.pem'), 'no certificates here\n');
      writeFileSync(join(dir, 'broken.pem'), '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
      expect(loadConfig({}).trustAnchorsDer).toEqual([]);
      expect(loadConfig({ INIT_CWD: dir, ESIGN_TRUST_ANCHORS: 'bundle.pem' }).trustAnchorsDer).toEqual([a, b]);
      expect(() => loadConfig({ INIT_CWD: dir, ESIGN_TRUST_ANCHORS: 'missing.pem' })).toThrow(/ESIGN_TRUST_ANCHORS: cannot read .*missing\.pem: ENOENT/);
      expect(() => loadConfig({ INIT_CWD: dir, ESIGN_TRUST_ANCHORS: 'empty.pem' })).toThrow(/ESIGN_TRUST_ANCHORS: .*holds no PEM certificate/);
      expect(() => loadConfig({ INIT_CWD: dir, ESIGN_TRUST_ANCHORS: 'broken.pem' })).toThrow(/ESIGN_TRUST_ANCHORS: .*certificate 1 cannot be read/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('with a real database, needs ESIGN_AT_REST_KEY or SIGNING_IDENTITY_KEY (API and workers must open the same outbox and check the same codes)', () => {
    const db = { ESIGN_DATABASE_URL: 'postgres://db/esign' };
    expect(() => loadConfig(db)).toThrow(ConfigError);
    expect(() => loadConfig(db)).toThrow(/ESIGN_AT_REST_KEY: required with ESIGN_DATABASE_URL/);
    expect(loadConfig({ ...db, ESIGN_AT_REST_KEY: KEY }).atRest).toMatchObject({ key: Buffer.alloc(32, 7), source: 'ESIGN_AT_REST_KEY' });
    const other = Buffer.alloc(32, 9).toString('base64');
    expect(loadConfig({ ...db, SIGNING_IDENTITY_KEY: other }).atRest).toMatchObject({ key: Buffer.alloc(32, 9), source: 'SIGNING_IDENTITY_KEY' });
    expect(loadConfig({ ...db, SIGNING_IDENTITY_KEY: other, ESIGN_AT_REST_KEY: KEY }).atRest.source).toBe('ESIGN_AT_REST_KEY');
    expect(() => loadConfig({ ESIGN_AT_REST_KEY: 'c2hvcnQ=' })).toThrow(/ESIGN_AT_REST_KEY: must be 32 bytes, base64-encoded/);
    // Embedded: a key generated on the first start, kept under DATA_DIR.
    expect(loadConfig({ INIT_CWD: '/srv/app' }).atRest).toEqual({ key: undefined, source: 'file', keyFile: '/srv/app/data/esign/secrets/at-rest.key' });
  });
});
