import type { CronExpressionParser as CronParser } from 'cron-parser';
import { prepareJob } from './payload';
import type { JobInputOf, JobNameOf, JobRegistry } from './registry';

/**
 * When a repeatable job runs: a cron pattern (five fields, or six with seconds first) read
 * in `tz` (an IANA zone; default UTC), or a fixed interval.
 */
export type JobRepeat = { pattern: string; tz?: string } | { everyMs: number };

/**
 * One repeatable job of a registry: the job `name` runs on `repeat` with `payload`. A queue
 * holds at most one schedule per job name (the name is the schedule's id).
 */
export type JobSchedule<R extends JobRegistry> = {
  [Name in JobNameOf<R>]: { name: Name; repeat: JobRepeat; payload: JobInputOf<R, Name> };
}[JobNameOf<R>];

/** Throws an Error naming what is wrong: an unparsable pattern, an unknown zone, an interval that is not a positive whole number of ms. */
export function assertRepeat(repeat: JobRepeat): void {
  if ('everyMs' in repeat) {
    if (!Number.isInteger(repeat.everyMs) || repeat.everyMs < 1) throw new Error(`everyMs must be a positive whole number of milliseconds, got ${repeat.everyMs}`);
    return;
  }
  nextRunAfter(repeat, new Date());
}

/** Whether `pattern` is a cron pattern `assertRepeat` accepts (for config validation). */
export function isCronPattern(pattern: string, tz?: string): boolean {
  try {
    assertRepeat({ pattern, tz });
    return true;
  } catch {
    return false;
  }
}

/** The first run strictly after `after`. */
export function nextRunAfter(repeat: JobRepeat, after: Date): Date {
  if ('everyMs' in repeat) return new Date(after.getTime() + repeat.everyMs);
  if (repeat.tz !== undefined && !isTimeZone(repeat.tz)) throw new Error(`"${repeat.tz}" is not an IANA time zone`);
  // cron-parser is loaded by the first schedule checked, not by every process importing service-kit.
  const { CronExpressionParser }: { CronExpressionParser: typeof CronParser } = require('cron-parser');
  try {
    return CronExpressionParser.parse(repeat.pattern, { currentDate: after, tz: repeat.tz ?? 'UTC', strict: false }).next().toDate();
  } catch (err) {
    throw new Error(`"${repeat.pattern}" is not a cron pattern: ${(err as Error).message}`, { cause: err });
  }
}

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The schedules given, checked: known jobs, one schedule per job, valid repeats and payloads (JobPayloadError). */
export function assertSchedules<R extends JobRegistry>(registry: R, schedules: readonly JobSchedule<R>[]): void {
  const seen = new Set<string>();
  for (const schedule of schedules) {
    const name = schedule.name as string;
    prepareJob(registry.get(name), schedule.payload);
    if (seen.has(name)) throw new Error(`Job "${name}" is scheduled twice`);
    seen.add(name);
    try {
      assertRepeat(schedule.repeat);
    } catch (err) {
      throw new Error(`Job "${name}": ${(err as Error).message}`, { cause: err });
    }
  }
}
