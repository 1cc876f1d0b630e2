import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { createWorkerPool, type PdfWorkerPool } from '../tools/worker-pool';
import { generateSelfSignedPkcs12, loadPkcs12, type SigningIdentity } from './identity';
import { openIncrementalUpdate } from './incremental-update';
import { sealPdf } from './pades';
import { createTsaClient } from './tsa-client';
import { verifyPdfSignatures } from './verify';
import { startOpensslTsa, type OpensslTsa } from './__tests__/openssl-tsa';

async function samplePdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([595, 842]).drawText('Contrato de prueba', { x: 50, y: 780, size: 16, font });
  return Buffer.from(await doc.save());
}

/** Rewrites the value of the first `/ByteRange [...]` keeping the file's length. */
function withByteRange(pdf: Buffer, values: string): Buffer {
  const text = pdf.toString('latin1');
  const m = /\/ByteRange\s*\[([^\]]*)\]/.exec(text)!;
  const start = m.index + m[0].indexOf('[') + 1;
  const copy = Buffer.from(pdf);
  copy.write(values.padEnd(m[1]!.length, ' '), start, 'latin1');
  return copy;
}

function contentsRange(pdf: Buffer): { start: number; end: number } {
  const start = pdf.indexOf('/Contents <') + '/Contents <'.length;
  return { start, end: pdf.indexOf('>', start) };
}

/** A minimal PDF whose objects are the given bodies, numbered from 1 (no valid xref: the verifier needs none). */
function rawPdf(objects: string[]): Buffer {
  return Buffer.from(`%PDF-1.7\n${objects.map((o, i) => `${i + 1} 0 obj\n${o}\nendobj\n`).join('')}trailer\n<< /Size ${objects.length + 1} >>\nstartxref\n9\n%%EOF\n`, 'latin1');
}

