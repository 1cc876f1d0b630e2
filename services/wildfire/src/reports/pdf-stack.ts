/**
 * The PDF stack (@firma-riesgo/pdf-core: signing, layout, fonts, about a third of the CLI's
 * start-up), loaded where it is first used instead of at start-up: a process that renders and
 * seals nothing (the CLI ingesting weather, a worker between reports) never loads it. The
 * seal's identity is loaded at the start of the roles that seal, so a bad one still stops
 * them at once (runtime.ts).
 */
import type { PadesLevel, PdfWorkerPool, PoolStats, WorkerPoolOptions } from '@firma-riesgo/pdf-core';

let loading: Promise<typeof import('@firma-riesgo/pdf-core')> | undefined;

/** pdf-core, loaded once. */
export function pdfCore(): Promise<typeof import('@firma-riesgo/pdf-core')> {
  loading ??= import('@firma-riesgo/pdf-core');
  return loading;
}

/** pdf-core's PAdES levels, written here so the configuration can be parsed without loading the PDF stack (checked against pdf-core's type both ways). */
export const PADES_LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const satisfies readonly PadesLevel[];
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const _samePadesLevels: Exactly<(typeof PADES_LEVELS)[number], PadesLevel> = true;
void _samePadesLevels;

/**
 * pdf-core's worker pool, created (and pdf-core loaded) on its first job; its threads start
 * on demand as before. Until then it reports no workers, and closing it has nothing to stop.
 */
export function lazyWorkerPool(options: WorkerPoolOptions): PdfWorkerPool {
  let pool: Promise<PdfWorkerPool> | undefined;
  let ready: PdfWorkerPool | undefined;
  const get = () => {
    pool ??= pdfCore().then((core) => (ready = core.createWorkerPool(options)));
    return pool;
  };
  return {
    run: (op, args, runOptions) => get().then((p) => p.run(op, args, runOptions)),
    stats: (): PoolStats => ready?.stats() ?? { size: Math.max(1, options.size ?? 1), started: 0, busy: 0, queued: 0 },
    close: async () => {
      if (pool) await (await pool).close();
    },
  };
}
