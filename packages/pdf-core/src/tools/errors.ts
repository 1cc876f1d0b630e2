import { AppError, UnavailableError, ValidationError } from '@firma-riesgo/errors';

/**
 * The input of a tool is at fault (not a PDF, damaged, locked, wrong password, a page
 * out of range). Rendered as esign's 422 list, located at the form field that carried
 * the bad value, so clients handle it like any other invalid field.
 */
export class PdfInputError extends ValidationError {
  constructor(field: string, msg: string, type: string) {
    super([{ loc: ['form', field], msg, type }], 'INVALID_INPUT', { param: field });
  }
}

export const notPdf = (field = 'file') => new PdfInputError(field, 'The file is not a PDF (no %PDF- header)', 'pdf_invalid');

export const damagedPdf = (field = 'file', detail?: string) =>
  new PdfInputError(field, `The PDF is damaged and cannot be read${detail ? `: ${detail}` : ''}`, 'pdf_damaged');

export const passwordRequired = (field = 'file') =>
  new PdfInputError(field, 'The PDF is protected by a password; remove it with /firma/tools/unprotect first', 'pdf_encrypted');

export const wrongPassword = (field = 'password') => new PdfInputError(field, 'The password does not open this PDF', 'password_invalid');

/** A user-supplied regular expression ran past its time budget (catastrophic backtracking). */
export class PatternTimeoutError extends PdfInputError {
  constructor(budgetMs: number) {
    super('patterns', `A pattern took longer than ${budgetMs} ms to match (catastrophic backtracking?); simplify it`, 'pattern_too_slow');
  }
}

/** A CPU-bound job in the worker pool ran past its time limit; its worker was terminated. */
export class WorkerTimeoutError extends AppError {
  constructor(op: string, timeoutMs: number) {
    super(504, 'TOOL_TIMEOUT', `The "${op}" job did not finish within ${timeoutMs} ms`);
  }
}

/** Every worker is busy and the waiting line is full: the client should retry later. */
export class ToolsBusyError extends UnavailableError {
  constructor() {
    super('The PDF tools are busy; retry shortly', 'TOOLS_BUSY', { headers: { 'Retry-After': '5' } });
  }
}

/** The tool's output failed the check it must pass before answering (e.g. PDF/A markers). */
export class ToolOutputError extends AppError {
  constructor(message: string, code = 'TOOL_OUTPUT_INVALID') {
    super(500, code, message);
  }
}
