/**
 * A Content-Disposition header that keeps any filename intact (RFC 6266): an ASCII
 * `filename=` for old clients and, when the name is not plain ASCII, the exact name in
 * RFC 5987 `filename*=UTF-8''...`. Path parts and control characters are dropped.
 */
export function contentDisposition(type: 'attachment' | 'inline', filename: string): string {
  const name = (filename.split(/[\\/]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '');
  const fallback = asciiFallback(name);
  if (fallback === name && !/%[0-9A-Fa-f]{2}/.test(name)) return `${type}; filename="${name}"`;
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encodeRfc5987(name)}`;
}

/** `ünï©ødé 文件.pdf` -> `uni_de _.pdf`: accents dropped, other non-ASCII runs as `_`, no quotes or backslashes. */
function asciiFallback(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]+/g, '_')
    .replace(/["\\]/g, '_');
}

function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}
