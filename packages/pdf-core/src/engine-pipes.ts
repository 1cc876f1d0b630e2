import type { ChildProcess } from 'node:child_process';

/** The end of stderr kept: the reason for a failure is usually at the end. */
export const STDERR_KEEP_BYTES = 64 * 1024;

export interface EnginePipes {
  /** Everything the engine wrote to stdout (empty once over the limit). */
  stdout(): Buffer;
  /** The last STDERR_KEEP_BYTES (at least) of stderr. */
  stderr(): Buffer;
}

/**
 * Collects an engine's output the same way wherever it was spawned (in the service, or
 * in the launcher process): stdout in full up to `maxOutputBytes`, past which
 * `overLimit` is called once and the rest dropped; the tail of stderr. Feeds `input`
 * to stdin, if any: an engine may exit without reading all of it, and its exit code
 * tells why, so the EPIPE is ignored. Imports nothing but types, so the launcher stays small.
 */
export function collectEnginePipes(child: ChildProcess, maxOutputBytes: number, overLimit: () => void, input?: Uint8Array): EnginePipes {
  let stdout: Buffer[] = [];
  let stdoutBytes = 0;
  let over = false;
  const stderr: Buffer[] = [];
  let stderrBytes = 0;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (over) return;
    stdoutBytes += chunk.length;
    if (stdoutBytes > maxOutputBytes) {
      over = true;
      stdout = [];
      overLimit();
      return;
    }
    stdout.push(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.push(chunk);
    stderrBytes += chunk.length;
    while (stderr.length > 1 && stderrBytes - (stderr[0]?.length ?? 0) >= STDERR_KEEP_BYTES) stderrBytes -= stderr.shift()?.length ?? 0;
  });
  if (input && child.stdin) {
    child.stdin.on('error', () => undefined);
    child.stdin.end(input);
  }
  return {
    stdout: () => Buffer.concat(stdout),
    stderr: () => Buffer.concat(stderr).subarray(-STDERR_KEEP_BYTES),
  };
}
