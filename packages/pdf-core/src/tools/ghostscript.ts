import { access, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PdfInputError, ToolOutputError } from './errors';
import { TOOL_TIMEOUTS } from '../tool-timeouts';
import type { ToolEngines } from './engines';
import { xmpPacket, pdfaOf } from './info';
import { preparePdf } from './input';
import { runQpdf } from './qpdf';
import type { EngineRunner } from '../engine-runner';

export type CompressionLevel = 'low' | 'medium' | 'high' | 'extreme';

/**
 * low: lossless only (qpdf: object streams, Flate level 9, unreferenced objects dropped).
 * The others also run ghostscript's pdfwrite with a preset: images downsampled to
 * 300 (medium), 150 (high) or 72 dpi (extreme), fonts subset, duplicate images merged.
 */
const GS_PRESETS: Record<Exclude<CompressionLevel, 'low'>, string> = {
  medium: '/printer',
  high: '/ebook',
  extreme: '/screen',
};

export interface CompressResult {
  data: Uint8Array;
  /** True when no candidate beat the input, which is then returned unchanged. */
  keptOriginal: boolean;
  originalSize: number;
  method: 'original' | 'qpdf' | 'ghostscript';
}

const GS_BASE = ['-dSAFER', '-dBATCH', '-dNOPAUSE', '-dQUIET', '-sDEVICE=pdfwrite'];

async function runGhostscript(runner: EngineRunner, dir: string, args: string[]): Promise<void> {
  const result = await runner.run('ghostscript', [...GS_BASE, ...args], { cwd: dir, timeoutMs: TOOL_TIMEOUTS.ghostscript });
  if (result.exitCode !== 0) {
    // the input passed qpdf's structure check, so this is content ghostscript cannot interpret
    const reason = result.stderr
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.includes(dir))
      .pop();
    throw new PdfInputError('file', `Ghostscript could not process this PDF${reason ? `: ${reason.slice(0, 160)}` : ''}`, 'pdf_unprocessable');
  }
}

/** Every level compares its candidates with the input and answers the smallest: never a larger file. */
export async function compressPdf(engines: ToolEngines, input: Uint8Array, level: CompressionLevel): Promise<CompressResult> {
  const { runner } = engines;
  return runner.withTempDir(async (dir) => {
    const { path } = await preparePdf(runner, dir, input);
    const candidates: { path: string; method: CompressResult['method'] }[] = [];
    const losslessPass = async (source: string, out: string) =>
      runQpdf(runner, dir, ['--object-streams=generate', '--compression-level=9', '--recompress-flate', '--remove-unreferenced-resources=yes', source, out], {
        timeoutMs: TOOL_TIMEOUTS.qpdf,
      });
    // ghostscript often grows text-only files (fonts re-embedded): qpdf's lossless pass over the input competes too
    const lossless = join(dir, 'qpdf.pdf');
    await losslessPass(path, lossless);
    candidates.push({ path: lossless, method: 'qpdf' });
    if (level !== 'low') {
      const gsOut = join(dir, 'gs.pdf');
      await runGhostscript(runner, dir, [
        `-dPDFSETTINGS=${GS_PRESETS[level]}`,
        '-dCompatibilityLevel=1.5',
        '-dDetectDuplicateImages=true',
        '-dSubsetFonts=true',
        '-dCompressFonts=true',
        `-sOutputFile=${gsOut}`,
        path,
      ]);
      // gs writes no object streams: the lossless pass shrinks its output further
      const gsPacked = join(dir, 'gs-qpdf.pdf');
      await losslessPass(gsOut, gsPacked);
      candidates.push({ path: gsOut, method: 'ghostscript' }, { path: gsPacked, method: 'ghostscript' });
    }

    const sizes = await Promise.all(candidates.map(async (c) => ({ ...c, size: (await stat(c.path)).size })));
    const best = sizes.sort((a, b) => a.size - b.size)[0];
    if (!best || best.size >= input.length) return { data: input, keptOriginal: true, originalSize: input.length, method: 'original' };
    return { data: new Uint8Array(await readFile(best.path)), keptOriginal: false, originalSize: input.length, method: best.method };
  });
}

/** sRGB profiles to embed as the PDF/A OutputIntent, in order of preference. */
export const SRGB_PROFILES = ['/usr/share/color/icc/ghostscript/srgb.icc', '/usr/share/color/icc/sRGB.icc', '/usr/share/ghostscript/iccprofiles/srgb.icc'];

async function findSrgbProfile(): Promise<string> {
  for (const candidate of SRGB_PROFILES) {
    try {
      await access(candidate);
      return candidate;
    } catch {
      // try the next
    }
  }
  throw new ToolOutputError(`No sRGB ICC profile found (looked in ${SRGB_PROFILES.join(', ')})`, 'ICC_PROFILE_MISSING');
}

