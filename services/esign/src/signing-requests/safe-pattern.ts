import { RE2 } from 're2-wasm';

/**
 * A text field's `pattern` runs on RE2 (linear time: no backreferences, no lookaround),
 * never on a backtracking engine, anchored to the whole value.
 */
export function compilePattern(pattern: string): RE2 {
  return new RE2(`^(?:${pattern})$`, 'u');
}

/** Why RE2 refuses the pattern, or null when it compiles. */
export function patternError(pattern: string): string | null {
  try {
    compilePattern(pattern);
    return null;
  } catch (err) {
    return `not a valid RE2 pattern: ${String((err as Error).message).slice(0, 120)}`;
  }
}
