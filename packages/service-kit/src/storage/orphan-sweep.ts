import { z } from 'zod';
import type { LockedRun } from '../database/run-if-unlocked';
import { defineJob } from '../queue/define-job';
import type { JobHandlersOf } from '../queue/handlers';
import type { JobLogger } from '../queue/logger';
import type { BlobStore } from './blob-store';
import type { OrphanSweep, PostgresBlobStore } from './postgres-blob-store';

/**
 * The `storage.sweep` job both services run with the `postgres` backend: deletes chunk
 * versions no key points at (a write that crashed before switching its key, or a
 * replacement whose old chunks were not dropped) once their newest chunk is older than
 * the grace period. Repeatable (`STORAGE_SWEEP_EVERY_MS`), one instance at a time, and
 * idempotent: a retry or a second run finds less to do.
 */
export const storageSweepJob = defineJob({
  name: 'storage.sweep',
  schema: z.object({}),
  attempts: 3,
  backoff: { type: 'exponential', delayMs: 60_000 },
  removeOnComplete: 30,
  timeoutMs: 30 * 60_000,
});

/** How often the sweep runs. */
export const STORAGE_SWEEP_EVERY_MS = 60 * 60_000;

/**
 * Chunks younger than this are never swept: a write in progress adds a chunk at least
 * every few seconds, and HTTP and job timeouts end any write long before an hour.
 */
export const ORPHAN_GRACE_MS = 60 * 60_000;

/** The sweep's schedule, or none when the store is not `postgres` (nothing to sweep). */
export function storageSweepSchedules(store: Pick<BlobStore, 'kind'>): { name: 'storage.sweep'; repeat: { everyMs: number }; payload: Record<string, never> }[] {
  return store.kind === 'postgres' ? [{ name: 'storage.sweep', repeat: { everyMs: STORAGE_SWEEP_EVERY_MS }, payload: {} }] : [];
}

export function createStorageSweep(deps: {
  service: string;
  files: BlobStore;
  clock: () => Date;
  /** Runs the sweep unless another instance is running it (`runIfUnlocked` on the service's database). */
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
  graceMs?: number;
}) {
  const graceMs = deps.graceMs ?? ORPHAN_GRACE_MS;
  return async function sweepOrphanBlobs(logger: Pick<JobLogger, 'info'>): Promise<OrphanSweep & { ran: boolean }> {
    if (deps.files.kind !== 'postgres') return { ran: false, versions: 0, chunks: 0, bytes: 0 };
    const store = deps.files as PostgresBlobStore;
    const run = await deps.exclusive(`${deps.service}:storage-sweep`, () => store.sweepOrphans(new Date(deps.clock().getTime() - graceMs)));
    const summary = run.ran ? { ran: true, ...run.value } : { ran: false, versions: 0, chunks: 0, bytes: 0 };
    logger.info(summary, run.ran ? 'swept orphan blob chunks' : 'the storage sweep is running elsewhere; skipped');
    return summary;
  };
}

/** The `storage.sweep` handler of a service's job registry. */
export function storageSweepJobHandlers(deps: Parameters<typeof createStorageSweep>[0]): JobHandlersOf<typeof storageSweepJob> {
  const sweepOrphanBlobs = createStorageSweep(deps);
  return { 'storage.sweep': (_payload, ctx) => sweepOrphanBlobs(ctx.logger) };
}
