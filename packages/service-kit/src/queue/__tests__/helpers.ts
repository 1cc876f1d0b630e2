import { defineJob } from '../define-job';
import { z } from 'zod';
import type { JobLogger } from '../logger';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(reason: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  obj: Record<string, unknown>;
  msg: string | undefined;
}

/** A logger that keeps its lines and lets a test wait for one to be written. */
export interface RecordingLogger extends JobLogger {
  lines: LogLine[];
  waitFor(predicate: (line: LogLine) => boolean): Promise<LogLine>;
}

export function recordingLogger(): RecordingLogger {
  const lines: LogLine[] = [];
  const waiters: { predicate: (line: LogLine) => boolean; resolve(line: LogLine): void }[] = [];
  const write = (level: LogLine['level']) => (obj: object, msg?: string) => {
    const line = { level, obj: obj as Record<string, unknown>, msg };
    lines.push(line);
    for (const waiter of [...waiters]) {
      if (!waiter.predicate(line)) continue;
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  };
  return {
    lines,
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    waitFor(predicate) {
      const seen = lines.find(predicate);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
  };
}

/** Lets every already-scheduled callback (timers due now, I/O, immediates) run first. */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Sample jobs both queue implementations are tested with. */
export const sampleEmailJob = defineJob({
  name: 'email.send',
  schema: z.object({ to: z.email(), template: z.string().default('welcome') }),
  attempts: 3,
  backoff: { type: 'fixed', delayMs: 1 },
});
export const sampleReminderJob = defineJob({
  name: 'envelope.remind',
  schema: z.object({ envelopeId: z.string() }),
  dedupeId: (payload) => `remind-${payload.envelopeId}`,
  attempts: 1,
});
