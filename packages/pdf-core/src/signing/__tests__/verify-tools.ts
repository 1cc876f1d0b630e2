import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractSignatures, signatureTimestampOf } from '../inspect';

export interface ToolRun {
  code: number;
  stdout: string;
  stderr: string;
}

function run(cmd: string, args: string[]): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(cmd, args, { maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? ((err as { code: number }).code) : 1) : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
  });
}

export interface ExternalVerification {
  /** `pdfsig FILE` output. */
  pdfsig: ToolRun;
  /** One `openssl cms -verify` per signature, over its byte ranges. */
  cms: ToolRun[];
  /** One `openssl ts -verify` per signature that carries a timestamp token. */
  ts: ToolRun[];
  signatureCount: number;
}

/**
 * Verifies a signed PDF exactly as an auditor would by hand: poppler's pdfsig, then for
 * every signature `openssl cms -verify` on the extracted CMS and signed bytes, and
 * `openssl ts -verify` on its timestamp token against the TSA's root.
 */
export async function verifyWithTools(pdf: Buffer, options: { tsaCaFile?: string; signerCertFile?: string } = {}): Promise<ExternalVerification> {
  const dir = mkdtempSync(join(tmpdir(), 'verify-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    const pdfsig = await run('pdfsig', [file]);
    const cms: ToolRun[] = [];
    const ts: ToolRun[] = [];
    const signatures = extractSignatures(pdf);
    for (const [i, signature] of signatures.entries()) {
      const sig = join(dir, `sig${i}.der`);
      const content = join(dir, `signed${i}.bin`);
      writeFileSync(sig, signature.cms);
      writeFileSync(content, signature.signedContent);
      const chain = options.signerCertFile ? ['-CAfile', options.signerCertFile, '-purpose', 'any'] : ['-noverify'];
      cms.push(await run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', sig, '-content', content, ...chain, '-out', join(dir, `out${i}`)]));
      const stamp = signatureTimestampOf(signature.cms);
      if (stamp) {
        const token = join(dir, `tst${i}.der`);
        const data = join(dir, `sigvalue${i}.bin`);
        writeFileSync(token, stamp.token);
        writeFileSync(data, stamp.signatureValue);
        const ca = options.tsaCaFile ? ['-CAfile', options.tsaCaFile] : [];
        ts.push(await run('openssl', ['ts', '-verify', '-token_in', '-in', token, '-data', data, ...ca]));
      }
    }
    return { pdfsig, cms, ts, signatureCount: signatures.length };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
