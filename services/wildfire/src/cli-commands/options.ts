/** Where a command writes: stdout lines and stderr lines. */
export type Out = { log(line: string): void; error(line: string): void };
/** Standard input as the fwi command reads it; a TTY means nothing was piped in. */
export type In = AsyncIterable<string | Buffer> & { isTTY?: boolean };

/** An option's value when it was given one (parseArgs gives `true` for a bare flag). */
export const str = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);

/** `a, b,,c` -> `['a', 'b', 'c']`. */
export function list(value: string): string[] {
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
