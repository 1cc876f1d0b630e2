import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { notPdf, PdfInputError } from './errors';
import { TOOL_TIMEOUTS } from '../tool-timeouts';
import type { ToolEngines } from './engines';
import { hasPdfHeader, probePdf } from './input';
import { preparePdfQuick, workWhileLooking } from './quick-check';
import { formatPageList, parsePageList, parsePageRanges, qpdfPageSpec } from './page-ranges';
import { runQpdf } from './qpdf';
import { readOutput } from './read-output';
import { writeInput } from './write-input';
import { chargeOutput } from '../tool-caller';

export interface SplitPart {
  pages: number[];
  data: Uint8Array;
}

/** At most this many parts in one answer (they travel as base64 in one JSON body). */
export const MAX_SPLIT_PARTS = 500;

/** qpdf runs one split works on at once (the runner's fair share caps a client further). */
const SPLIT_RUNS_AT_ONCE = 2;
/** Parts of one qpdf split run read at once (their bytes are charged to the budget as each arrives). */
const PART_READS_AT_ONCE = 8;

/**
 * Splits a PDF into parts: one per comma-separated item of `ranges` (`1-3,4-6,7-`), or
 * runs of `every` pages (default 1: one part per page). Each part keeps the document's
 * metadata and the pages' annotations.
 *
 * Every part is charged to the call's output budget as it is read (chargeOutput), and its
 * file removed: a request that multiplies its input (`1-1,1-1,...`, or shared resources
 * copied into every part) stops with 413 at the budget, not after writing everything.
 */
export async function splitPdf(engines: ToolEngines, input: Uint8Array, options: { ranges?: string; every?: number }): Promise<SplitPart[]> {
  const { runner } = engines;
  return runner.withTempDir(async (dir) => {
    // `keep`: the part's file stays for the temp dir's removal (no engine writes after it)
    const readPart = async (file: string, group: number[], keep = false): Promise<SplitPart> => {
      const data = await readOutput(file);
      if (!keep) await rm(file, { force: true });
      chargeOutput(data.byteLength);
      return { pages: group, data };
    };
    if (options.ranges !== undefined) {
      const { path, pages } = await preparePdfQuick(engines, dir, input);
      const groups = parsePageRanges(options.ranges, pages, 'ranges');
      if (groups.length > MAX_SPLIT_PARTS) throw new PdfInputError('ranges', `At most ${MAX_SPLIT_PARTS} parts`, 'too_many_parts');
      return mapInTurns(groups, SPLIT_RUNS_AT_ONCE, async (group, i) => {
        const out = join(dir, `part-${i + 1}.pdf`);
        await runQpdf(runner, dir, [path, '--pages', '.', formatPageList(group), '--', out], { timeoutMs: TOOL_TIMEOUTS.qpdf });
        return readPart(out, group);
      });
    }
    const every = options.every ?? 1;
    // One qpdf run writes every part: split0-01-10.pdf, split0-11-20.pdf, ... (the temp dir is
    // watched meanwhile). It starts while mupdf looks (workWhileLooking), instead of after:
    // 3 ms of a 100-page split here. Each run writes under its own prefix, so the parts read
    // are those of the run whose outcome counts, never an early run's that was killed.
    let runs = 0;
    const prefix = await workWhileLooking(
      engines,
      dir,
      input,
      async (path, signal) => {
        const prefix = `split${runs++}-`;
        await runQpdf(runner, dir, [`--split-pages=${every}`, path, join(dir, `${prefix}%d.pdf`)], { timeoutMs: TOOL_TIMEOUTS.qpdf, signal });
        return prefix;
      },
      (pages) => {
        if (Math.ceil(pages / every) > MAX_SPLIT_PARTS) {
          throw new PdfInputError('every', `That makes more than ${MAX_SPLIT_PARTS} parts; use a larger "every"`, 'too_many_parts');
        }
      },
    );
    const names = (await readdir(dir)).filter((n) => n.startsWith(prefix)).sort();
    // qpdf has written every part: they are read several at once (readOutput: a small one in
    // one go) and their files left to the temp dir's removal. One after the other through
    // fs/promises, each removed, 100 parts of 10 KB took 14 ms of a 45 ms call, now about 1 ms.
    // Each part is still charged as it is read: past the budget, the reads stop.
    const parts = await mapInTurns(names, PART_READS_AT_ONCE, async (name) => {
      const m = /^split\d+-(\d+)(?:-(\d+))?\.pdf$/.exec(name);
      const from = Number(m?.[1]);
      const to = m?.[2] ? Number(m[2]) : from;
      return readPart(join(dir, name), Array.from({ length: to - from + 1 }, (_, i) => from + i), true);
    });
    return parts.sort((a, b) => (a.pages[0] ?? 0) - (b.pages[0] ?? 0));
  });
}

/**
 * `fn` over `items`, at most `atOnce` at a time, results in order. The first failure stops
 * the starts; it is thrown once the calls already started have settled (their files are
 * in the temp dir, which goes only after them).
 */
async function mapInTurns<T, R>(items: readonly T[], atOnce: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  let failure: { err: unknown } | undefined;
  const lane = async () => {
    while (!failure && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i] as T, i);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(atOnce, items.length) }, lane));
  if (failure) throw failure.err;
  return results;
}

/**
 * A new PDF of the selected pages (`1,3,5-7`), in the order given. A selection qpdf can
 * take as it is (qpdfPageSpec) starts while mupdf looks (workWhileLooking), instead of
 * after: 2.8 ms of a 100-page call here. The page count still judges it (parsePageList),
 * and its refusal wins; any other selection is judged first, as before.
 */
