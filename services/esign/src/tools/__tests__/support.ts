import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@firma-riesgo/service-kit/testing';
import { tempDirsSettled } from '@firma-riesgo/pdf-core';
import { startEsign, type EsignRuntime } from '../../runtime';
import { testConfig } from '../../__tests__/support';

export const run = promisify(execFile);

export interface ToolsService {
  rt: EsignRuntime;
  key: string;
  /** ESIGN_TMP_DIR of this runtime: every tool call's temp dir lives (and must vanish) here. */
  tmpDir: string;
  /** A POST to /firma/tools/{name} with the tenant key. */
  post(tool: string): request.Test;
  close(): Promise<void>;
}

/** The real esign runtime on its own Postgres database, with a tenant key. */
export async function startToolsService(tag: string, env: Record<string, string> = {}): Promise<ToolsService> {
  const db: TestDatabase = await createTestDatabase(`esign_tools_${tag.replace(/[^a-z0-9]/g, '_')}`);
  const tmpDir = mkdtempSync(join(tmpdir(), 'tools-test-'));
  const rt = await startEsign(testConfig({ ESIGN_DATABASE_URL: db.url, ESIGN_TMP_DIR: tmpDir, ...env }), 'api');
  const { key } = await rt.keys.create({ tenant: 'acme' });
  return {
    rt,
    key,
    tmpDir,
    post: (tool) => request(rt.server!).post(`/firma/tools/${tool}`).set('authorization', `Bearer ${key}`).buffer(true).parse(bodyParser),
    async close() {
      await rt.close();
      await db.drop();
      rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}

/**
 * Entries left in a runtime's temp root once the removals of the calls answered so far have
 * finished (a call's temp dir goes right after its answer, not before it): there should be none.
 */
export async function leftovers(svc: ToolsService): Promise<string[]> {
  await tempDirsSettled();
  return readdirSync(svc.tmpDir);
}

/** supertest: JSON bodies parsed, any other body kept as a Buffer (PDFs, images). */
function bodyParser(res: request.Response, callback: (err: Error | null, body: unknown) => void): void {
  const chunks: Buffer[] = [];
  const stream = res as unknown as NodeJS.ReadableStream;
  stream.on('data', (c: Buffer) => chunks.push(c));
  stream.on('end', () => {
    const body = Buffer.concat(chunks);
    const type = String((res as unknown as { headers: Record<string, string> }).headers['content-type'] ?? '');
    if (!type.includes('json')) return callback(null, body);
    try {
      callback(null, JSON.parse(body.toString('utf8')));
    } catch (err) {
      callback(err as Error, body);
    }
  });
}

export async function textPdf(
  pages: number,
  options: { line?: (page: number) => string | string[]; size?: [number, number]; title?: string; author?: string } = {},
): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage(options.size ?? [595, 842]);
    const lines = options.line ? [options.line(i)].flat() : [`Page ${i} of the test document`];
    lines.forEach((text, j) => page.drawText(text, { x: 60, y: 760 - j * 18, size: 12, font }));
  }
  if (options.title) doc.setTitle(options.title);
  if (options.author) doc.setAuthor(options.author);
  return Buffer.from(await doc.save());
}

/** A one-page form: a filled text field and a checked checkbox. */
export async function formPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Application form', { x: 60, y: 780, size: 16, font });
  const form = doc.getForm();
  const name = form.createTextField('applicant.name');
  name.setText('Lucia Fernandez');
  name.addToPage(page, { x: 60, y: 700, width: 250, height: 24 });
  const agree = form.createCheckBox('agree');
  agree.check();
  agree.addToPage(page, { x: 60, y: 650, width: 18, height: 18 });
  return Buffer.from(await doc.save());
}

/** Pages with /Rotate and a CropBox whose origin is not 0,0. */
export async function rotatedCroppedPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const rotation of [0, 90, 180, 270]) {
    const page = doc.addPage([600, 800]);
    page.drawText(`Rotated ${rotation}`, { x: 150, y: 400, size: 14, font });
    page.setCropBox(100, 50, 400, 600);
    page.setRotation(degrees(rotation));
  }
  return Buffer.from(await doc.save());
}

