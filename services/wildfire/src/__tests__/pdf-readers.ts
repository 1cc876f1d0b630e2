import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Runs a reader on the PDF bytes (written to a temp file, passed as `{file}` or last) and returns its stdout. */
async function readWith(tool: 'pdftotext' | 'pdfinfo' | 'pdffonts' | 'pdfimages' | 'mutool', args: string[], pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'wf-pdf-'));
  try {
    const path = join(dir, 'report.pdf');
    await writeFile(path, pdf);
    const fileArgs = args.includes('{file}') ? args.map((a) => (a === '{file}' ? path : a)) : [...args, path];
    return (await run(tool, fileArgs, { maxBuffer: 64 * 1024 * 1024 })).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The text of each page, as `pdftotext -layout` lays it out. */
export async function pdfPages(pdf: Uint8Array): Promise<string[]> {
  const text = await readWith('pdftotext', ['-layout', '-enc', 'UTF-8', '{file}', '-'], pdf);
  return text.split('\f').filter((page) => page.trim() !== '');
}

/** `pdfinfo` fields by name (`Pages`, `Title`, `Page size`...). */
export async function pdfInfo(pdf: Uint8Array): Promise<Record<string, string>> {
  const out = await readWith('pdfinfo', ['-enc', 'UTF-8'], pdf);
  return Object.fromEntries(out.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
}

/** The rows of `pdffonts`' table: name and whether the font is embedded. */
export async function pdfFonts(pdf: Uint8Array): Promise<{ name: string; embedded: boolean }[]> {
  const lines = (await readWith('pdffonts', [], pdf)).split('\n').slice(2).filter((l) => l.trim());
  // name type encoding emb sub uni object ID: emb is the 4th column from the right end of "yes/no yes/no yes/no N 0".
  return lines.map((l) => {
    const cols = l.trim().split(/\s+/);
    return { name: cols[0]!, embedded: cols[cols.length - 5] === 'yes' };
  });
}

/** `pdfimages -list`'s rows: one per raster image in the file. */
export async function pdfRasterImages(pdf: Uint8Array): Promise<string[]> {
  return (await readWith('pdfimages', ['-list'], pdf)).trim().split('\n').slice(2);
}

/** MuPDF's trace of everything the pages draw. */
export function pdfTrace(pdf: Uint8Array): Promise<string> {
  return readWith('mutool', ['draw', '-F', 'trace', '-o', '-'], pdf);
}
