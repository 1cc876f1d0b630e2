import type { EngineRunner } from '../engine-runner';
import type { PdfWorkerPool } from './worker-pool';

/** What every tool needs: the external engines and the worker threads for in-process work. */
export interface ToolEngines {
  runner: EngineRunner;
  pool: PdfWorkerPool;
}

/** A tool's output file with the name and media type to answer it with. */
export interface ToolFile {
  data: Uint8Array;
  contentType: string;
  /** Extension to give the download (without the dot). */
  extension: string;
}

export const pdfFile = (data: Uint8Array): ToolFile => ({ data, contentType: 'application/pdf', extension: 'pdf' });
