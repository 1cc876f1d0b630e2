import { createEngineRunner, createWorkerPool, startTempSweeper, type EngineSandbox, type ToolEngines } from '@firma-riesgo/pdf-core';
import type { Logger } from '@firma-riesgo/service-kit';

export interface ToolsContext extends ToolEngines {
  close(): Promise<void>;
}

/**
 * The engines of the PDF tools for one process: a runner (per-engine concurrency,
 * timeouts, temp dirs under `tmpDir`) and the worker threads for in-process work.
 * Workers start on first use, so a process that never runs a tool never loads mupdf.
 */
export function createToolsContext(options: { tmpDir?: string; workers?: number; logger?: Logger; sweep?: boolean; sandbox?: EngineSandbox } = {}): ToolsContext {
  const runner = createEngineRunner({ tmpRoot: options.tmpDir, sandbox: options.sandbox });
  // Every job carries its client (a key, a tenant, an IP or /64), so none escapes the fair share.
  const pool = createWorkerPool({ size: options.workers, requireClient: true });
  if (runner.supervision === 'none') options.logger?.warn('no engine launcher on this platform: PDF engines may outlive a crash of this process');
  // Temp dirs a crashed call left behind (users' documents) are removed at start-up and every 5 minutes.
  // Only processes that run engines sweep (not a CLI command, which starts none).
  const sweeper = options.sweep === false ? { stop: () => undefined } : startTempSweeper({
    root: options.tmpDir,
    onSwept: (dirs) => options.logger?.info({ count: dirs.length }, 'removed temp dirs left by crashed calls'),
    onError: (err) => options.logger?.warn({ err }, 'temp dir sweep failed'),
  });
  return {
    runner,
    pool,
    async close() {
      sweeper.stop();
      await Promise.all([pool.close(), runner.close()]);
    },
  };
}
