import { deflateSync } from 'node:zlib';

/** Hand-built hostile PDFs for the corpus: each one a classic way to hurt a PDF reader. */

function pdf(objects: string[], root = 1): Buffer {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root ${root} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** A page tree whose Pages node lists itself among its kids. */
export const cyclicPageTree = () =>
  pdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>', '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>']);

/** A valid structure with no page at all. */
export const zeroPages = () => pdf(['<< /Type /Catalog /Pages 2 0 R >>', '<< /Type /Pages /Kids [] /Count 0 >>']);

/** A page whose content stream inflates from 100 KB to about 100 MB (a decompression bomb). */
export function flateBomb(): Buffer {
  const compressed = deflateSync(Buffer.alloc(100 * 1024 * 1024, 0x20), { level: 9 });
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Kids [3 0 R] /Count 1 >>\nendobj\n' +
      '3 0 obj\n<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R >>\nendobj\n' +
      `4 0 obj\n<< /Length ${compressed.length} /Filter /FlateDecode >>\nstream\n`,
    'latin1',
  );
  return Buffer.concat([head, compressed, Buffer.from('\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1')]);
}

/** A good PDF cut in half. */
export const truncated = (good: Buffer) => good.subarray(0, Math.floor(good.length / 2));
