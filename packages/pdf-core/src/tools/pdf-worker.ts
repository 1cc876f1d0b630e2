import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { parentPort } from 'node:worker_threads';
import { ValidationError } from '@firma-riesgo/errors';
import type * as Mupdf from 'mupdf/dist/mupdf';
import { normalisePng } from '../images/normalise-png';
import { renderTypedName } from '../images/typed-name';
import { logoPng } from '../images/logo-png';
import { acceptPdf } from '../inspect/pdf-acceptance';
import { renderLayout } from '../layout/render-layout';
import { verifyPdfSignatures } from '../signing/verify';
import { checkPdf, extractText, findText, imagesToPdf, probeEncryption, renderPages, ResultTooLargeError } from './mupdf-ops';
import { redactPdf } from './mupdf-redact';
import { stripOfficeLinks } from './office-links';
import { numberPages, setMetadata, watermarkPdf } from './pdf-lib-ops';
import type { WorkerOps, WorkerRequest, WorkerResponse } from './worker-protocol';

/**
 * Entry point of a worker thread of the pool (worker-pool.ts). Runs one job at a time.
 * mupdf is an ES module with top-level await; this file is compiled to CommonJS, where
 * `import()` would be rewritten to require(), so the import goes through Function.
 */
const importEsm = new Function('specifier', 'return import(specifier)') as (specifier: string) => Promise<unknown>;
let mupdfLoading: Promise<typeof Mupdf> | undefined;

function mupdf(): Promise<typeof Mupdf> {
  mupdfLoading ??= importEsm(pathToFileURL(createRequire(__filename).resolve('mupdf')).href).then((m) => {
    const mod = m as typeof Mupdf;
    // mupdf warns on stderr about every repaired object; the job's result says enough
    mod.setLog(null);
    return mod;
  });
  return mupdfLoading;
}

type Handlers = {
  [K in keyof WorkerOps]: (args: WorkerOps[K]['args'], id: number, maxResultBytes: number) => Promise<WorkerOps[K]['result']> | WorkerOps[K]['result'];
};

const port = parentPort;
if (!port) throw new Error('pdf-worker.js runs only as a worker thread');

const handlers: Handlers = {
  watermark: (args) => watermarkPdf(args),
  'page-numbers': (args) => numberPages(args),
  metadata: (args) => setMetadata(args.pdf, args.fields),
  redact: async (args, id) => redactPdf(await mupdf(), args, (ms) => port.postMessage({ id, type: 'deadline', ms } satisfies WorkerResponse)),
  'pdf-to-images': async (args, _id, maxResultBytes) => renderPages(await mupdf(), args, maxResultBytes),
  'images-to-pdf': async (args) => imagesToPdf(await mupdf(), args),
  'probe-encryption': async (args) => probeEncryption(await mupdf(), args.pdf),
  'check-pdf': async (args) => checkPdf(await mupdf(), args),
  'normalise-png': async (args) => normalisePng(await mupdf(), args),
  'accept-pdf': (args) => acceptPdf(args.pdf),
  'verify-signatures': ({ pdf, ...options }) => verifyPdfSignatures(pdf, options),
  'render-layout': (args) => renderLayout(args),
  'extract-text': async (args) => extractText(await mupdf(), args),
  'find-text': async (args) => findText(await mupdf(), args),
  'typed-name': async (args) => renderTypedName(await mupdf(), args),
  'logo-png': async (args) => logoPng(await mupdf(), args),
  'strip-office-links': (args) => stripOfficeLinks(args),
};

/** The byte arrays of a result: moved to the pool instead of copied, and counted against maxResultBytes. */
function byteArrays(result: unknown): Uint8Array[] {
  const out: Uint8Array[] = [];
  const visit = (v: unknown) => {
    if (v instanceof Uint8Array) out.push(v);
    else if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') Object.values(v).forEach(visit);
  };
  visit(result);
  return out;
}

function transferables(arrays: Uint8Array[]): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  for (const v of arrays) if (v.buffer instanceof ArrayBuffer && v.byteOffset === 0 && v.byteLength === v.buffer.byteLength) out.add(v.buffer);
  return [...out];
}

port.on('message', async (req: WorkerRequest) => {
  try {
    const handler = handlers[req.op as keyof WorkerOps] as (args: unknown, id: number, maxResultBytes: number) => unknown;
    if (!handler) throw new Error(`unknown worker op "${req.op}"`);
    const maxResultBytes = req.maxResultBytes ?? Infinity;
    const result = await handler(req.args, req.id, maxResultBytes);
    // a result over the call's output budget never leaves the worker
    const arrays = byteArrays(result);
    if (arrays.reduce((sum, a) => sum + a.byteLength, 0) > maxResultBytes) throw new ResultTooLargeError();
    port.postMessage({ id: req.id, type: 'done', result } satisfies WorkerResponse, transferables(arrays));
  } catch (err) {
    const error: Extract<WorkerResponse, { type: 'failed' }>['error'] =
      err instanceof ResultTooLargeError
        ? { kind: 'output-budget' }
        : err instanceof ValidationError
        ? { kind: 'input', issues: err.issues }
        : { kind: 'error', message: String((err as Error)?.message ?? err), stack: (err as Error)?.stack };
    port.postMessage({ id: req.id, type: 'failed', error } satisfies WorkerResponse);
  }
});
