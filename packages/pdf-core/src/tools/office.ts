import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UnsupportedMediaTypeError } from '@firma-riesgo/errors';
import { EngineFailedError } from '../engine-errors';
import { PdfInputError } from './errors';
import { TOOL_TIMEOUTS, type ToolEngines } from './engines';

const ZIP = 'zip';
const OLE = 'ole';
const RTF = 'rtf';

/** Extensions LibreOffice converts here, with the container their files must be. */
export const OFFICE_EXTENSIONS: Record<string, typeof ZIP | typeof OLE | typeof RTF> = {
  docx: ZIP,
  xlsx: ZIP,
  pptx: ZIP,
  odt: ZIP,
  ods: ZIP,
  odp: ZIP,
  doc: OLE,
  xls: OLE,
  ppt: OLE,
  rtf: RTF,
};

function containerOf(data: Uint8Array): string | null {
  const head = Buffer.from(data.subarray(0, 8));
  if (head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) return ZIP;
  if (head.equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))) return OLE;
  if (head.subarray(0, 5).toString('latin1') === '{\\rtf') return RTF;
  return null;
}

/** The lowercase extension of an uploaded file name, or '' when it has none. */
export function extensionOf(filename: string): string {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(filename);
  return m ? (m[1] as string).toLowerCase() : '';
}

/**
 * Converts an office document with LibreOffice. Every conversion gets its own user
 * profile inside its own temp dir: parallel conversions sharing one profile fail
 * (exit 1, no output). The runner caps how many run at once.
 */
export async function officeToPdf(engines: ToolEngines, input: Uint8Array, filename: string): Promise<Uint8Array> {
  const ext = extensionOf(filename);
  const container = OFFICE_EXTENSIONS[ext];
  if (!container) {
    throw new UnsupportedMediaTypeError(
      `".${ext || '(none)'}" files cannot be converted; supported: ${Object.keys(OFFICE_EXTENSIONS).map((e) => `.${e}`).join(', ')}`,
      'UNSUPPORTED_FILE_TYPE',
      { param: 'file' },
    );
  }
  if (containerOf(input) !== container) throw new PdfInputError('file', `The file is not a valid .${ext} document`, 'document_invalid');
  const { runner } = engines;
  return runner.withTempDir(async (dir) => {
    const source = join(dir, `document.${ext}`);
    const outDir = join(dir, 'out');
    await mkdir(outDir);
    await writeFile(source, input);
    const result = await runner.run(
      'libreoffice',
      [
        `-env:UserInstallation=${pathToFileURL(join(dir, 'profile')).href}`,
        '--headless',
        '--norestore',
        '--nolockcheck',
        '--nodefault',
        '--nologo',
        '--convert-to',
        'pdf',
        '--outdir',
        outDir,
        source,
      ],
      { cwd: dir, timeoutMs: TOOL_TIMEOUTS.office, env: { HOME: dir } },
    );
    const produced = (await readdir(outDir)).find((n) => n.endsWith('.pdf'));
    if (!produced) {
      // soffice exits 0 without output on a file it cannot load
      if (result.exitCode === 0) throw new PdfInputError('file', `LibreOffice could not open this .${ext} document`, 'document_invalid');
      throw new EngineFailedError('libreoffice', result.exitCode, result.stderr);
    }
    return new Uint8Array(await readFile(join(outDir, produced)));
  });
}
