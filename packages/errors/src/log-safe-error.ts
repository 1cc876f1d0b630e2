/**
 * What of an error may reach the logs. Errors carry more than their message: drizzle's
 * DrizzleQueryError holds the query parameters (and prints them in its message and stack),
 * pg's DatabaseError holds `detail` ("Key (email)=(ana@example.es) already exists") and
 * `where`, and a mail transport's rejection names the recipient. Only an allowlist of
 * fields is kept, parameters are cut from messages and stacks, and anything that looks
 * like an email address is masked.
 */
export interface LoggedError {
  type: string;
  message: string;
  stack?: string;
  cause?: LoggedError | string;
  [field: string]: unknown;
}

/** Diagnostic fields that never hold request data (pg's table/constraint names, engine exit codes, ...). */
const KEPT_FIELDS = ['code', 'status', 'statusCode', 'param', 'errno', 'syscall', 'severity', 'routine', 'table', 'column', 'constraint', 'schema', 'dataType', 'exitCode', 'signal', 'query'];
const EMAIL = /[A-Za-z0-9._%+-]+(?:@|%40)[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
// pg quotes the offending value at the end of some messages: `invalid input syntax for type uuid: "..."`.
const QUOTED_VALUE = /: "[^"]*"/g;
const MAX_CAUSE_DEPTH = 4;

/** Masks email addresses and quoted values in free text bound for the logs. */
export function scrubLogText(text: string): string {
  return text.replace(EMAIL, '[email]').replace(QUOTED_VALUE, ': "[redacted]"');
}

function messageOf(error: Error): string {
  // DrizzleQueryError: `Failed query: <sql>\nparams: <values>` — the values go.
  return scrubLogText(String(error.message ?? '').split(/\nparams: /)[0] ?? '');
}

/** A plain, log-safe description of an error (strings are scrubbed; other values pass through). */
export function logSafeError(err: unknown, depth = 0): unknown {
  if (typeof err === 'string') return scrubLogText(err);
  if (!(err instanceof Error)) return err;
  const type = err.constructor?.name || err.name || 'Error';
  const message = messageOf(err);
  const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const logged: LoggedError = { type, message, stack: [`${err.name}: ${message}`, ...frames].join('\n') };
  const fields = err as unknown as Record<string, unknown>;
  for (const field of KEPT_FIELDS) {
    const value = fields[field];
    if (value === undefined || value === null || typeof value === 'object' || typeof value === 'function') continue;
    logged[field] = typeof value === 'string' ? scrubLogText(value) : value;
  }
  if (err.cause !== undefined && depth < MAX_CAUSE_DEPTH) {
    const cause = err.cause instanceof Error || typeof err.cause === 'string' ? logSafeError(err.cause, depth + 1) : '[not an Error]';
    logged.cause = cause as LoggedError | string;
  }
  return logged;
}
