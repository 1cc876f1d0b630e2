import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { UnsupportedMediaTypeError } from '@firma-riesgo/errors';
import { EngineFailedError } from '../engine-errors';
import { PdfInputError } from './errors';
import { TOOL_TIMEOUTS } from '../tool-timeouts';
import type { ToolEngines } from './engines';
import type { OfficePackageKind } from './office-links';

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

/** ODF packages; the other zip formats are OOXML. */
const ODF_EXTENSIONS = new Set(['odt', 'ods', 'odp']);

/**
 * The profile every conversion starts with (user/registrymodifications.xcu), values from
 * LibreOffice's Common.xcs, Writer.xcs and Calc.xcs: links and pictures that a document
 * references from elsewhere are not loaded (BlockUntrustedRefererLinks), links are never
 * updated (Writer 0 and Calc 1 are "never"), fields are not updated, macros never run.
 * `oor:finalized` keeps the document from changing them.
 */
export const OFFICE_PROFILE_XCU = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse" oor:finalized="true"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="MacroSecurityLevel" oor:op="fuse" oor:finalized="true"><value>3</value></prop></item>
<item oor:path="/org.openoffice.Office.Common/Security/Scripting"><prop oor:name="DisableMacrosExecution" oor:op="fuse" oor:finalized="true"><value>true</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Link" oor:op="fuse" oor:finalized="true"><value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Field" oor:op="fuse" oor:finalized="true"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Writer/Content/Update"><prop oor:name="Chart" oor:op="fuse" oor:finalized="true"><value>false</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Content/Update"><prop oor:name="Link" oor:op="fuse" oor:finalized="true"><value>1</value></prop></item>
</oor:items>
`;

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
 *
 * Nothing outside the document is fetched or read, in three layers: links are stripped
 * from zip packages first (office-links.ts, on a worker thread), the profile refuses
 * linked content, and the engine sandbox has no network and sees only the temp dir.
 * The binary formats (.doc, .xls, .ppt, .rtf) cannot be stripped, so they are converted
 * only inside the sandbox; without it they answer 422 document_unsafe.
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
  const { runner, pool } = engines;
  if (container !== ZIP && runner.sandbox !== 'bwrap') {
    throw new PdfInputError(
      'file',
      `.${ext} files are converted only where PDF engines run in the sandbox (links cannot be removed from this format); send it as .docx, .xlsx, .pptx or OpenDocument`,
      'document_unsafe',
    );
  }
  let document = input;
  if (container === ZIP) {
    const kind: OfficePackageKind = ODF_EXTENSIONS.has(ext) ? 'odf' : 'ooxml';
    document = (await pool.run('strip-office-links', { data: input, kind }, { timeoutMs: TOOL_TIMEOUTS.worker })).data;
  }
  return runner.withTempDir(async (dir) => {
    const source = join(dir, `document.${ext}`);
    const outDir = join(dir, 'out');
    const profile = join(dir, 'profile');
    await mkdir(outDir);
    await mkdir(join(profile, 'user'), { recursive: true });
    await writeFile(join(profile, 'user', 'registrymodifications.xcu'), OFFICE_PROFILE_XCU);
    await writeFile(source, document);
    const result = await runner.run(
      'libreoffice',
      [
        `-env:UserInstallation=${pathToFileURL(profile).href}`,
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
