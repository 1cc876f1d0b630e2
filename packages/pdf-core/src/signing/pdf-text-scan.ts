// A PDF read as text (latin1), never through a parser: the signature dictionaries, the fields
// that name them, and their string and date values. Each scan is linear and bounded.

export interface SignatureDictionary {
  objectNumber: number;
  generation: number;
  /** Offset of the `<<` after `N G obj`, and of `endobj`. */
  start: number;
  end: number;
}

/** Objects that are signature dictionaries: /Type /Sig or a /ByteRange, in file order. */
export function findSignatureDictionaries(text: string, limit: number): SignatureDictionary[] {
  const found = new Map<number, SignatureDictionary>();
  const marker = /\/ByteRange\b|\/Type\s*\/Sig(?![A-Za-z0-9])/g;
  let seen = 0;
  for (let m = marker.exec(text); m && found.size < limit && seen < 100 * limit; m = marker.exec(text), seen++) {
    const dict = enclosingObject(text, m.index);
    if (!dict || found.has(dict.start)) continue;
    found.set(dict.start, dict);
    // Skip the rest of this object: its /Contents may be megabytes of hex.
    marker.lastIndex = Math.max(marker.lastIndex, dict.end);
  }
  return [...found.values()].sort((a, b) => a.start - b.start);
}

function enclosingObject(text: string, at: number): SignatureDictionary | null {
  const header = text.lastIndexOf(' obj', at);
  if (header === -1) return null;
  const before = /(\d+)\s+(\d+)\s*$/.exec(text.slice(Math.max(0, header - 24), header));
  if (!before) return null;
  const previousEnd = text.lastIndexOf('endobj', at);
  if (previousEnd > header) return null;
  const end = text.indexOf('endobj', at);
  if (end === -1) return null;
  return { objectNumber: Number(before[1]), generation: Number(before[2]), start: header + 4, end };
}

/** `N G` of each object some field names as its value (/V N G R), to the field's /T. */
export function fieldNamesByReference(text: string): Map<string, string> {
  const names = new Map<string, string>();
  const pattern = /\/V\s+(\d+)\s+(\d+)\s+R\b/g;
  for (let m = pattern.exec(text); m && names.size < 10_000; m = pattern.exec(text)) {
    const field = enclosingObject(text, m.index);
    if (!field || field.end - field.start > 64 * 1024) continue;
    const name = pdfString(text.slice(field.start, field.end), 'T');
    if (name !== null) names.set(`${m[1]} ${m[2]}`, name);
  }
  return names;
}

/** Whether `offset` is the end of a revision: `%%EOF` and at most an end-of-line before it. */
export function endsRevision(pdf: Buffer, offset: number): boolean {
  const tail = pdf.subarray(Math.max(0, offset - 8), offset).toString('latin1');
  return /%%EOF\s{0,2}$/.test(tail);
}

/** The file's length without trailing whitespace (a trailing newline is no change). */
export function endOfContent(pdf: Buffer): number {
  let end = pdf.length;
  while (end > 0 && [0x0a, 0x0d, 0x20, 0x00, 0x09].includes(pdf[end - 1]!)) end--;
  return end;
}

/** A literal or hex string value of `/key` in a dictionary's text, decoded (PDFDocEncoding or UTF-16BE). */
export function pdfString(body: string, key: string): string | null {
  const m = new RegExp(`/${key}\\s*(\\((?:\\\\[\\s\\S]|[^\\\\)]){0,2000}\\)|<[0-9A-Fa-f\\s]{0,4000}>)`).exec(body);
  if (!m) return null;
  const raw = m[1]!;
  let bytes: Buffer;
  if (raw.startsWith('<')) bytes = Buffer.from(raw.slice(1, -1).replace(/\s+/g, ''), 'hex');
  else {
    const unescaped = raw
      .slice(1, -1)
      .replace(/\\([0-7]{1,3}|[\s\S])/g, (_, e: string) =>
        /^[0-7]/.test(e) ? String.fromCharCode(parseInt(e, 8) & 0xff) : ({ n: '\n', r: '\r', t: '\t', b: '\b', f: '\f', '\n': '', '\r': '' } as Record<string, string>)[e] ?? e,
      );
    bytes = Buffer.from(unescaped, 'latin1');
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2, 2 + ((bytes.length - 2) & ~1))).swap16().toString('utf16le');
  return bytes.toString('latin1');
}

/** `D:YYYYMMDDHHmmSS+HH'mm'` to ISO, or null. */
export function pdfDate(value: string | null): string | null {
  const m = value && /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(Z|[+-]\d{2}'?\d{2}'?)?/.exec(value);
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', zone] = m;
  const offset = !zone || zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.replace(/'/g, '').slice(3, 5)}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}
