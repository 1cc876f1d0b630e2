/** xmllint (Debian's libxml2-utils) over rendered documents: well-formedness, and the OASIS CAP 1.2 schema. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const XSD = join(__dirname, '..', '__fixtures__', 'CAP-v1.2.xsd');
const XMLLINT_TIMEOUT_MS = 20_000;

export interface LintResult { code: number; stderr: string }

/** Runs xmllint on the documents (written to temp files), never touching the network. */
export async function xmllint(args: string[], documents: string[]): Promise<LintResult> {
  const dir = await mkdtemp(join(tmpdir(), 'wf-cap-'));
  try {
    const files = await Promise.all(documents.map(async (xml, i) => {
      const file = join(dir, `doc-${i}.xml`);
      await writeFile(file, xml, 'utf8');
      return file;
    }));
    return await new Promise<LintResult>((resolve, reject) => {
      execFile('xmllint', ['--noout', '--nonet', ...args, ...files], { timeout: XMLLINT_TIMEOUT_MS, encoding: 'utf8' }, (error, _stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? Number(error.code) : 0, stderr });
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const validate = (documents: string[]) => xmllint(['--schema', XSD], documents);
