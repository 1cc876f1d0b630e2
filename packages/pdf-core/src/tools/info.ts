import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { EngineFailedError } from '../engine-errors';
import { notPdf, PdfInputError } from './errors';
import { TOOL_TIMEOUTS } from '../tool-timeouts';
import type { ToolEngines } from './engines';
import { hasPdfHeader, probePdf, type QpdfEncryptJson } from './input';
import { runQpdf } from './qpdf';
import { writeInput } from './write-input';
import { startEarly } from './early-run';

export interface PdfFormField {
  name: string;
  type: 'text' | 'checkbox' | 'radio' | 'choice' | 'signature' | 'button';
  value: string | null;
  page: number | null;
}

export interface PdfInfo {
  pages: number | null;
  pdf_version: string | null;
  encrypted: boolean;
  /** A user password is needed to open the file (and was not given, or was wrong). */
  password_required: boolean;
  encryption: { method: string; bits: number | null; permissions: Record<string, boolean> | null } | null;
  form: { has_form: boolean; fields: PdfFormField[] } | null;
  metadata: Record<string, string | null> | null;
  /** PDF/A identification from the XMP packet, e.g. "2B"; null when absent. */
  pdfa: string | null;
  has_xmp: boolean;
  page_size: { width: number; height: number } | null;
  tagged: boolean | null;
  linearized: boolean | null;
  attachments: number | null;
  bookmarks: number | null;
}

const METHODS: Record<string, string> = { AESv3: 'AES-256', AESv2: 'AES-128', RC4: 'RC4' };

/**
 * Everything a client asks about a PDF before working on it. An encrypted file is
 * reported, not refused: without its password, what the encryption hides (metadata,
 * form values, often the page count) is null and `password_required` says why.
 */
export async function pdfInfo(engines: ToolEngines, input: Uint8Array, options: { password?: string } = {}): Promise<PdfInfo> {
  if (!hasPdfHeader(input)) throw notPdf();
  const { runner } = engines;
  return runner.withTempDir(async (dir) => {
    const path = join(dir, 'in.pdf');
    await writeInput(path, input);
    const probing = probePdf(runner, dir, path, {
      password: options.password,
      passwordField: options.password !== undefined ? 'password' : undefined,
      extraKeys: ['acroform', 'attachments', 'outlines'],
    });
    // poppler reads the file while qpdf checks it (started first: the launcher starts one
    // engine after the other), instead of after: most files are not encrypted, and then its
    // answers are the ones it would give after the check. qpdf's verdict still decides (its
    // refusal wins, an encrypted file is decrypted and read again): then the early runs are
    // killed, so a file poppler chews on does not hold the refusal, and settled before the
    // temp dir goes.
    const early = startEarly((signal) => Promise.all([pdfinfoDetails(engines, path, signal), xmpPacket(engines, path, signal)]));
    let structure: Awaited<ReturnType<typeof probePdf>>;
    try {
      structure = await probing;
    } catch (err) {
      await early.drop();
      if (!(err instanceof PdfInputError) || err.issues[0]?.type !== 'pdf_encrypted') throw err;
      return lockedInfo(engines, input);
    }
    const encrypt = structure.encrypt;
    let details: Awaited<ReturnType<typeof pdfinfoDetails>>;
    let xmp: string | null;
    if (encrypt.encrypted) {
      await early.drop();
      const readable = join(dir, 'decrypted.pdf');
      await runQpdf(runner, dir, ['--decrypt', path, readable], { password: options.password, timeoutMs: TOOL_TIMEOUTS.qpdf });
      [details, xmp] = await Promise.all([pdfinfoDetails(engines, readable), xmpPacket(engines, readable)]);
    } else {
      [details, xmp] = await early.result;
    }
    const acroform = structure.acroform as { hasacroform?: boolean; fields?: QpdfField[] } | undefined;
    const outlines = structure.outlines as unknown[] | undefined;
    return {
      pages: structure.pages,
      pdf_version: details.version,
      encrypted: encrypt.encrypted,
      password_required: false,
      encryption: encrypt.encrypted ? encryptionOf(encrypt) : null,
      form: { has_form: Boolean(acroform?.hasacroform), fields: (acroform?.fields ?? []).map(fieldOf) },
      metadata: details.metadata,
      pdfa: pdfaOf(xmp),
      has_xmp: xmp !== null,
      page_size: details.pageSize,
      tagged: details.tagged,
      linearized: details.linearized,
      attachments: Object.keys((structure.attachments as object | undefined) ?? {}).length,
      bookmarks: countOutlines(outlines ?? []),
    };
  });
}

async function lockedInfo(engines: ToolEngines, input: Uint8Array): Promise<PdfInfo> {
  const probe = await engines.pool.run('probe-encryption', { pdf: input }, { timeoutMs: TOOL_TIMEOUTS.worker });
  return {
    pages: probe.pages,
    pdf_version: /%PDF-(\d\.\d)/.exec(Buffer.from(input.subarray(0, 1024)).toString('latin1'))?.[1] ?? null,
    encrypted: true,
    password_required: true,
    encryption: probe.method ? { method: mupdfMethod(probe.method), bits: Number(/(\d+)-bit/.exec(probe.method)?.[1]) || null, permissions: null } : null,
    form: null,
    metadata: null,
    pdfa: null,
    has_xmp: false,
    page_size: null,
    tagged: null,
    linearized: null,
    attachments: null,
    bookmarks: null,
  };
}

