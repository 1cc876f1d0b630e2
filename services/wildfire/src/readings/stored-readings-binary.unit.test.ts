import { binaryCopy } from '../db/binary-copy';
import { READING_VALUE_COLUMNS, ReadingColumns } from './reading-columns';
import { StoredReadingsDecoder } from './stored-readings-binary';

const codes = ['28079', '41091', '08019'];

/** Readings of three municipalities, in the layout storedFrom's COPY sends (the readings table's columns). */
function sample(): ReadingColumns {
  const r = new ReadingColumns(4);
  const values = new Float64Array(READING_VALUE_COLUMNS.length);
  for (let i = 0; i < 40; i++) {
    values.forEach((_, k) => (values[k] = i * 1.37 + k / 3 - 5));
    r.push(Math.floor(i / 14), 9000 + i, values, i % 3);
  }
  return r;
}

const bytesOf = (r: ReadingColumns) => Buffer.concat([...binaryCopy(r.sources(codes), r.length)]);
const rowsOf = (r: ReadingColumns) =>
  Array.from({ length: r.length }, (_, i) => [r.municipality[i], r.day[i], ...r.values.map((v) => v[i]), r.label[i]]);

describe('StoredReadingsDecoder: the binary COPY of stored readings, decoded chunk by chunk', () => {
  it.each([1, 2, 5, 19, 64, 100_000])('gives back every row exactly with chunks of %i bytes', (size) => {
    const original = sample();
    const bytes = bytesOf(original);
    const decoder = new StoredReadingsDecoder((code) => codes.indexOf(code));
    for (let at = 0; at < bytes.length; at += size) decoder.push(bytes.subarray(at, at + size));
    expect(rowsOf(decoder.end())).toEqual(rowsOf(original));
  });

  it('refuses data that ends before its end marker', () => {
    const bytes = bytesOf(sample());
    const decoder = new StoredReadingsDecoder((code) => codes.indexOf(code));
    decoder.push(bytes.subarray(0, bytes.length - 7));
    expect(() => decoder.end()).toThrow('ended early');
  });
});
