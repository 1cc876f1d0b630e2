/**
 * The preferences of an RFC 7240 `Prefer` header (several headers arrive joined by ", "):
 * each preference's name, lower-cased, with its value (`true` when it has none). Parameters
 * after ";" are dropped. A server ignores preferences it does not know, so nothing here throws.
 */
export function parsePrefer(header: string | undefined): Map<string, string | true> {
  const preferences = new Map<string, string | true>();
  for (const part of splitOutsideQuotes(header ?? '', ',')) {
    const [preference = ''] = splitOutsideQuotes(part, ';');
    const eq = preference.indexOf('=');
    const name = (eq === -1 ? preference : preference.slice(0, eq)).trim().toLowerCase();
    if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name) || preferences.has(name)) continue;
    const raw = eq === -1 ? '' : preference.slice(eq + 1).trim();
    preferences.set(name, raw === '' ? true : raw.replace(/^"(.*)"$/s, '$1').replace(/\\(.)/g, '$1'));
  }
  return preferences;
}

/** Whether the `Prefer` header asks for `name` (e.g. `respond-async`). */
export function prefers(header: string | undefined, name: string): boolean {
  return parsePrefer(header).has(name.toLowerCase());
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\\' && quoted) {
      current += c + (text[i + 1] ?? '');
      i++;
    } else if (c === '"') {
      quoted = !quoted;
      current += c;
    } else if (c === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += c;
    }
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter(Boolean);
}
