/**
 * The logging surface the job layer needs. pino's `Logger` satisfies it as is, and a
 * test can pass a plain object that records calls.
 */
export interface JobLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * Wraps a logger so that every line a handler writes carries the job's identity
 * (name, id, attempt) without the handler repeating it. A plain wrapper rather than
 * pino's `child()` keeps the interface small enough for test doubles.
 */
export function bindLogger(logger: JobLogger, bindings: Record<string, unknown>): JobLogger {
  return {
    info: (obj, msg) => logger.info({ ...bindings, ...obj }, msg),
    warn: (obj, msg) => logger.warn({ ...bindings, ...obj }, msg),
    error: (obj, msg) => logger.error({ ...bindings, ...obj }, msg),
  };
}
