/**
 * Decodes the stored readings that `weatherIngestion().storedFrom` reads with
 * `COPY (SELECT municipio_id, day, 12 float8 columns, risk_label) TO STDOUT (FORMAT
 * binary)`: after the 19-byte header, each row is a field count and each field's
 * length and big-endian bytes; a count of -1 ends the data.
 */
import type { StoredReadingRow } from './compute-readings';

const HEADER_BYTES = 19;
const FIELDS = 15;

export function decodeStoredReadings(data: Buffer): StoredReadingRow[] {
  if (data.length < HEADER_BYTES + 2 || data.toString('latin1', 0, 6) !== 'PGCOPY') throw new Error('stored readings: not COPY binary data');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const rows: StoredReadingRow[] = [];
  let at = HEADER_BYTES + view.getInt32(15); // the header extension's length
  for (;;) {
    const count = view.getInt16(at);
    at += 2;
    if (count === -1) return rows;
    if (count !== FIELDS) throw new Error(`stored readings: a row of ${count} fields, expected ${FIELDS}`);
    const text = () => {
      const length = view.getInt32(at);
      const value = data.toString('utf8', at + 4, at + 4 + length);
      at += 4 + length;
      return value;
    };
    const row = new Array(FIELDS) as unknown as StoredReadingRow;
    row[0] = text();
    row[1] = view.getInt32(at + 4);
    at += 8;
    for (let k = 2; k < 14; k++) {
      row[k] = view.getFloat64(at + 4);
      at += 12;
    }
    row[14] = text() as StoredReadingRow[14];
    rows.push(row);
  }
}
