/**
 * Just enough CSV for weather tables: one record per line, fields optionally in
 * double quotes with "" for a quote inside them (RFC 4180, which is also what R's
 * write.csv/write.csv2 produce), but no line breaks inside fields.
 */

export type Delimiter = ',' | ';';

/**
 * The delimiter of a file, read from its header: `;` if the header has one
 * (European CSV, and cffdrs's own test_fwi.csv), otherwise `,`.
 */
export function detectDelimiter(headerLine: string): Delimiter {
  return headerLine.includes(';') ? ';' : ',';
}

/** Splits one line into fields; returns a message instead when a quote is left open. */
export function splitFields(line: string, delimiter: Delimiter): string[] | { error: string } {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch !== '"') field += ch;
      else if (line[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      fields.push(field);
      field = '';
    } else field += ch;
  }
  if (quoted) return { error: 'a quoted field is not closed' };
  fields.push(field);
  return fields;
}

/** One field for output, quoted only when it has to be. */
export function quoteField(value: string, delimiter: Delimiter): string {
  return value.includes(delimiter) || value.includes('"') ? `"${value.replaceAll('"', '""')}"` : value;
}
