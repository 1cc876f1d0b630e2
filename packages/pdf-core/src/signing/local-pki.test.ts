import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument } from 'pdf-lib';
import { generateSelfSignedPkcs12, loadPkcs12, type SigningIdentity } from './identity';
import { answerOcspRequest, issueLocalCrl, serialHexOf, type LocalCertStatus } from './local-pki-responder';
import { LOCAL_PKI_PATHS } from './local-pki';
import { sealPdf } from './pades';
import { createRevocationClient, RevocationError } from './revocation-client';
import { createTsaClient } from './tsa-client';
import { ocspText, readDssWithQpdf, subjectOf } from './__tests__/dss-reader';
import { startOpensslPki, type OpensslPki } from './__tests__/openssl-pki';
import { startOpensslTsa, type OpensslTsa } from './__tests__/openssl-tsa';

const run = promisify(execFile);
const pem = (der: Buffer) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;

describe('the self-signed identity: a local root, a document-signing certificate, and its own OCSP responder and CRL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'local-pki-'));
  let server: Server;
  let base: string;
  let identity: SigningIdentity;
  let status: LocalCertStatus = { status: 'good' };
  /** Another identity's root: answers signed with it are forgeries for this identity's certificates. */
  let stranger: SigningIdentity;
  let forge: { ocsp: boolean; crl: boolean } = { ocsp: false, crl: false };
  const served = { ocsp: 0, crl: 0 };

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const sealSerial = serialHexOf(identity.certificate.serialNumber);
        const now = new Date();
        if (req.method === 'POST' && req.url === LOCAL_PKI_PATHS.ocsp) {
          const root = (forge.ocsp ? stranger : identity).localRoot!;
          served.ocsp += 1;
          void answerOcspRequest(Buffer.concat(chunks), { root, now, validityMs: 60 * 60 * 1000, statusOf: (serial) => (serial === sealSerial ? status : { status: 'unknown' }) }).then((der) =>
            res.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(der),
          );
        } else if (req.url === LOCAL_PKI_PATHS.crl) {
          const root = (forge.crl ? stranger : identity).localRoot!;
          served.crl += 1;
          const revoked = status.status === 'revoked' ? [{ serialHex: sealSerial, at: status.at }] : [];
          void issueLocalCrl({ root, revoked, now, validityMs: 60 * 60 * 1000 }).then((der) => res.writeHead(200, { 'content-type': 'application/pkix-crl' }).end(der));
        } else res.writeHead(404).end();
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    identity = await loadPkcs12(generateSelfSignedPkcs12({ commonName: 'Sello del servicio', organization: 'Firma tests', pkiBaseUrl: base }), undefined);
    stranger = await loadPkcs12(generateSelfSignedPkcs12({ commonName: 'Sello del servicio', organization: 'Firma tests' }), undefined);
    writeFileSync(join(dir, 'root.pem'), pem(identity.localRoot!.certificateDer));
    writeFileSync(join(dir, 'seal.pem'), pem(identity.certificateDer));
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('issues a seal certificate under the local root with the usages and pointers a validator looks for', async () => {
    expect(identity.selfSigned).toBe(true);
    const text = (await run('openssl', ['x509', '-in', join(dir, 'seal.pem'), '-noout', '-text'])).stdout;
    expect(text).toContain('Issuer: CN = Sello del servicio root, O = Firma tests');
    expect(text).toMatch(/Key Usage: critical\s+Digital Signature, Non Repudiation/);
    expect(text).toMatch(/Extended Key Usage:\s+(1\.3\.6\.1\.5\.5\.7\.3\.36|Document Signing)/);
    expect(text).toContain(`OCSP - URI:${base}/pki/ocsp`);
    expect(text).toContain(`CA Issuers - URI:${base}/pki/root.crt`);
    expect(text).toContain(`URI:${base}/pki/root.crl`);
    const verified = await run('openssl', ['verify', '-CAfile', join(dir, 'root.pem'), join(dir, 'seal.pem')]);
    expect(verified.stdout).toContain('OK');
  });

  it('answers OCSP as openssl ocsp expects (signature, nonce) and publishes a CRL openssl verifies', async () => {
    const args = ['ocsp', '-issuer', join(dir, 'root.pem'), '-cert', join(dir, 'seal.pem'), '-url', `${base}/pki/ocsp`, '-CAfile', join(dir, 'root.pem')];
    const answer = await run('openssl', args);
    expect(answer.stderr + answer.stdout).toContain('Response verify OK');
    expect(answer.stdout).toContain(`${join(dir, 'seal.pem')}: good`);
    expect(answer.stderr + answer.stdout).not.toContain('WARNING: no nonce');

    const crl = join(dir, 'root.crl');
    writeFileSync(crl, Buffer.from(await (await fetch(`${base}/pki/root.crl`)).arrayBuffer()));
    const checked = await run('openssl', ['crl', '-inform', 'DER', '-in', crl, '-CAfile', join(dir, 'root.pem'), '-noout', '-text']);
    expect(checked.stderr + checked.stdout).toContain('verify OK');
    expect(checked.stdout).toContain('No Revoked Certificates');
  });

  it('keeps an OCSP answer until its nextUpdate, then asks again', async () => {
    let now = new Date();
    const client = createRevocationClient({ clock: () => now });
    const before = served.ocsp;
    const first = await client.evidenceFor(identity.certificate, identity.localRoot!.certificate);
    const second = await client.evidenceFor(identity.certificate, identity.localRoot!.certificate);
    expect(first.kind).toBe('ocsp');
    expect(second).toBe(first);
    expect(served.ocsp - before).toBe(1);
    now = new Date(Date.now() + 2 * 60 * 60 * 1000);
    await client.evidenceFor(identity.certificate, identity.localRoot!.certificate).catch(() => undefined);
    expect(served.ocsp - before).toBe(2);
  });

  it('says revoked once the seal certificate is, over OCSP and in the CRL, and the revocation client refuses it', async () => {
    status = { status: 'revoked', at: new Date(Date.now() - 60_000) };
    try {
      const args = ['ocsp', '-issuer', join(dir, 'root.pem'), '-cert', join(dir, 'seal.pem'), '-url', `${base}/pki/ocsp`, '-CAfile', join(dir, 'root.pem')];
      expect((await run('openssl', args)).stdout).toContain(`${join(dir, 'seal.pem')}: revoked`);
      const crl = join(dir, 'revoked.crl');
      writeFileSync(crl, Buffer.from(await (await fetch(`${base}/pki/root.crl`)).arrayBuffer()));
      const listed = await run('openssl', ['crl', '-inform', 'DER', '-in', crl, '-CAfile', join(dir, 'root.pem'), '-noout', '-text']);
      expect(listed.stdout).toContain(`Serial Number: ${serialHexOf(identity.certificate.serialNumber).toUpperCase()}`);
      const failure = await createRevocationClient().evidenceFor(identity.certificate, identity.localRoot!.certificate).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(RevocationError);
      expect((failure as RevocationError).revoked).toBe(true);
    } finally {
      status = { status: 'good' };
    }
  });

  it('refuses answers signed by anyone but the issuer: a forged OCSP answer falls back to the CRL, and a forged CRL too leaves nothing', async () => {
    try {
      forge = { ocsp: true, crl: false };
      const fallback = await createRevocationClient().evidenceFor(identity.certificate, identity.localRoot!.certificate);
      expect(fallback.kind).toBe('crl');
      forge = { ocsp: true, crl: true };
      const failure = await createRevocationClient().evidenceFor(identity.certificate, identity.localRoot!.certificate).catch((err: unknown) => err);
      expect(failure).toBeInstanceOf(RevocationError);
      expect((failure as Error).message).toMatch(/signed by neither the issuer nor a responder it authorised[\s\S]*CRL .*(signature does not verify)/);
    } finally {
      forge = { ocsp: false, crl: false };
    }
  });

  it('refuses to fetch from an address the outbound policy refuses', async () => {
    const refused = await createRevocationClient({
      check: async () => {
        throw new Error('the host is not a public address, or resolves to one that is not');
      },
    })
      .evidenceFor(identity.certificate, identity.localRoot!.certificate)
      .catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(RevocationError);
    expect((refused as Error).message).toContain('not a public address');
  });

  describe('sealing at B-LTA with it and a TSA from another PKI', () => {
    let pki: OpensslPki;
    let tsa: OpensslTsa;

    beforeAll(async () => {
      pki = await startOpensslPki();
      tsa = await startOpensslTsa({ ...pki.tsa, caFile: pki.root });
    }, 60_000);

    afterAll(async () => {
      await tsa?.close();
      await pki?.close();
    });

    it('puts the local root, the seal certificate and the local responder’s answer in the DSS beside the TSA’s chain', async () => {
      const doc = await PDFDocument.create();
      doc.addPage();
      const sealed = await sealPdf(Buffer.from(await doc.save()), {
        identity,
        tsa: createTsaClient({ url: tsa.url }),
        level: 'B-LTA',
        revocation: createRevocationClient(),
        signingTime: new Date(),
        reason: 'Prueba',
        fieldName: 'sello',
      });
      expect(sealed.level).toBe('B-LTA');
      const dss = readDssWithQpdf(sealed.pdf);
      const subjects = dss.certs.map(subjectOf);
      expect(subjects).toEqual(expect.arrayContaining(['subject=CN = Sello del servicio, O = Firma tests', 'subject=CN = Sello del servicio root, O = Firma tests', 'subject=CN = Test PKI TSA, O = Firma tests']));
      const texts = dss.ocsps.map(ocspText);
      expect(texts).toHaveLength(3);
      expect(texts.filter((text) => text.includes('Cert Status: good'))).toHaveLength(3);
      expect(texts.some((text) => text.includes(`Serial Number: ${serialHexOf(identity.certificate.serialNumber).toUpperCase()}`))).toBe(true);
    });
  });
});
