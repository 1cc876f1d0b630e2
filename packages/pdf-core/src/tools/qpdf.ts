import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EngineFailedError } from '../engine-errors';
import type { EngineRunner, EngineRunResult } from '../engine-runner';
import { damagedPdf, passwordRequired, wrongPassword } from './errors';

export interface QpdfOptions {
  /** Opens an encrypted input; written to an @argfile in the call's temp dir, never to argv (visible in /proc). */
  password?: string;
  /** Which field a wrong password is reported on; unset: a locked file is "password required". */
  passwordField?: string;
  timeoutMs?: number;
  /** Arguments that must also stay off argv (e.g. --encrypt's passwords); go to the @argfile too. */
  secretArgs?: string[];
}

let argfileCounter = 0;

/**
 * Runs qpdf in `dir`, mapping its exit codes: 0 and 3 (succeeded with warnings, e.g. a
 * repaired xref) resolve; 2 is the input's fault (damaged file, password) and becomes a
 * 422 naming the problem; anything else is an engine failure.
 */
export async function runQpdf(runner: EngineRunner, dir: string, args: string[], options: QpdfOptions = {}): Promise<EngineRunResult> {
  const secrets = [...(options.password !== undefined ? [`--password=${options.password}`] : []), ...(options.secretArgs ?? [])];
  let argv = args;
  if (secrets.length > 0) {
    // qpdf reads one argument per line of an @file; a password cannot hold a newline (the routes refuse one).
    const argfile = join(dir, `qpdf-args-${++argfileCounter}`);
    await writeFile(argfile, `${secrets.join('\n')}\n`, { mode: 0o600 });
    argv = [`@${argfile}`, ...args];
  }
  const result = await runner.run('qpdf', ['--warning-exit-0', ...argv], { timeoutMs: options.timeoutMs, cwd: dir });
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
