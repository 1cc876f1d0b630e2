import { createHash, X509Certificate } from 'node:crypto';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { loadPkcs12, type SigningIdentity } from './identity';
import { PadesLevelError, sealPdf } from './pades';
import { verifyPdfSignatures } from './verify';
import { createRevocationClient, RevocationError } from './revocation-client';
import { createTsaClient, type TsaClient } from './tsa-client';
import { readDssWithQpdf, ocspText, subjectOf } from './__tests__/dss-reader';
import { startOpensslPki, type OpensslPki } from './__tests__/openssl-pki';
import { startOpensslTsa, type OpensslTsa } from './__tests__/openssl-tsa';

const run = promisify(execFile);

async function samplePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('Contrato a largo plazo', { x: 50, y: 780, size: 16, font });
  return Buffer.from(await doc.save());
}

async function pdfsig(pdf: Buffer): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'pdfsig-'));
  try {
    writeFileSync(join(dir, 'doc.pdf'), pdf);
    return (await run('pdfsig', [join(dir, 'doc.pdf')]).catch((err: { stdout: string }) => err)).stdout;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const validCount = (text: string) => text.split('Signature Validation: Signature is Valid.').length - 1;

describe('PAdES B-LT and B-LTA seals against a real PKI (openssl ca, openssl ocsp, openssl ts)', () => {
  let pki: OpensslPki;
  let tsaServer: OpensslTsa;
  let tsa: TsaClient;
  let identity: SigningIdentity;
  const at = new Date('2026-05-04T09:00:00Z');

  beforeAll(async () => {
    pki = await startOpensslPki();
    tsaServer = await startOpensslTsa({ ...pki.tsa, caFile: pki.root });
    tsa = createTsaClient({ url: tsaServer.url });
    identity = await loadPkcs12(readFileSync(pki.seal.p12), 'test');
  }, 60_000);

  afterAll(async () => {
    await tsaServer?.close();
    await pki?.close();
  });

  const seal = (level: 'B-LT' | 'B-LTA', revocation = createRevocationClient({ timeoutMs: 5_000 }), pdf?: Buffer) =>
    (pdf ? Promise.resolve(pdf) : samplePdf()).then((original) =>
      sealPdf(original, { identity, tsa, level, revocation, signingTime: at, reason: 'Prueba B-LT', fieldName: 'sello-lt' }),
    );

  it('B-LT: pdfsig validates the seal, and the DSS holds both chains with an OCSP response for every certificate below a root', async () => {
    const sealed = await seal('B-LT');
    expect(sealed.level).toBe('B-LT');
    expect(sealed.archiveTime).toBeNull();
    expect(validCount(await pdfsig(sealed.pdf))).toBe(1);
    // The DSS after the timestamped signature makes it B-LT; the chain ends at the test root only when it is an anchor.
    const root = new X509Certificate(readFileSync(pki.root)).raw;
    expect(verifyPdfSignatures(sealed.pdf, { trustAnchors: [root] }).signatures).toEqual([
      expect.objectContaining({ kind: 'signature', detectedLevel: 'B-LT', chainTrusted: true, indication: 'TOTAL_PASSED', subIndication: null }),
    ]);
    expect(verifyPdfSignatures(sealed.pdf).signatures).toEqual([
      expect.objectContaining({ detectedLevel: 'B-LT', chainTrusted: false, indication: 'INDETERMINATE', subIndication: 'NO_CERTIFICATE_CHAIN_FOUND' }),
    ]);

    const dss = readDssWithQpdf(sealed.pdf);
    expect(dss.present).toBe(true);
    const subjects = dss.certs.map(subjectOf).sort();
    expect(subjects).toEqual(
      ['subject=CN = Sello de prueba, O = Firma tests', 'subject=CN = Test PKI Intermediate, O = Firma tests', 'subject=CN = Test PKI Root, O = Firma tests', 'subject=CN = Test PKI TSA, O = Firma tests'].sort(),
    );
    // Seal, TSA (both answered by the intermediate's responder) and intermediate (by the root's).
    expect(dss.ocsps).toHaveLength(3);
    const texts = dss.ocsps.map(ocspText);
    for (const text of texts) expect(text).toContain('Cert Status: good');
    const sealSerial = (await run('openssl', ['x509', '-in', pki.seal.cert, '-noout', '-serial'])).stdout.trim().split('=')[1]!;
    expect(texts.some((text) => text.includes(`Serial Number: ${sealSerial}`))).toBe(true);
    expect(dss.crls).toHaveLength(0);
    // The VRI key is the upper-case SHA-1 of the seal's /Contents as written.
    const [, , b, c] = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)/.exec(sealed.pdf.toString('latin1'))!.slice(0, 4).map(Number);
    const contents = Buffer.from(sealed.pdf.subarray(b!, c!).toString('latin1').replace(/[<>]/g, ''), 'hex');
    expect(dss.vriKeys).toEqual([createHash('sha1').update(contents).digest('hex').toUpperCase()]);
  });

  it('B-LTA: a document timestamp over the whole file (DSS included) that pdfsig lists over the whole file and openssl ts verifies', async () => {
    const sealed = await seal('B-LTA');
    expect(sealed.level).toBe('B-LTA');
    expect(sealed.archiveTime).toBeInstanceOf(Date);
    // poppler 22.12 validates the seal and lists the document timestamp as a second
    // signature over the whole file, but cannot check RFC 3161 tokens ("Signature Type:
    // unknown"): the token is checked with `openssl ts -verify` below.
    const report = await pdfsig(sealed.pdf);
    expect(validCount(report)).toBe(1);
    expect(report).toMatch(/Signature #2:[\s\S]*Signer Certificate Common Name: Test PKI TSA[\s\S]*Total document signed/);
    const dss = readDssWithQpdf(sealed.pdf);
    expect(dss.present).toBe(true);
    expect(dss.signatures).toEqual(
      expect.arrayContaining([
        { type: '/Sig', subFilter: '/ETSI.CAdES.detached' },
        { type: '/DocTimeStamp', subFilter: '/ETSI.RFC3161' },
      ]),
    );

    // The last ByteRange covers every byte of the file but the token itself.
    const text = sealed.pdf.toString('latin1');
    const ranges = [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].map((m) => m.slice(1).map(Number));
    const [a, b, c, d] = ranges[ranges.length - 1]!;
    expect(a).toBe(0);
    expect(c! + d!).toBe(sealed.pdf.length);
    const covered = Buffer.concat([sealed.pdf.subarray(a, a! + b!), sealed.pdf.subarray(c, c! + d!)]);
    const dssAt = text.indexOf('/Type /DSS');
    expect(dssAt).toBeGreaterThan(0);
    expect(dssAt).toBeLessThan(b!);
    const token = Buffer.from(sealed.pdf.subarray(b!, c!).toString('latin1').replace(/[<>]/g, ''), 'hex');
    const dir = mkdtempSync(join(tmpdir(), 'tst-'));
    try {
      writeFileSync(join(dir, 'tst.der'), token.subarray(0, derLength(token)));
      writeFileSync(join(dir, 'data.bin'), covered);
      const verified = await run('openssl', ['ts', '-verify', '-token_in', '-in', join(dir, 'tst.der'), '-data', join(dir, 'data.bin'), '-CAfile', pki.root, '-untrusted', pki.tsa.chain]);
      expect(verified.stdout).toContain('Verification: OK');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(createHash('sha256').update(sealed.pdf).digest('hex')).toBe(sealed.sha256);

    // Our own verification passes both, and a changed byte in the DSS fails the document timestamp only.
    const anchors = { trustAnchors: [new X509Certificate(readFileSync(pki.root)).raw] };
    const report2 = verifyPdfSignatures(sealed.pdf, anchors);
    expect(report2.valid).toBe(true);
    expect(report2.signatures.map((s) => [s.kind, s.level, s.passed, s.detectedLevel, s.indication])).toEqual([
      ['signature', 'B-T', true, 'B-LTA', 'TOTAL_PASSED'],
      ['document-timestamp', null, true, null, 'TOTAL_PASSED'],
    ]);
    expect(report2.signatures[1]).toMatchObject({ signer: 'Test PKI TSA', timestampValid: true, integrity: true, coversDocument: true });
    const tampered = Buffer.from(sealed.pdf);
    const at = tampered.indexOf('/Type /DSS');
    tampered[at + 1] = 'X'.charCodeAt(0);
    const broken = verifyPdfSignatures(tampered, anchors);
    expect(broken.valid).toBe(false);
    expect(broken.signatures.map((s) => s.passed)).toEqual([true, false]);
    expect(broken.signatures[1]!.integrity).toBe(false);
    expect(broken.signatures.map((s) => s.indication)).toEqual(['TOTAL_PASSED', 'TOTAL_FAILED']);
    expect(broken.signatures[1]!.subIndication).toBe('HASH_FAILURE');
    // A failed document timestamp proves nothing: the signature is not B-LTA.
    expect(broken.signatures[0]!.detectedLevel).not.toBe('B-LTA');
  });

  it('falls back to the CRLs when the OCSP responders are down, and fails (never a lower level) when the CRLs are down too', async () => {
    await pki.setOcsp(false);
    try {
      const sealed = await seal('B-LT');
      const dss = readDssWithQpdf(sealed.pdf);
      expect(dss.ocsps).toHaveLength(0);
      expect(dss.crls.length).toBeGreaterThanOrEqual(2);
      expect(validCount(await pdfsig(sealed.pdf))).toBe(1);

      pki.setCrl(false);
      await expect(seal('B-LTA')).rejects.toThrow(RevocationError);
    } finally {
      pki.setCrl(true);
      await pki.setOcsp(true);
    }
  });

  it('refuses a long-term level without a TSA or without a revocation client', async () => {
    const original = await samplePdf();
    await expect(sealPdf(original, { identity, level: 'B-LT', revocation: createRevocationClient(), signingTime: at, reason: 'x', fieldName: 'f' })).rejects.toThrow(PadesLevelError);
    await expect(sealPdf(original, { identity, tsa, level: 'B-LTA', signingTime: at, reason: 'x', fieldName: 'f' })).rejects.toThrow(PadesLevelError);
  });

  it('after the seal certificate is revoked, existing seals are unchanged and the next seal fails', async () => {
    const before = await seal('B-LTA');
    await pki.revokeByIntermediate(pki.seal.cert);
    expect(validCount(await pdfsig(before.pdf))).toBe(1);
    for (const text of readDssWithQpdf(before.pdf).ocsps.map(ocspText)) expect(text).toContain('Cert Status: good');
    const failure = await seal('B-LT').catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RevocationError);
    expect((failure as RevocationError).revoked).toBe(true);
    expect((failure as Error).message).toContain('revoked');
  });
});

/** Length of a DER TLV at the start of `bytes` (the token without the placeholder's zero padding). */
function derLength(bytes: Buffer): number {
  const first = bytes[1]!;
  if (first < 0x80) return 2 + first;
  const octets = first & 0x7f;
  let length = 0;
  for (let i = 0; i < octets; i++) length = length * 256 + bytes[2 + i]!;
  return 2 + octets + length;
}