export async function extractPages(engines: ToolEngines, input: Uint8Array, spec: string): Promise<{ data: Uint8Array; pages: number[] }> {
  const { runner } = engines;
  return runner.withTempDir(async (dir) => {
    const out = join(dir, 'out.pdf');
    const extract = async (path: string, pageSpec: string, signal?: AbortSignal) => {
      await runQpdf(runner, dir, [path, '--pages', '.', pageSpec, '--', out], { timeoutMs: TOOL_TIMEOUTS.qpdf, signal });
      return readOutput(out);
    };
    const early = qpdfPageSpec(spec);
    if (early !== null) {
      let selected: number[] = [];
      const data = await workWhileLooking(
        engines,
        dir,
        input,
        (path, signal) => extract(path, early, signal),
        (pages) => {
          selected = parsePageList(spec, pages, 'pages');
        },
      );
      return { data, pages: selected };
    }
    const { path, pages } = await preparePdfQuick(engines, dir, input);
    const selected = parsePageList(spec, pages, 'pages');
    return { data: await extract(path, selected.join(',')), pages: selected };
  });
}

/** Turns the selected pages (all by default) clockwise by `angle`, on top of their current /Rotate. */
export async function rotatePdf(engines: ToolEngines, input: Uint8Array, angle: 90 | 180 | 270, spec?: string): Promise<Uint8Array> {
  const { runner } = engines;
  return runner.withTempDir(async (dir) => {
    const out = join(dir, 'out.pdf');
    const rotate = async (path: string, selected: string, signal?: AbortSignal) => {
      await runQpdf(runner, dir, [`--rotate=+${angle}:${selected}`, path, out], { timeoutMs: TOOL_TIMEOUTS.qpdf, signal });
      return readOutput(out);
    };
    // all pages: the page count is not needed, qpdf starts while mupdf looks
    if (spec === undefined) return workWhileLooking(engines, dir, input, (path, signal) => rotate(path, '1-z', signal));
    const { path, pages } = await preparePdfQuick(engines, dir, input);
    return rotate(path, formatPageList([...new Set(parsePageList(spec, pages, 'pages'))].sort((a, b) => a - b)));
  });
}

/**
 * Burns form fields and annotations into the page content (appearances generated
 * first, so field values stay visible) and drops the AcroForm.
 */
export async function flattenPdf(engines: ToolEngines, input: Uint8Array): Promise<Uint8Array> {
  const { runner } = engines;
  return runner.withTempDir(async (dir) => {
    const out = join(dir, 'out.pdf');
    return workWhileLooking(engines, dir, input, async (path, signal) => {
      await runQpdf(runner, dir, ['--generate-appearances', '--flatten-annotations=all', path, out], { timeoutMs: TOOL_TIMEOUTS.qpdf, signal });
      return readOutput(out);
    });
  });
}

/**
 * AES-256 encryption (PDF 2.0 / R6). Both passwords go to qpdf in a JSON job file in
 * the call's private temp dir (runQpdf), never through argv, so any characters work,
 * a leading `-` or `@` included. Without an owner password, the user password is the
 * owner password too.
 */
export async function protectPdf(engines: ToolEngines, input: Uint8Array, password: string, ownerPassword?: string): Promise<Uint8Array> {
  const { runner } = engines;
  return runner.withTempDir(async (dir) => {
    const out = join(dir, 'out.pdf');
    return workWhileLooking(engines, dir, input, async (path, signal) => {
      await runQpdf(runner, dir, [path, out], {
        timeoutMs: TOOL_TIMEOUTS.qpdf,
        signal,
        encrypt: { userPassword: password, ownerPassword: ownerPassword ?? password },
      });
      return readOutput(out);
    });
  });
}

/**
 * Removes the encryption with the user or owner password; a wrong one is a 422 on `password`.
 *
 * qpdf's structure check (with the password: encrypted or not, pages, a wrong password) and
 * its decryption run side by side: the check decides, exactly as when it ran first (its
 * refusal wins, an unencrypted file comes back unchanged and the decryption is dropped). No
 * mupdf look: opening an AES-256 file, mupdf hashes the empty password, which cost more
 * (about 40 ms here) than both qpdf runs.
 */
export async function unprotectPdf(engines: ToolEngines, input: Uint8Array, password: string): Promise<{ data: Uint8Array; wasEncrypted: boolean }> {
  const { runner } = engines;
  if (!hasPdfHeader(input)) throw notPdf();
  return runner.withTempDir(async (dir) => {
    const path = join(dir, 'in.pdf');
    await writeInput(path, input);
    const out = join(dir, 'out.pdf');
    const decrypting = runQpdf(runner, dir, ['--decrypt', path, out], { password, passwordField: 'password', timeoutMs: TOOL_TIMEOUTS.qpdf }).then(() => readOutput(out));
    // settled before the temp dir goes, whatever the check says
    const settled = decrypting.then(
      () => undefined,
      () => undefined,
    );
    let encrypted: boolean;
    try {
      encrypted = (await probePdf(runner, dir, path, { password, passwordField: 'password' })).encrypt.encrypted;
    } catch (err) {
      await settled;
      throw err;
    }
    if (!encrypted) {
      await settled;
      return { data: input, wasEncrypted: false };
    }
    return { data: await decrypting, wasEncrypted: true };
  });
}
