import { z } from 'zod';
import { defineJob, type JobHandlersOf, type JobLogger, type JobRegistry, type LockedRun, type ServiceSchedule } from '@firma-riesgo/service-kit';

/**
 * The reminder sweep (`send-reminders.ts` `remindDue`) as a repeatable job, every
 * ESIGN_REMINDER_INTERVAL_MS: the scheduled reminders and expiry warnings owed at the
 * runtime's clock, then the waiting requests an expiry blocked for good, cancelled
 * (`expire-due.ts` `settleBlocked`). One run at a time across instances (the advisory lock
 * `esign:reminder-sweep`); each reminder is sent under its request's row lock and moves its
 * counters in the same transaction, so a second run finds nothing more to send.
 */
export const reminderSweepJob = defineJob({
  name: 'reminders.sweep',
  schema: z.object({}),
  // A failed round is not retried: the next round is the retry.
  attempts: 1,
  removeOnComplete: 30,
  timeoutMs: 10 * 60_000,
});

export const REMINDER_SWEEP_LOCK = 'esign:reminder-sweep';

export function reminderJobHandlers(deps: {
  remindDue: () => Promise<{ reminders: number; warnings: number }>;
  /** expire-due.ts `settleBlocked`: waiting requests an expiry blocked for good are cancelled and told. */
  settleBlocked: () => Promise<number>;
  exclusive: <T>(name: string, work: () => Promise<T>) => Promise<LockedRun<T>>;
}): JobHandlersOf<typeof reminderSweepJob> {
  return {
    'reminders.sweep': async (_payload, ctx: { logger: JobLogger }) => {
      try {
        return await deps.exclusive(REMINDER_SWEEP_LOCK, async () => ({ ...(await deps.remindDue()), cancelledByExpiry: await deps.settleBlocked() }));
      } catch (err) {
        ctx.logger.warn({ err }, 'could not send the reminders due');
        return { ran: false };
      }
    },
  };
}

/** Every ESIGN_REMINDER_INTERVAL_MS. */
export function reminderJobSchedules(config: { reminderIntervalMs: number }): ServiceSchedule<JobRegistry<typeof reminderSweepJob>>[] {
  return [{ name: 'reminders.sweep', repeat: { everyMs: config.reminderIntervalMs }, payload: {} }];
}
