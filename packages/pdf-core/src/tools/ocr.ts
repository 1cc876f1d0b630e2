import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineFailedError } from '../engine-errors';
import type { EngineRunner } from '../engine-runner';
import { damagedPdf, passwordRequired, PdfInputError } from './errors';
import { TOOL_TIMEOUTS } from '../tool-timeouts';
import type { ToolEngines } from './engines';
import { preparePdf } from './input';

/**
 * skip: pages that already have text are left as they are, the others are OCRed (mixed files work);
 * redo: an existing OCR layer is replaced; force: every page is rasterised and OCRed.
 */
export type OcrMode = 'skip' | 'redo' | 'force';

const MODE_FLAGS: Record<OcrMode, string> = { skip: '--skip-text', redo: '--redo-ocr', force: '--force-ocr' };

let languages: Promise<string[]> | undefined;

/** Tesseract's installed languages (without `osd`, which is not a language); asked once per process. */
export function installedOcrLanguages(runner: EngineRunner): Promise<string[]> {
  languages ??= runner.run('tesseract', ['--list-langs'], { timeoutMs: 10_000 }).then(
    (r) => {
      const list = `${r.stdout.toString('utf8')}\n${r.stderr}`
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => /^[a-z_]{3,}$/i.test(l) && l !== 'osd');
      if (list.length === 0) languages = undefined;
      return list;
    },
    (err: unknown) => {
      languages = undefined;
      throw err;
    },
  );
  return languages;
}

/** Checks `spa+eng`-style language lists against the installed ones; 422 on `lang` naming what is missing. */
export async function validateOcrLanguages(runner: EngineRunner, lang: string): Promise<string[]> {
  const wanted = lang.split('+').map((l) => l.trim());
  const installed = await installedOcrLanguages(runner);
  const missing = wanted.filter((l) => !installed.includes(l));
  if (wanted.length === 0 || missing.length > 0) {
    throw new PdfInputError('lang', `Language${missing.length === 1 ? '' : 's'} not installed: ${missing.join(', ') || '(none given)'}; installed: ${installed.join(', ')}`, 'lang_unsupported');
  }
  return wanted;
}

/** Adds a searchable text layer with ocrmypdf + tesseract. */
export async function ocrPdf(engines: ToolEngines, input: Uint8Array, options: { lang: string; mode: OcrMode }): Promise<Uint8Array> {
  const { runner } = engines;
  const langs = await validateOcrLanguages(runner, options.lang);
  return runner.withTempDir(async (dir) => {
    const { path } = await preparePdf(runner, dir, input);
    const out = join(dir, 'out.pdf');
    const result = await runner.run(
      'ocrmypdf',
      ['-l', langs.join('+'), MODE_FLAGS[options.mode], '--output-type', 'pdf', '--optimize', '1', '--quiet', path, out],
      // ocrmypdf's own temp files land in the call's dir, removed with it; tesseract single-threaded
      // because ocrmypdf already runs pages in parallel.
      { cwd: dir, timeoutMs: TOOL_TIMEOUTS.ocr, env: { TMPDIR: dir, OMP_THREAD_LIMIT: '1' } },
    );
    switch (result.exitCode) {
      case 0:
        return new Uint8Array(await readFile(out));
      case 2:
        throw damagedPdf('file', 'ocrmypdf cannot read it');
      case 6:
        throw new PdfInputError('file', 'The PDF already has text; use mode "redo" or "force"', 'pdf_has_text');
      case 8:
        throw passwordRequired();
      default:
        throw new EngineFailedError('ocrmypdf', result.exitCode, result.stderr);
    }
  });
}
