import { AppError, UnavailableError } from '@firma-riesgo/errors';

/** Enough of stderr to see why an engine failed, not so much that a log line explodes. */
const STDERR_TAIL_CHARS = 2000;

/** The engine's binary could not be found: the deployment lacks it, not the input's fault. */
export class EngineMissingError extends UnavailableError {
  readonly engine: string;

  constructor(engine: string, options?: { cause?: unknown }) {
    super(`PDF engine "${engine}" is not installed`, 'ENGINE_MISSING', options);
    this.engine = engine;
  }
}

/** The engine ran past its time limit and was killed together with its children. */
export class EngineTimeoutError extends AppError {
  readonly engine: string;
  readonly timeoutMs: number;

  constructor(engine: string, timeoutMs: number) {
    super(504, 'ENGINE_TIMEOUT', `PDF engine "${engine}" did not finish within ${timeoutMs} ms`);
    this.engine = engine;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * The engine wrote more to stdout than the caller allowed; it was killed rather than
 * letting one input fill the server's memory.
 */
export class EngineOutputLimitError extends AppError {
  readonly engine: string;
  readonly maxOutputBytes: number;

  constructor(engine: string, maxOutputBytes: number) {
    super(500, 'ENGINE_OUTPUT_TOO_LARGE', `PDF engine "${engine}" produced more than ${maxOutputBytes} bytes of output`);
    this.engine = engine;
    this.maxOutputBytes = maxOutputBytes;
  }
}

/**
 * The engine exited with a non-zero code. The end of its stderr is kept on the error
 * for logs but left out of the message, which reaches clients: it can hold paths,
 * file contents or passwords echoed back.
 */
export class EngineFailedError extends AppError {
  readonly engine: string;
  readonly exitCode: number;
  readonly stderrTail: string;

  constructor(engine: string, exitCode: number, stderr: string) {
    super(500, 'ENGINE_FAILED', `PDF engine "${engine}" failed with exit code ${exitCode}`);
    this.engine = engine;
    this.exitCode = exitCode;
    this.stderrTail = stderr.slice(-STDERR_TAIL_CHARS);
  }
}
