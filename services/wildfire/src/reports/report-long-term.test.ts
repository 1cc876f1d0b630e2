import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { ocspText, readDssWithQpdf, subjectOf } from '../../../../packages/pdf-core/src/signing/__tests__/dss-reader';
import { startOpensslPki, type OpensslPki } from '../../../../packages/pdf-core/src/signing/__tests__/openssl-pki';
import { expectErrorBody, startOpensslTsa, testConfig, verifyWithTools, type OpensslTsa } from '../__tests__/support';
import { startWildfire, type WildfireRuntime } from '../runtime';
import { reports } from './tables';

/**
 * Report seals at the default level with a TSA, PAdES B-LTA, sealed with a certificate from
 * a CA (a test PKI: root, intermediate, seal and TSA certificates, real OCSP responders and
 * CRLs on loopback), as an operator bringing a qualified seal would.
 */
describe('report seals that stay verifiable: B-LTA with a CA certificate', () => {
  let db: TestDatabase;
  let pki: OpensslPki;
  let tsa: OpensslTsa;
  let rt: WildfireRuntime;
  const now = new Date();

  const binary = (res: NodeJS.ReadableStream, done: (err: Error | null, body: Buffer) => void) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  };
  const post = async (body: object) => {
    const { token } = await rt.tokens.create({ account: 'ayto-lta', type: 'test', scopes: ['reports:write', 'reports:read'] });
    return request(rt.server!).post('/api/v1/report').set('Authorization', `Bearer ${token}`).send({ force: true, ...body }).buffer(true).parse(binary as never);
  };

  beforeAll(async () => {
    db = await createTestDatabase('wildfire_report_lta');
    pki = await startOpensslPki();
    tsa = await startOpensslTsa({ ...pki.tsa, caFile: pki.root });
    rt = await startWildfire(
      testConfig({
        WILDFIRE_DATABASE_URL: db.url,
        WILDFIRE_SIGNING_P12_PATH: pki.seal.p12,
        WILDFIRE_SIGNING_P12_PASSWORD: 'test',
        WILDFIRE_TSA_URL: tsa.url,
        // The test PKI's responders listen on loopback, which the outbound policy refuses unless listed.
        WILDFIRE_REVOCATION_ALLOWLIST: '127.0.0.1',
      }),
      'api',
      { clock: () => now },
    );
  }, 60_000);

  afterAll(async () => {
    await rt?.close();
    await tsa?.close();
    await pki?.close();
    await db?.drop();
  });

  it('seals with the seal and the TSA chains and their OCSP responses in the DSS, and a document timestamp over it all', async () => {
    const res = await post({ municipio_id: '41091', periodo: '2024-07' });
    expect(res.status).toBe(200);
    const pdf = res.body as Buffer;
    const checked = await verifyWithTools(pdf, { tsaCaFile: pki.root });
    expect(checked.pdfsig.stdout.split('Signature is Valid').length - 1).toBe(1);
    expect(checked.pdfsig.stdout).toMatch(/Signature #2:[\s\S]*Test PKI TSA[\s\S]*Total document signed/);
    const dss = readDssWithQpdf(pdf);
    expect(dss.signatures.map((s) => `${s.type} ${s.subFilter}`)).toEqual(expect.arrayContaining(['/Sig /ETSI.CAdES.detached', '/DocTimeStamp /ETSI.RFC3161']));
    expect(dss.certs.map(subjectOf).sort()).toEqual(
      ['subject=CN = Sello de prueba, O = Firma tests', 'subject=CN = Test PKI Intermediate, O = Firma tests', 'subject=CN = Test PKI Root, O = Firma tests', 'subject=CN = Test PKI TSA, O = Firma tests'].sort(),
    );
    const texts = dss.ocsps.map(ocspText);
    expect(texts).toHaveLength(3);
    for (const text of texts) expect(text).toContain('Cert Status: good');
  });

  it('fails the report (never a lower level) once the seal certificate is revoked, and keeps no file', async () => {
    await pki.revokeByIntermediate(pki.seal.cert);
    const res = await post({ municipio_id: '41091', periodo: '2024-06' });
    expectErrorBody({ ...res, body: JSON.parse((res.body as Buffer).toString('utf8')) }, 500, 'REPORT_FAILED', null);
    const [row] = (await rt.database.db.select().from(reports)).filter((r) => r.periodo === '2024-06');
    expect(row).toMatchObject({ status: 'failed', fileKey: null, error: expect.stringMatching(/revoked/) });
  });
});