/** Runs a command-line reader on `pdf` (written to a temp file) and returns its stdout. */
export async function withFile<T>(data: Uint8Array, fn: (path: string) => Promise<T>, name = 'f.pdf'): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'tools-reader-'));
  const path = join(dir, name);
  writeFileSync(path, data);
  try {
    return await fn(path);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const pdftotext = (pdf: Uint8Array, args: string[] = []) =>
  withFile(pdf, async (p) => (await run('pdftotext', [...args, p, '-'], { maxBuffer: 64 * 1024 * 1024 })).stdout);

export const pdfinfo = (pdf: Uint8Array, args: string[] = []) =>
  withFile(pdf, async (p) => {
    const { stdout } = await run('pdfinfo', ['-enc', 'UTF-8', ...args, p]);
    return Object.fromEntries(
      stdout
        .split('\n')
        .map((l) => /^([^:]+):\s*(.*)$/.exec(l))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => [m[1] as string, (m[2] as string).trim()]),
    ) as Record<string, string>;
  });

/** qpdf --check: exit 0 (or 3 with warnings only) and "No syntax or stream encoding errors found". */
export const qpdfCheck = (pdf: Uint8Array, password?: string) =>
  withFile(pdf, async (p) => {
    try {
      const { stdout } = await run('qpdf', [...(password ? [`--password=${password}`] : []), '--check', p]);
      return stdout;
    } catch (err) {
      return `FAILED ${(err as { stdout?: string; stderr?: string }).stdout ?? ''} ${(err as { stderr?: string }).stderr ?? ''}`;
    }
  });

