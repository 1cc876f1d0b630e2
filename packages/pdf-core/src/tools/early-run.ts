import { currentToolCaller } from '../tool-caller';

/** Work started before its outcome is known to count, and how to drop it. */
export interface EarlyRun<T> {
  /** The work's outcome, to use once the check says it counts. */
  readonly result: Promise<T>;
  /** Aborts the work (its engines are killed) and resolves once it has settled, either way. */
  drop(): Promise<void>;
}

/**
 * Starts `work` while a check that decides whether its outcome counts is still running
 * (workWhileLooking: mupdf's look; pdfInfo: qpdf's structure check). `work` gets a signal
 * that fires when the caller's does or when the run is dropped; a dropped run is settled
 * before the caller goes on, so nothing is still writing when the temp dir is reused or goes.
 */
export function startEarly<T>(work: (signal: AbortSignal) => Promise<T>): EarlyRun<T> {
  const own = new AbortController();
  const caller = currentToolCaller().signal;
  const result = work(caller ? AbortSignal.any([caller, own.signal]) : own.signal);
  const settled = result.then(
    () => undefined,
    () => undefined,
  );
  return {
    result,
    drop() {
      own.abort();
      return settled;
    },
  };
}