/** mupdf says e.g. "Standard V5 R6 256-bit AES". */
function mupdfMethod(text: string): string {
  const bits = /(\d+)-bit/.exec(text)?.[1];
  if (/AES/.test(text)) return bits ? `AES-${bits}` : 'AES';
  if (/RC4/.test(text)) return bits ? `RC4-${bits}` : 'RC4';
  return text;
}

function encryptionOf(e: QpdfEncryptJson): PdfInfo['encryption'] {
  const base = METHODS[e.parameters.method] ?? e.parameters.method;
  const method = base === 'RC4' ? `RC4-${e.parameters.bits}` : base;
  return { method, bits: e.parameters.bits || null, permissions: e.capabilities };
}

interface QpdfField {
  fullname: string;
  fieldtype: string;
  ischeckbox: boolean;
  isradiobutton: boolean;
  value: unknown;
  pageposfrom1?: number;
}

function fieldOf(f: QpdfField): PdfFormField {
  const type: PdfFormField['type'] =
    f.fieldtype === '/Tx' ? 'text' : f.fieldtype === '/Ch' ? 'choice' : f.fieldtype === '/Sig' ? 'signature' : f.ischeckbox ? 'checkbox' : f.isradiobutton ? 'radio' : 'button';
  return { name: f.fullname, type, value: jsonValue(f.value), page: f.pageposfrom1 ?? null };
}

/** qpdf's JSON v2 writes strings as "u:text" or "b:hex" and names as "/Name". */
function jsonValue(v: unknown): string | null {
  if (typeof v !== 'string') return v === null || v === undefined ? null : JSON.stringify(v);
  if (v.startsWith('u:')) return v.slice(2);
  if (v.startsWith('b:')) return Buffer.from(v.slice(2), 'hex').toString('latin1');
  if (v.startsWith('/')) return v.slice(1);
  return v;
}

function countOutlines(items: unknown[]): number {
  return items.reduce<number>((n, item) => n + 1 + countOutlines(((item as { kids?: unknown[] }).kids ?? []) as unknown[]), 0);
}

const INFO_FIELDS: Record<string, string> = {
  Title: 'title',
  Author: 'author',
  Subject: 'subject',
  Keywords: 'keywords',
  Creator: 'creator',
  Producer: 'producer',
  CreationDate: 'creation_date',
  ModDate: 'modification_date',
};

/** poppler's pdfinfo decodes the Info strings (PDFDocEncoding, UTF-16) and dates for us. */
async function pdfinfoDetails(engines: ToolEngines, path: string, signal?: AbortSignal) {
  const result = await engines.runner.run('pdfinfo', ['-isodates', '-enc', 'UTF-8', path], { timeoutMs: TOOL_TIMEOUTS.qpdf, dir: dirname(path), signal });
  if (result.exitCode !== 0) throw new EngineFailedError('pdfinfo', result.exitCode, result.stderr);
  const lines = new Map<string, string>();
  for (const line of result.stdout.toString('utf8').split('\n')) {
    const m = /^([A-Za-z ]+):\s*(.*)$/.exec(line);
    if (m && !lines.has(m[1] as string)) lines.set(m[1] as string, (m[2] as string).trim());
  }
  const metadata: Record<string, string | null> = {};
  for (const [key, field] of Object.entries(INFO_FIELDS)) metadata[field] = lines.get(key) || null;
  const size = /^([\d.]+) x ([\d.]+) pts/.exec(lines.get('Page size') ?? '');
  return {
    metadata,
    version: lines.get('PDF version') ?? null,
    pageSize: size ? { width: Number(size[1]), height: Number(size[2]) } : null,
    tagged: lines.has('Tagged') ? lines.get('Tagged') === 'yes' : null,
    linearized: lines.has('Optimized') ? lines.get('Optimized') === 'yes' : null,
  };
}

/** The document's XMP packet (pdfinfo -meta), or null when it has none. `signal`: the caller's by default. */
export async function xmpPacket(engines: Pick<ToolEngines, 'runner'>, path: string, signal?: AbortSignal): Promise<string | null> {
  const result = await engines.runner.run('pdfinfo', ['-meta', path], { timeoutMs: TOOL_TIMEOUTS.qpdf, dir: dirname(path), signal });
  if (result.exitCode !== 0) return null;
  const text = result.stdout.toString('utf8');
  return /<x:xmpmeta|<rdf:RDF/.test(text) ? text : null;
}

/** pdfaid part and conformance, in element or attribute form: "2B", "1A"... */
export function pdfaOf(xmp: string | null): string | null {
  if (!xmp) return null;
  const read = (name: string) =>
    new RegExp(`pdfaid:${name}\\s*=\\s*["']([^"']+)["']`).exec(xmp)?.[1] ?? new RegExp(`<pdfaid:${name}>\\s*([^<\\s]+)\\s*</pdfaid:${name}>`).exec(xmp)?.[1];
  const part = read('part');
  const conformance = read('conformance');
  return part ? `${part}${conformance ?? ''}`.toUpperCase() : null;
}

export async function readBack(path: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(path));
}