export const qpdfJson = (pdf: Uint8Array, keys: string[], password?: string) =>
  withFile(pdf, async (p) => {
    const { stdout } = await run('qpdf', [...(password ? [`--password=${password}`] : []), '--json=2', ...keys.map((k) => `--json-key=${k}`), p], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return JSON.parse(stdout);
  });

/** The whole file decompressed by qpdf (--qdf, no object streams), as latin1 text to scan. */
export const qpdfUncompressed = (pdf: Uint8Array) =>
  withFile(pdf, async (p) => {
    const { stdout } = await run('qpdf', ['--qdf', '--object-streams=disable', '--decode-level=all', p, '-'], { encoding: 'latin1', maxBuffer: 256 * 1024 * 1024 });
    return stdout;
  });

/** Encrypts with qpdf (test input only: the password on argv does not matter here). */
export const encryptPdf = (pdf: Uint8Array, user: string, owner: string, bits: '256' | '128' = '256') =>
  withFile(pdf, async (p) => {
    const out = `${p}.enc.pdf`;
    await run('qpdf', ['--encrypt', user, owner, bits, ...(bits === '128' ? ['--use-aes=y'] : []), '--', p, out]);
    const { readFileSync } = await import('node:fs');
    return readFileSync(out);
  });

/** A "scanned" PDF: each page of `source` rendered to a 150 dpi image, no text layer. */
export const scannedPdf = (source: Uint8Array) =>
  withFile(source, async (p) => {
    await run('pdftoppm', ['-r', '150', '-png', '-gray', p, `${p}-img`]);
    const { readdirSync: list, readFileSync } = await import('node:fs');
    const dir = p.slice(0, p.lastIndexOf('/'));
    const doc = await PDFDocument.create();
    for (const name of list(dir).filter((n) => n.endsWith('.png')).sort()) {
      const image = await doc.embedPng(readFileSync(join(dir, name)));
      const page = doc.addPage([595, 842]);
      page.drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
    }
    return Buffer.from(await doc.save());
  });

export interface TextLine {
  text: string;
  /** x0 y0 x1 y1, origin top-left of the page as displayed */
  bbox: [number, number, number, number];
  /** writing direction as a unit vector: [1, 0] is upright left-to-right */
  dir: [number, number];
}

/**
 * mutool's structured text (mupdf's C library, independent of pdf-lib which draws the
 * stamps): every line with its box in the page as displayed, CropBox and /Rotate applied.
 */
export const displayedLines = (pdf: Uint8Array) =>
  withFile(pdf, async (p) => {
    const { stdout } = await run('mutool', ['draw', '-F', 'stext', '-o', '-', p], { maxBuffer: 64 * 1024 * 1024 });
    return stdout
      .split('<page ')
      .slice(1)
      .map((chunk) => {
        const size = /width="([\d.]+)" height="([\d.]+)"/.exec(chunk);
        const lines: TextLine[] = [...chunk.matchAll(/<line bbox="([^"]+)"[^>]*dir="([^"]+)">([\s\S]*?)<\/line>/g)].map((m) => ({
          bbox: (m[1] as string).split(' ').map(Number) as TextLine['bbox'],
          dir: (m[2] as string).split(' ').map(Number) as [number, number],
          text: [...(m[3] as string).matchAll(/ c="([^"]*)"/g)].map((c) => (c[1] as string).replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(Number.parseInt(h, 16))).replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')).join(''),
        }));
        return { width: Number(size?.[1]), height: Number(size?.[2]), lines };
      });
  });

/** pdffonts: whether every font of the document is embedded. */
export const pdffontsAllEmbedded = (pdf: Uint8Array) =>
  withFile(pdf, async (p) => {
    const { stdout } = await run('pdffonts', [p]);
    const rows = stdout.split('\n').slice(2).filter((l) => l.trim());
    return rows.length > 0 && rows.every((row) => / yes (yes|no) (yes|no) /.test(row));
  });

/** pdfimages -list: each image's page, size, encoding. */
export const pdfImages = (pdf: Uint8Array) =>
  withFile(pdf, async (p) => {
    const { stdout } = await run('pdfimages', ['-list', p]);
    return stdout
      .split('\n')
      .slice(2)
      .filter((l) => l.trim())
      .map((l) => {
        const c = l.trim().split(/\s+/);
        return { page: Number(c[0]), type: c[2], width: Number(c[3]), height: Number(c[4]), color: c[5], enc: c[8], xppi: Number(c[12]) };
      });
  });

/** A PNG or JPEG of a rendered test page (pdftoppm), for the image tools. */
export const pageImage = (pdf: Uint8Array, format: 'png' | 'jpeg', dpi = 40) =>
  withFile(pdf, async (p) => {
    await run('pdftoppm', ['-r', String(dpi), `-${format}`, '-singlefile', p, `${p}-img`]);
    const { readFileSync } = await import('node:fs');
    return readFileSync(`${p}-img.${format === 'png' ? 'png' : 'jpg'}`);
  });

/** Width and height from a PNG header. */
export const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

/** mutool trace (mupdf's C library): each page's size and the box of every image drawn on it, y measured from the top. */
export const displayedImages = (pdf: Uint8Array) =>
  withFile(pdf, async (p) => {
    const { stdout } = await run('mutool', ['trace', p], { maxBuffer: 64 * 1024 * 1024 });
    return stdout
      .split('<page ')
      .slice(1)
      .map((chunk) => {
        const box = (/mediabox="([^"]+)"/.exec(chunk)?.[1] ?? '0 0 0 0').split(' ').map(Number);
        const images = [...chunk.matchAll(/<fill_image [^>]*transform="([^"]+)"/g)].map((m) => {
          const [a, b, c, d, e, f] = (m[1] as string).split(' ').map(Number) as [number, number, number, number, number, number];
          const xs = [e, e + a, e + c, e + a + c];
          const ys = [f, f + b, f + d, f + b + d];
          return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)] as [number, number, number, number];
        });
        return { width: (box[2] as number) - (box[0] as number), height: (box[3] as number) - (box[1] as number), images };
      });
  });
