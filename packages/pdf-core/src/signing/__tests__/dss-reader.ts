import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

type QpdfObject = { value?: unknown; stream?: { dict: Record<string, unknown>; data?: string } };

/** What a DSS holds, read with qpdf (not with the code under test); items are DER. */
export interface DssContents {
  /** Whether the catalog has a /DSS at all. */
  present: boolean;
  certs: Buffer[];
  ocsps: Buffer[];
  crls: Buffer[];
  vriKeys: string[];
  /** Each signature dictionary's /Type and /SubFilter, in object order. */
  signatures: { type: string; subFilter: string }[];
}

/** Reads the catalog's /DSS of the file's latest revision through `qpdf --json`. */
export function readDssWithQpdf(pdf: Buffer): DssContents {
  const dir = mkdtempSync(join(tmpdir(), 'dss-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    const json = JSON.parse(execFileSync('qpdf', ['--json=2', '--json-stream-data=inline', '--decode-level=none', file], { maxBuffer: 64 * 1024 * 1024 }).toString('utf8')) as {
      qpdf: [unknown, Record<string, QpdfObject>];
    };
    const objects = json.qpdf[1];
    const deref = (value: unknown): unknown => (typeof value === 'string' && / R$/.test(value) ? objects[`obj:${value}`]?.value ?? objects[`obj:${value}`] : value);
    const trailer = objects.trailer!.value as Record<string, unknown>;
    const catalog = deref(trailer['/Root']) as Record<string, unknown>;
    const signatures = Object.values(objects)
      .map((o) => o.value as Record<string, unknown> | undefined)
      .filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && ('/ByteRange' in v))
      .map((v) => ({ type: String(v['/Type']), subFilter: String(v['/SubFilter']) }));
    const dss = deref(catalog['/DSS']) as Record<string, unknown> | undefined;
    if (!dss) return { present: false, certs: [], ocsps: [], crls: [], vriKeys: [], signatures };
    const streams = (key: string): Buffer[] => {
      const array = (deref(dss[key]) as string[] | undefined) ?? [];
      return array.map((ref) => Buffer.from(objects[`obj:${ref}`]!.stream!.data!, 'base64'));
    };
    const vri = (deref(dss['/VRI']) as Record<string, unknown> | undefined) ?? {};
    return { present: true, certs: streams('/Certs'), ocsps: streams('/OCSPs'), crls: streams('/CRLs'), vriKeys: Object.keys(vri).map((k) => k.replace(/^\//, '')), signatures };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `openssl x509 -noout -subject` of a DER certificate. */
export function subjectOf(der: Buffer): string {
  return opensslOnFile(der, (file) => ['x509', '-inform', 'DER', '-in', file, '-noout', '-subject']).trim();
}

/** `openssl ocsp -respin ... -resp_text -noverify`: the text of a DER OCSP response. */
export function ocspText(der: Buffer): string {
  return opensslOnFile(der, (file) => ['ocsp', '-respin', file, '-resp_text', '-noverify']);
}

function opensslOnFile(der: Buffer, args: (file: string) => string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'der-'));
  try {
    const file = join(dir, 'item.der');
    writeFileSync(file, der);
    return execFileSync('openssl', args(file)).toString('utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