describe('verifying PAdES signatures', () => {
  const dir = mkdtempSync(join(tmpdir(), 'verify-'));
  const signingTime = new Date('2026-03-01T10:00:00Z');
  let ours: SigningIdentity;
  let tsa: OpensslTsa;
  let bb: Buffer;
  let bt: { pdf: Buffer; tsaTime: Date | null };

  beforeAll(async () => {
    ours = await loadPkcs12(generateSelfSignedPkcs12({ commonName: 'Sello de prueba' }), undefined);
    tsa = await startOpensslTsa();
    bb = (await sealPdf(await samplePdf(), { identity: ours, signingTime, reason: 'Prueba', fieldName: 'sello-1' })).pdf;
    bt = await sealPdf(await samplePdf(), { identity: ours, tsa: createTsaClient({ url: tsa.url }), signingTime, reason: 'Prueba', fieldName: 'sello-1' });
  });

  afterAll(async () => {
    await tsa?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passes a B-B seal of our own and reports its field, time, level and certificate', () => {
    const result = verifyPdfSignatures(bb);
    expect(result).toMatchObject({ valid: true, modifiedAfterLastSignature: false, problems: [], fileSha256: createHash('sha256').update(bb).digest('hex') });
    expect(result.signatures).toHaveLength(1);
    expect(result.signatures[0]).toMatchObject({
      field: 'sello-1',
      signer: 'Sello de prueba',
      signingTime: signingTime.toISOString(),
      level: 'B-B',
      timestampTime: null,
      integrity: true,
      signatureValid: true,
      coversDocument: true,
      essCertificateMatches: true,
      timestampValid: null,
      problems: [],
      passed: true,
    });
    expect(result.signatures[0]!.certificate).toMatchObject({
      subject: 'CN=Sello de prueba',
      // Issued by the identity's own local root, not self-signed.
      selfSigned: false,
      sha256: createHash('sha256').update(ours.certificateDer).digest('hex'),
    });
  });

  it('passes a B-T seal and checks its RFC 3161 token against the signature value', () => {
    const result = verifyPdfSignatures(bt.pdf);
    expect(result.valid).toBe(true);
    expect(result.signatures[0]).toMatchObject({ level: 'B-T', timestampValid: true, timestampTime: bt.tsaTime!.toISOString(), passed: true });
  });

  it('fails integrity when one byte inside the signed range changed', () => {
    const tampered = Buffer.from(bb);
    const at = bb.indexOf('/MediaBox') + 2;
    tampered[at] = tampered[at]! ^ 0x01;
    const result = verifyPdfSignatures(tampered);
    expect(result.valid).toBe(false);
    expect(result.signatures[0]).toMatchObject({ integrity: false, signatureValid: true, passed: false });
    expect(result.signatures[0]!.problems.join(' ')).toMatch(/digest differs/);
  });

  it('reports an incremental update appended after the seal, the seal itself intact', async () => {
    const update = await openIncrementalUpdate(bb);
    update.doc.setTitle('cambiado después de firmar');
    const modified = await update.write();
    const result = verifyPdfSignatures(modified);
    expect(result).toMatchObject({ valid: false, modifiedAfterLastSignature: true });
    expect(result.signatures[0]).toMatchObject({ integrity: true, signatureValid: true, coversDocument: true, passed: true });
  });

  it('passes a file signed with another certificate made with OpenSSL, naming that certificate', async () => {
    const f = (name: string) => join(dir, name);
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', f('other.key'), '-out', f('other.pem'), '-days', '30', '-utf8', '-subj', '/CN=Notaría Ajena/O=Otra Casa']);
    execFileSync('openssl', ['pkcs12', '-export', '-inkey', f('other.key'), '-in', f('other.pem'), '-out', f('other.p12'), '-passout', 'pass:x']);
    const other = await loadPkcs12(readFileSync(f('other.p12')), 'x');
    const sealed = await sealPdf(await samplePdf(), { identity: other, signingTime, reason: 'Ajena', fieldName: 'firma-ajena' });
    const result = verifyPdfSignatures(sealed.pdf);
    expect(result.valid).toBe(true);
    const cert = result.signatures[0]!.certificate!;
    expect(cert.subject).toContain('CN=Notaría Ajena');
    expect(cert.sha256).not.toBe(createHash('sha256').update(ours.certificateDer).digest('hex'));
    expect(cert.serial).toBe(execFileSync('openssl', ['x509', '-in', f('other.pem'), '-noout', '-serial']).toString().trim().replace(/^serial=/, ''));
  });

  it('finds no signature in an unsigned PDF and calls it not valid', async () => {
    const result = verifyPdfSignatures(await samplePdf());
    expect(result).toMatchObject({ valid: false, signatures: [], modifiedAfterLastSignature: false });
    expect(result.problems).toContain('the file has no signatures');
  });

  describe('hostile shapes: a report, never an exception', () => {
    const expectFailed = (pdf: Buffer, problem: RegExp) => {
      const result = verifyPdfSignatures(pdf);
      expect(result.valid).toBe(false);
      expect(result.signatures).toHaveLength(1);
      expect(result.signatures[0]!.passed).toBe(false);
      expect(result.signatures[0]!.problems.join(' | ')).toMatch(problem);
    };

    it('a signature dictionary without /ByteRange', () => {
      const text = bb.toString('latin1').replace('/ByteRange', '/ByteRangX');
      expectFailed(Buffer.from(text, 'latin1'), /no \/ByteRange/);
    });

    it('a /ByteRange pointing outside the file', () => {
      expectFailed(bb.subarray(0, bb.length - 200), /outside the file/);
      expectFailed(withByteRange(bb, `0 10 20 ${bb.length * 4}`), /outside the file/);
    });

    it('overlapping ranges', () => {
      const { start } = contentsRange(bb);
      expectFailed(withByteRange(bb, `0 ${start + 100} ${start} 100`), /overlap/);
    });

    it('a gap that is not the /Contents', () => {
      const { start, end } = contentsRange(bb);
      expectFailed(withByteRange(bb, `0 ${start - 10} ${end + 1} ${bb.length - end - 1}`), /not exactly the signature \/Contents/);
    });

    it('garbage CMS in /Contents', () => {
      const { start, end } = contentsRange(bb);
      const garbage = Buffer.from(bb);
      garbage.write('30'.concat('ff'.repeat((end - start) / 2 - 1)), start, 'latin1');
      expectFailed(garbage, /CMS|DER/);
      const notHex = Buffer.from(bb);
      notHex.write('zz', start + 10, 'latin1');
      expectFailed(notHex, /not a hex string/);
    });

    it('a huge /Contents', () => {
      const hex = '30'.padEnd(4 * 1024 * 1024, '0');
      const pdf = withByteRange(rawPdf([`<< /Type /Sig /Contents <${hex}> /ByteRange [${' '.repeat(40)}] >>`]), '');
      const { start, end } = contentsRange(pdf);
      const sized = withByteRange(pdf, `0 ${start - 1} ${end + 1} ${pdf.length - end - 1}`);
      const result = verifyPdfSignatures(sized, { maxContentsBytes: 1024 * 1024 });
      expect(result.valid).toBe(false);
      expect(result.signatures[0]!.problems.join(' ')).toMatch(/larger than 1048576 bytes/);
    });

    it('thousands of signature fields, checked up to a cap', () => {
      const objects = Array.from({ length: 3000 }, (_, i) => `<< /Type /Sig /ByteRange [0 1 2 ${i}] /Contents <3000> >>`);
      const started = process.hrtime.bigint();
      const result = verifyPdfSignatures(rawPdf(objects), { maxSignatures: 50 });
      expect(result.signatures).toHaveLength(50);
      expect(result.valid).toBe(false);
      expect(result.problems.join(' ')).toMatch(/more than 50 signatures/);
      expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(5000);
    });
  });

  describe('on the worker pool', () => {
    let pool: PdfWorkerPool;
    beforeAll(() => {
      pool = createWorkerPool({ size: 1 });
    });
    afterAll(() => pool.close());

    it('answers the same report from a worker thread as in process', async () => {
      const validationTime = new Date();
      const result = await pool.run('verify-signatures', { pdf: new Uint8Array(bt.pdf), validationTime }, { timeoutMs: 20_000 });
      expect(result).toEqual(verifyPdfSignatures(bt.pdf, { validationTime }));
      expect(result.validationTime).toBe(validationTime.toISOString());
    });
  });
});
