import { createEngineRunner, createWorkerPool, type ToolEngines } from '@platform/pdf-core';

export interface ToolsContext extends ToolEngines {
  close(): Promise<void>;
}

/**
 * The engines of the PDF tools for one process: a runner (per-engine concurrency,
 * timeouts, temp dirs under `tmpDir`) and the worker threads for in-process work.
 * Workers start on first use, so a process that never runs a tool never loads mupdf.
 */
export function createToolsContext(options: { tmpDir?: string; workers?: number } = {}): ToolsContext {
  const runner = createEngineRunner({ tmpRoot: options.tmpDir });
  const pool = createWorkerPool({ size: options.workers });
  return { runner, pool, close: () => pool.close() };
}
