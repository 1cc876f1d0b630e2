import type { ZodError } from 'zod';
import { AppError, type AppErrorOptions } from './app-error';

/** Where an invalid input came from, as the first element of `loc`. */
export type InputLocation = 'body' | 'query' | 'path' | 'header' | 'form';

/** One invalid input, in the shape esign's clients already parse: `{loc, msg, type}`. */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

/**
 * Invalid input. Carries the list of issues; esign renders them as a 422 list,
 * wildfire as a 400 with the first issue's parameter. `code` distinguishes malformed
 * bodies (INVALID_JSON) from ordinary field errors (VALIDATION_ERROR).
 */
export class ValidationError extends AppError {
  readonly issues: ValidationIssue[];

  constructor(issues: ValidationIssue[], code = 'VALIDATION_ERROR', options: AppErrorOptions = {}) {
    const first = issues[0];
    const message = first ? `${first.loc.join('.')}: ${first.msg}` : 'Invalid input';
    const param = options.param ?? (first ? paramOf(first) : undefined);
    super(422, code, message, { ...options, param });
    this.issues = issues;
  }

  static single(location: InputLocation, name: string, msg: string, type = 'value_error'): ValidationError {
    return new ValidationError([{ loc: [location, name], msg, type }]);
  }
}

function paramOf(issue: ValidationIssue): string | undefined {
  const names = issue.loc.slice(1).map(String);
  return names.length ? names.join('.') : undefined;
}

interface ZodIssueLike {
  code: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  expected?: unknown;
}

/** Maps a zod issue code to the `type` strings the original (FastAPI) service used. */
function issueType(issue: ZodIssueLike, absent: boolean): string {
  switch (issue.code) {
    case 'invalid_type':
      return absent ? 'missing' : `${String(issue.expected)}_type`;
    case 'too_small':
      return 'too_short';
    case 'too_big':
      return 'too_long';
    case 'invalid_format':
      return 'string_pattern_mismatch';
    case 'invalid_value':
      return 'enum';
    case 'unrecognized_keys':
      return 'extra_forbidden';
    default:
      return 'value_error';
  }
}

function valueAt(input: unknown, path: PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/**
 * Converts a zod error to a ValidationError located at `location`. Pass the parsed
 * `input` so that absent fields are reported as `missing` (zod 4 leaves the input
 * out of its issues by default).
 */
export function fromZodError(error: ZodError, location: InputLocation, ...input: [unknown?]): ValidationError {
  const issues = (error.issues as ZodIssueLike[]).map((issue) => {
    const absent =
      'input' in issue
        ? issue.input === undefined
        : input.length > 0
          ? valueAt(input[0], issue.path) === undefined
          : /received undefined/.test(issue.message);
    const type = issueType(issue, absent);
    return {
      loc: [location, ...issue.path.map((p) => (typeof p === 'number' ? p : String(p)))],
      msg: type === 'missing' ? 'Field required' : issue.message,
      type,
    };
  });
  return new ValidationError(issues);
}
