import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { expectErrorBody, shortTempDir, startOpensslTsa, testConfig, verifyWithTools, type OpensslTsa } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { reports } from './tables';

/** Report seals with the operator's own certificate (WILDFIRE_SIGNING_P12_PATH) and a real RFC 3161 TSA (WILDFIRE_TSA_URL). */
describe('report seals with an operator certificate and a TSA', () => {
  let db: TestDatabase;
  let tsa: OpensslTsa;
  let rt: WildfireRuntime;
  const now = new Date('2025-08-10T10:00:00Z');

  const binary = (res: NodeJS.ReadableStream, done: (err: Error | null, body: Buffer) => void) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  };
  const post = async (body: object) => {
    const { token } = await rt.tokens.create({ account: 'ayto-sello', type: 'test', scopes: ['reports:write', 'reports:read'] });
    return request(rt.server!)
      .post('/api/v1/report')
      .set('Authorization', `Bearer ${token}`)
      .send({ force: true, ...body })
      .buffer(true)
      .parse(binary as never);
  };

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_report_seal');
    tsa = await startOpensslTsa();
    // The operator's PKCS#12, made as a CA-less operator would with openssl, protected by a password.
    const dir = shortTempDir();
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '30', '-subj', '/CN=Ayuntamiento de prueba/O=Ops'], { stdio: 'ignore' });
    execFileSync('openssl', [
      'pkcs12', '-export', '-inkey', join(dir, 'key.pem'), '-in', join(dir, 'cert.pem'), '-out', join(dir, 'seal.p12'), '-passout', 'pass:s3cret',
      '-keypbe', 'PBE-SHA1-3DES', '-certpbe', 'PBE-SHA1-3DES', '-macalg', 'sha1',
    ], { stdio: 'ignore' });
    // No REDIS_URL: embedded jobs, so the same process renders and seals.
    rt = await startWildfire(
      testConfig({ WILDFIRE_DATABASE_URL: db.url, WILDFIRE_SIGNING_P12_PATH: join(dir, 'seal.p12'), WILDFIRE_SIGNING_P12_PASSWORD: 's3cret', WILDFIRE_TSA_URL: tsa.url, WILDFIRE_PADES_LEVEL: 'B-T' }),
      'api',
      { clock: () => now },
    );
  });

  afterAll(async () => {
    await rt?.close();
    await tsa?.close();
    await db?.drop();
  });

  it('seals PAdES B-T: pdfsig finds the operator’s signature valid over the whole file, and openssl verifies its timestamp against the TSA’s root', async () => {
    tsa.mode = 'ok';
    const res = await post({ municipio_id: '41091', periodo: '2024-07' });
    expect(res.status).toBe(200);
    const checked = await verifyWithTools(res.body as Buffer, { tsaCaFile: tsa.caFile });
    expect(checked.pdfsig.stdout).toContain('Signature is Valid');
    expect(checked.pdfsig.stdout).toContain('Total document signed');
    expect(checked.pdfsig.stdout).toContain('Signer Certificate Common Name: Ayuntamiento de prueba');
    expect(checked.ts).toHaveLength(1);
    expect([checked.ts[0]!.code, checked.ts[0]!.stdout.trim()]).toEqual([0, 'Verification: OK']);
    // The operator's certificate here has no CA, and /health says so.
    expect((await request(rt.server!).get('/health')).body.signing).toEqual({ self_signed: true, tsa: true });
  });

  it('never falls back to an untimestamped seal: with the TSA down the report fails (500 REPORT_FAILED) and keeps no file', async () => {
    tsa.mode = 'unavailable';
    const res = await post({ municipio_id: '41091', periodo: '2024-06' });
    expectErrorBody({ ...res, body: JSON.parse((res.body as Buffer).toString('utf8')) }, 500, 'REPORT_FAILED', null);
    const [row] = (await rt.database.db.select().from(reports)).filter((r) => r.periodo === '2024-06');
    expect(row).toMatchObject({ status: 'failed', fileKey: null, error: expect.stringMatching(/TSA|timestamp/i) });
  });

  it('refuses to start with a wrong PKCS#12 password', async () => {
    const config = testConfig({ WILDFIRE_DATABASE_URL: db.url, WILDFIRE_SIGNING_P12_PATH: rt.config.signing.p12Path, WILDFIRE_SIGNING_P12_PASSWORD: 'wrong' });
    await expect(startWildfire(config, 'api', { clock: () => now })).rejects.toThrow(/PKCS#12/);
  });
});
