import type { EngineRunner } from '../engine-runner';
import type { PdfWorkerPool } from './worker-pool';

/** What every tool needs: the external engines and the worker threads for in-process work. */
export interface ToolEngines {
  runner: EngineRunner;
  pool: PdfWorkerPool;
}

/** Time limits per kind of work; an engine past its limit is killed with its children. */
export const TOOL_TIMEOUTS = {
  qpdf: 60_000,
  ghostscript: 180_000,
  ocr: 600_000,
  office: 180_000,
  worker: 180_000,
} as const;

/** A tool's output file with the name and media type to answer it with. */
export interface ToolFile {
  data: Uint8Array;
  contentType: string;
  /** Extension to give the download (without the dot). */
  extension: string;
}

export const pdfFile = (data: Uint8Array): ToolFile => ({ data, contentType: 'application/pdf', extension: 'pdf' });