/** PostScript string literal: backslashes and parentheses escaped. */
const psString = (s: string) => `(${s.replace(/[\\()]/g, (c) => `\\${c}`)})`;

/**
 * The prologue that gives ghostscript's PDF/A output its OutputIntent. Debian's stock
 * PDFA_def.ps fails to open its ICC profile and gs still exits 0 without one, so we
 * write our own with an absolute path gs is allowed to read.
 */
function pdfaPrologue(icc: string): string {
  return [
    '%!',
    `/ICCProfile ${psString(icc)} def`,
    '[/_objdef {icc_PDFA} /type /stream /OBJ pdfmark',
    '[{icc_PDFA} << /N 3 >> /PUT pdfmark',
    '[{icc_PDFA} ICCProfile (r) file /PUT pdfmark',
    '[/_objdef {OutputIntent_PDFA} /type /dict /OBJ pdfmark',
    '[{OutputIntent_PDFA} << /Type /OutputIntent /S /GTS_PDFA1 /DestOutputProfile {icc_PDFA}',
    '  /OutputConditionIdentifier (sRGB IEC61966-2.1) /Info (sRGB IEC61966-2.1) /RegistryName (http://www.color.org) >> /PUT pdfmark',
    '[{Catalog} << /OutputIntents [ {OutputIntent_PDFA} ] >> /PUT pdfmark',
    '',
  ].join('\n');
}

export interface PdfaCheck {
  outputIntent: boolean;
  pdfa: string | null;
}

/**
 * Converts to PDF/A-2b (fonts embedded, colours to RGB under an sRGB OutputIntent,
 * XMP with pdfaid part 2 / conformance B) and checks the result for both markers
 * before answering; no PDF/A validator is packaged on Debian, so this is the guard.
 */
export async function toPdfa(engines: ToolEngines, input: Uint8Array): Promise<{ data: Uint8Array; check: PdfaCheck }> {
  const { runner } = engines;
  const icc = await findSrgbProfile();
  return runner.withTempDir(async (dir) => {
    const { path } = await preparePdf(runner, dir, input);
    const prologue = join(dir, 'pdfa-def.ps');
    await writeFile(prologue, pdfaPrologue(icc));
    const out = join(dir, 'out.pdf');
    await runGhostscript(runner, dir, [
      '-dPDFA=2',
      '-dPDFACompatibilityPolicy=1',
      '-sColorConversionStrategy=RGB',
      `--permit-file-read=${icc}`,
      `-sOutputFile=${out}`,
      prologue,
      path,
    ]);
    const check = await checkPdfa(engines, dir, out);
    if (!check.outputIntent || check.pdfa !== '2B') {
      throw new ToolOutputError(
        `Ghostscript's output is not PDF/A-2b (OutputIntent: ${check.outputIntent ? 'yes' : 'missing'}, pdfaid: ${check.pdfa ?? 'missing'})`,
        'PDFA_CONVERSION_FAILED',
      );
    }
    return { data: new Uint8Array(await readFile(out)), check };
  });
}

/** Whether the catalog has a GTS_PDFA1 OutputIntent with an embedded 3-component profile, and the XMP pdfaid. */
export async function checkPdfa(engines: Pick<ToolEngines, 'runner'>, dir: string, path: string): Promise<PdfaCheck> {
  const [objects, xmp] = await Promise.all([
    runQpdf(engines.runner, dir, ['--json=2', '--json-key=qpdf', '--json-stream-data=none', path], { timeoutMs: TOOL_TIMEOUTS.qpdf }),
    xmpPacket(engines, path),
  ]);
  const json = JSON.parse(objects.stdout.toString('utf8')) as { qpdf: [unknown, Record<string, { value?: Record<string, unknown>; stream?: { dict: Record<string, unknown> } }>] };
  const table = json.qpdf[1];
  const deref = (ref: unknown) => (typeof ref === 'string' ? table[`obj:${ref}`] : undefined);
  const root = deref(table.trailer?.value?.['/Root'])?.value;
  const intentsRef = root?.['/OutputIntents'];
  const intents = (Array.isArray(intentsRef) ? intentsRef : ((deref(intentsRef)?.value as unknown) ?? [])) as unknown[];
  const outputIntent = intents.some((ref) => {
    const intent = typeof ref === 'string' ? deref(ref)?.value : (ref as Record<string, unknown>);
    if (!intent || intent['/S'] !== '/GTS_PDFA1') return false;
    const profile = deref(intent['/DestOutputProfile']);
    return profile?.stream?.dict?.['/N'] === 3;
  });
  return { outputIntent, pdfa: pdfaOf(xmp) };
}
