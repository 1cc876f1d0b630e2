import { z } from 'zod';
import { defineJob, type JobHandlersOf, type JobLogger, type JobRegistry, type LockedRun, type ServiceSchedule } from '@firma-riesgo/service-kit';

/**
 * The recovery sweep (`recovery/resume-interrupted-work.ts`) as a repeatable job: every
 * ESIGN_RECOVERY_INTERVAL_MS, and once whenever a process that runs jobs starts. One run at
 * a time across instances (the advisory lock `esign:recovery-sweep`; the others skip that
 * round), and idempotent: a second run only finds less to do.
 */
export const recoverySweepJob = defineJob({
  name: 'recovery.sweep',
  schema: z.object({}),
  // A failed round is not retried: the next round (ESIGN_RECOVERY_INTERVAL_MS later) is the retry.
  attempts: 1,
  removeOnComplete: 30,
  timeoutMs: 30 * 60_000,
});

export const RECOVERY_SWEEP_LOCK = 'esign:recovery-sweep';

/** The `recovery.sweep` handler: the sweep under its lock; a failed round is logged, and the next round tries again. */
export function recoveryJobHandlers(deps: {
  sweep: (logger: JobLogger) => Promise<unknown>;
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
}): JobHandlersOf<typeof recoverySweepJob> {
  return {
    'recovery.sweep': async (_payload, ctx) => {
      try {
        return await deps.exclusive(RECOVERY_SWEEP_LOCK, () => deps.sweep(ctx.logger));
      } catch (err) {
        ctx.logger.warn({ err }, 'could not resume interrupted work');
        return { ran: false };
      }
    },
  };
}

/** Every ESIGN_RECOVERY_INTERVAL_MS, and at start. */
export function recoveryJobSchedules(config: { recoveryIntervalMs: number }): ServiceSchedule<JobRegistry<typeof recoverySweepJob>>[] {
  return [{ name: 'recovery.sweep', repeat: { everyMs: config.recoveryIntervalMs }, payload: {}, atStart: true }];
}
