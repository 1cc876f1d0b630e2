import { deflateSync } from 'node:zlib';
import { readDssItems } from './verify-dss';

/** Objects numbered from 1, as bytes; each body a dictionary or `<<…>>\nstream\n…\nendstream`. */
function pdfOf(objects: Buffer[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  objects.forEach((body, i) => parts.push(Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')));
  parts.push(Buffer.from('trailer\n<< /Size 9 >>\n%%EOF\n'));
  return Buffer.concat(parts);
}
const stream = (data: Buffer, filter = '') => Buffer.concat([Buffer.from(`<< /Length ${data.length}${filter} >>\nstream\n`), data, Buffer.from('\nendstream')]);
const read = (pdf: Buffer) => readDssItems(pdf, pdf.toString('latin1'));

describe('reading the DSS as bytes', () => {
  const der = Buffer.from([0x30, 0x03, 0x02, 0x01, 0x05]);

  it('reads the streams each array names, raw or Flate-compressed, with their offsets', () => {
    const pdf = pdfOf([Buffer.from('<< /Type /DSS /Certs [2 0 R] /OCSPs [3 0 R] /CRLs [] >>'), stream(der), stream(deflateSync(der), ' /Filter /FlateDecode')]);
    const items = read(pdf);
    expect(items.map((i) => [i.kind, i.der])).toEqual([
      ['cert', der],
      ['ocsp', der],
    ]);
    expect(pdf.subarray(items[1]!.offset, items[1]!.offset + 7).toString('latin1')).toBe('3 0 obj');
  });

  it('takes the latest definition of an object (an incremental update replaced it)', () => {
    const newer = Buffer.from([0x30, 0x00]);
    const pdf = Buffer.concat([pdfOf([Buffer.from('<< /Type /DSS /OCSPs [2 0 R] >>'), stream(der)]), Buffer.from('2 0 obj\n'), stream(newer), Buffer.from('\nendobj\n%%EOF\n')]);
    expect(read(pdf).map((i) => i.der)).toEqual([newer]);
  });

  it('skips what it cannot read, and an inflation bomb, without throwing', () => {
    const bomb = deflateSync(Buffer.alloc(8 * 1024 * 1024));
    const pdf = pdfOf([
      Buffer.from('<< /Type /DSS /Certs [2 0 R 9 0 R 3 0 R 4 0 R] >>'),
      stream(bomb, ' /Filter /FlateDecode'),
      stream(der, ' /Filter /LZWDecode'),
      Buffer.from('<< /Length 999999 >>\nstream\nshort\nendstream'),
    ]);
    expect(read(pdf)).toEqual([]);
  });

  it('reads nothing from a file without a DSS', () => {
    expect(read(pdfOf([stream(der)]))).toEqual([]);
  });
});
