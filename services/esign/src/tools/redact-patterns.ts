/**
 * How the `patterns` field of /firma/tools/redact becomes a list of expressions
 * (interface §4.3: "newline- or comma-separated regex strings"):
 *
 * - a field with a newline is split on newlines (CR LF or LF);
 * - otherwise it is split on commas, except a comma inside a `{m,n}` quantifier, inside
 *   a character class `[...]`, or escaped as `\,` (kept as `\,`, which matches a comma);
 * - each entry is trimmed of surrounding whitespace, and empty entries are ignored.
 *
 * As extensions, a repeated field or one field holding a JSON array of strings gives one
 * expression per element, unsplit.
 */
export function splitPatterns(field: string): string[] {
  const parts = field.includes('\n') ? field.split(/\r?\n/) : splitOnCommas(field);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** Quantifiers `{n}`, `{n,}`, `{n,m}` at the start of a string. */
const QUANTIFIER = /^\{\d+(?:,\d*)?\}/;

function splitOnCommas(field: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inClass = false;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    if (c === '\\' && i + 1 < field.length) {
      current += c + field[i + 1];
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      current += c;
      continue;
    }
    if (c === '[') {
      inClass = true;
      // a `]` right after `[` or `[^` is a literal member of the class
      const start = field[i + 1] === '^' ? i + 2 : i + 1;
      if (field[start] === ']') {
        current += field.slice(i, start + 1);
        i = start;
        continue;
      }
      current += c;
      continue;
    }
    if (c === '{') {
      const quantifier = QUANTIFIER.exec(field.slice(i));
      if (quantifier) {
        current += quantifier[0];
        i += quantifier[0].length - 1;
        continue;
      }
    }
    if (c === ',') {
      parts.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts;
}
