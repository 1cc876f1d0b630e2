import { AppError } from '@firma-riesgo/errors';

/**
 * What one tool call may write: the bytes of the files it answers with (`limitBytes`),
 * and what its temp dir may hold meanwhile (`workBytes`: the budget plus room for the
 * upload's own copies). Set per call by the HTTP layer through withToolCaller; the tools
 * charge each file as they produce it, the temp dir is watched while engines write
 * (temp-dir.ts), and a worker job may not return more than what is left (worker-pool.ts).
 * Passing either limit aborts `signal`: queued engine runs and worker jobs of the call are
 * dropped, running ones killed, so nothing more is written.
 */
export class OutputBudget {
  private usedBytes = 0;
  private readonly controller = new AbortController();
  private exceededError: OutputBudgetExceededError | undefined;

  constructor(
    readonly limitBytes: number,
    readonly workBytes: number = limitBytes,
  ) {}

  /** Aborted once the budget is exceeded. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get used(): number {
    return this.usedBytes;
  }

  /** Bytes still allowed in the answer (0 once exceeded). */
  get remaining(): number {
    return Math.max(0, this.limitBytes - this.usedBytes);
  }

  /** The error to answer with, once exceeded. */
  get exceeded(): OutputBudgetExceededError | undefined {
    return this.exceededError;
  }

  /** Counts `bytes` of output; throws (and aborts the call's other work) past the limit. */
  charge(bytes: number): void {
    this.usedBytes += bytes;
    if (this.usedBytes > this.limitBytes) throw this.exceed();
  }

  /** The call's temp dir holds `bytes`; past workBytes the call stops. */
  checkWork(bytes: number): void {
    if (bytes > this.workBytes) throw this.exceed();
  }

  /** Marks the budget exceeded (idempotent), aborts the call's work, and returns the error. */
  exceed(): OutputBudgetExceededError {
    if (!this.exceededError) {
      this.exceededError = new OutputBudgetExceededError(this.limitBytes);
      this.controller.abort(this.exceededError);
    }
    return this.exceededError;
  }
}

/** 413: the answer would be larger than the tool's output budget. */
export class OutputBudgetExceededError extends AppError {
  constructor(limitBytes: number) {
    super(
      413,
      'TOOL_OUTPUT_TOO_LARGE',
      `The result would be larger than this tool answers (${formatMb(limitBytes)} MB in all); ask for fewer pages or parts, or a lower resolution`,
    );
  }
}

const formatMb = (bytes: number) => String(Math.round((bytes / 1024 / 1024) * 100) / 100);
