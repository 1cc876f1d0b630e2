import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineFailedError } from '../engine-errors';
import type { EngineRunner, EngineRunResult } from '../engine-runner';
import { damagedPdf, passwordRequired, wrongPassword } from './errors';

export interface QpdfOptions {
  /** Opens an encrypted input; goes to qpdf in a job file (see runQpdf), never on argv. */
  password?: string;
  /** Which field a wrong password is reported on; unset: a locked file is "password required". */
  passwordField?: string;
  timeoutMs?: number;
  /** Encrypts the output with AES-256 (PDF 2.0, R6); the passwords go to the job file too. */
  encrypt?: { userPassword: string; ownerPassword: string };
  /** Aborting kills the run; default: the caller's signal (the runner's). */
  signal?: AbortSignal;
}

let jobFileCounter = 0;

/**
 * Runs qpdf in `dir`, mapping its exit codes: 0 and 3 (succeeded with warnings, e.g. a
 * repaired xref) resolve; 2 is the input's fault (damaged file, password) and becomes a
 * 422 naming the problem; anything else is an engine failure.
 *
 * Values from users (passwords) travel in a QPDFJob JSON file (`--job-json-file`), as
 * JSON strings: never on argv, where /proc shows them and where qpdf would read a value
 * such as `-secret` as an option (its `--encrypt USER OWNER 256` form is positional),
 * nor in an @argfile, whose lines are arguments too. `args` hold only our own values.
 */
export async function runQpdf(runner: EngineRunner, dir: string, args: string[], options: QpdfOptions = {}): Promise<EngineRunResult> {
  const job: Record<string, unknown> = {};
  if (options.password !== undefined) job.password = options.password;
  if (options.encrypt) job.encrypt = { ...options.encrypt, '256bit': {} };
  let argv = args;
  if (Object.keys(job).length > 0) {
    const jobFile = join(dir, `qpdf-job-${++jobFileCounter}.json`);
    await writeFile(jobFile, JSON.stringify(job), { mode: 0o600 });
    argv = [`--job-json-file=${jobFile}`, ...args];
  }
  const result = await runner.run('qpdf', ['--warning-exit-0', ...argv], { timeoutMs: options.timeoutMs, cwd: dir, signal: options.signal });
  if (result.exitCode === 0 || result.exitCode === 3) return result;
  // exit 2 is also a usage error (our bug, not the input's): qpdf then points to its help
  if (result.exitCode === 2 && !/For help:/.test(result.stderr)) {
    if (/invalid password/i.test(result.stderr)) {
      throw options.passwordField ? wrongPassword(options.passwordField) : passwordRequired();
    }
    throw damagedPdf('file', qpdfReason(result.stderr, dir));
  }
  throw new EngineFailedError('qpdf', result.exitCode, result.stderr);
}

/** qpdf's last error line without the temp file's path, which says nothing to the client. */
function qpdfReason(stderr: string, dir: string): string | undefined {
  const line = stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('qpdf:'))
    .pop();
  if (!line) return undefined;
  return line
    .replace(/^qpdf:\s*/, '')
    .split(`${dir}/`)
    .join('')
    .replace(/^[\w.-]+\.pdf(?: \([^)]*\))?:\s*/, '')
    .slice(0, 200);
}
