import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { essCertificateHash, extractSignatures, signedAttributeTypes, signatureTimestampOf } from './inspect';
import { ensureSelfSignedIdentity, generateSelfSignedPkcs12, loadPkcs12, type SigningIdentity } from './identity';
import { readPdfTail } from './incremental-update';
import { sealPdf } from './pades';
import { createTsaClient, TsaError } from './tsa-client';
import { startOpensslTsa, type OpensslTsa } from './__tests__/openssl-tsa';
import { verifyWithTools } from './__tests__/verify-tools';

async function samplePdf(pages = 2, options: { objectStreams?: boolean } = {}): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595, 842]);
    page.drawText(`Contrato de prueba, página ${i + 1}`, { x: 50, y: 780, size: 16, font });
  }
  return Buffer.from(await doc.save({ useObjectStreams: options.objectStreams ?? true }));
}

describe('PAdES seals', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pades-'));
  let identity: SigningIdentity;
  let tsa: OpensslTsa;
  const certFile = join(dir, 'seal.pem');

  beforeAll(async () => {
    identity = await ensureSelfSignedIdentity(join(dir, 'seal.p12'), { commonName: 'Sello de prueba', organization: 'Firma tests' });
    // The generated identity's local root is what `openssl cms -verify` trusts.
    const pem = (der: Buffer) => `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n')}\n-----END CERTIFICATE-----\n`;
    writeFileSync(certFile, pem(identity.localRoot!.certificateDer));
    tsa = await startOpensslTsa();
  });

  afterAll(async () => {
    await tsa?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('seals a PDF that pdfsig and openssl cms both accept, covering the whole file', async () => {
    const original = await samplePdf();
    const sealed = await sealPdf(original, { identity, signingTime: new Date('2026-03-01T10:00:00Z'), reason: 'Prueba', fieldName: 'sello-1' });
    expect(sealed.level).toBe('B-B');
    expect(sealed.tsaTime).toBeNull();
    const result = await verifyWithTools(sealed.pdf, { signerCertFile: certFile });
    expect(result.pdfsig.stdout).toContain('Signature is Valid');
    expect(result.pdfsig.stdout).toContain('Total document signed');
    expect(result.pdfsig.stdout).toContain('ETSI.CAdES.detached');
    expect(result.cms).toHaveLength(1);
    expect(result.cms[0]!.stderr).toContain('Verification successful');
    expect(result.ts).toHaveLength(0);
  });

  it('keeps the original bytes as the first revision of the sealed file', async () => {
    const original = await samplePdf(1, { objectStreams: false });
    const sealed = await sealPdf(original, {
      identity,
      signingTime: new Date(),
      reason: 'Prueba',
      fieldName: 'sello-1',
      modify: async (doc) => {
        const page = doc.getPages()[0]!;
        page.drawRectangle({ x: 40, y: 40, width: 100, height: 40, color: rgb(0.9, 0.9, 0.9) });
      },
    });
    expect(sealed.pdf.subarray(0, original.length).equals(original)).toBe(true);
    expect(sealed.sha256).toBe(createHash('sha256').update(sealed.pdf).digest('hex'));
    const file = join(dir, 'qpdf-check.pdf');
    writeFileSync(file, sealed.pdf);
    expect(execFileSync('qpdf', ['--check', file]).toString()).toContain('No syntax or stream encoding errors');
  });

  it('signs contentType, messageDigest and ESS signing-certificate-v2 with the signer certificate hash, and no signingTime', async () => {
    const sealed = await sealPdf(await samplePdf(), { identity, signingTime: new Date(), reason: 'Prueba', fieldName: 'sello-1' });
    const [signature] = extractSignatures(sealed.pdf);
    expect(signedAttributeTypes(signature!.cms)).toEqual(['1.2.840.113549.1.9.3', '1.2.840.113549.1.9.4', '1.2.840.113549.1.9.16.2.47']);
    expect(essCertificateHash(signature!.cms)).toEqual(createHash('sha256').update(identity.certificateDer).digest());
  });

  it('adds an RFC 3161 signature timestamp that openssl ts -verify accepts (B-T)', async () => {
    const sealed = await sealPdf(await samplePdf(), {
      identity,
      tsa: createTsaClient({ url: tsa.url }),
      signingTime: new Date(),
      reason: 'Prueba',
      fieldName: 'sello-1',
    });
    expect(sealed.level).toBe('B-T');
    expect(sealed.tsaTime).toBeInstanceOf(Date);
    const result = await verifyWithTools(sealed.pdf, { tsaCaFile: tsa.caFile });
    expect(result.pdfsig.stdout).toContain('Signature is Valid');
    expect(result.pdfsig.stdout).toContain('Total document signed');
    expect(result.cms[0]!.stderr).toContain('Verification successful');
    expect(result.ts).toHaveLength(1);
    expect(result.ts[0]!.stdout).toContain('Verification: OK');
  });

  it('keeps an earlier seal valid when a later one is appended as an incremental update', async () => {
    const first = await sealPdf(await samplePdf(), { identity, signingTime: new Date(), reason: 'Primera', fieldName: 'sello-1' });
    const second = await sealPdf(first.pdf, { identity, signingTime: new Date(), reason: 'Segunda', fieldName: 'sello-2' });
    const result = await verifyWithTools(second.pdf);
    expect(result.signatureCount).toBe(2);
    expect(result.pdfsig.stdout.match(/Signature is Valid/g)).toHaveLength(2);
    expect(result.pdfsig.stdout).not.toContain('Digest Mismatch');
    expect(result.cms.every((r) => r.stderr.includes('Verification successful'))).toBe(true);
    expect(extractSignatures(second.pdf).map((s) => s.coversWholeFile)).toEqual([false, true]);
  });

  it('refuses to seal when the TSA rejects, is unavailable or answers for another imprint', async () => {
    const original = await samplePdf();
    for (const mode of ['rejection', 'unavailable', 'wrong-imprint'] as const) {
      tsa.mode = mode;
      await expect(
        sealPdf(original, { identity, tsa: createTsaClient({ url: tsa.url }), signingTime: new Date(), reason: 'x', fieldName: 'sello-1' }),
      ).rejects.toBeInstanceOf(TsaError);
    }
    tsa.mode = 'ok';
  });

  it('reads a password-protected PKCS#12 and refuses a wrong password', async () => {
    const p12 = generateSelfSignedPkcs12({ commonName: 'Otra' });
    const file = join(dir, 'plain.p12');
    writeFileSync(file, p12);
    const protectedFile = join(dir, 'protected.p12');
    const pem = join(dir, 'plain.pem');
    execFileSync('openssl', ['pkcs12', '-in', file, '-nodes', '-passin', 'pass:', '-out', pem]);
    execFileSync('openssl', ['pkcs12', '-export', '-in', pem, '-out', protectedFile, '-passout', 'pass:s3cret']);
    const loaded = await loadPkcs12(readFileSync(protectedFile), 's3cret');
    expect(loaded.commonName).toBe('Otra');
    // `openssl pkcs12 -export` keeps one key, the seal's: the root's key stays behind.
    expect(loaded.localRoot).toBeUndefined();
    await expect(loadPkcs12(readFileSync(protectedFile), 'wrong')).rejects.toThrow(/PKCS#12/);
  });

  it('keeps one self-signed identity across restarts', async () => {
    const again = await ensureSelfSignedIdentity(join(dir, 'seal.p12'), { commonName: 'ignored' });
    expect(again.certificateDer.equals(identity.certificateDer)).toBe(true);
  });

  it('refuses a file whose startxref points nowhere', () => {
    const broken = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\nstartxref\n999999\n%%EOF\n');
    expect(() => readPdfTail(broken)).toThrow(/startxref/);
  });

  it('records the timestamp token over the signature value', async () => {
    const sealed = await sealPdf(await samplePdf(1), {
      identity,
      tsa: createTsaClient({ url: tsa.url }),
      signingTime: new Date(),
      reason: 'x',
      fieldName: 'sello-1',
    });
    const stamp = signatureTimestampOf(extractSignatures(sealed.pdf)[0]!.cms);
    expect(stamp?.token.length).toBeGreaterThan(500);
  });
});

describe('TSA client', () => {
  it('reports an unreachable TSA as a TsaError', async () => {
    const client = createTsaClient({ url: 'http://127.0.0.1:9/tsa', timeoutMs: 2000 });
    await expect(client.timestamp(Buffer.from('signature value'))).rejects.toBeInstanceOf(TsaError);
  });
});
