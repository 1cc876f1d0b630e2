/**
 * Decodes the stored readings that `weatherIngestion().storedFrom` reads with
 * `COPY (SELECT municipio_id, day, 12 float8 columns, risk_label) TO STDOUT (FORMAT
 * binary)` into columns: after the 19-byte header (and its extension), each row is a
 * field count and each field's length and big-endian bytes; a count of -1 ends the data.
 */
import type { RiskLabel } from '../risk/risk-score';
import { LABEL_NUMBER, READING_VALUE_COLUMNS, ReadingColumns } from './compute-readings';

const HEADER_BYTES = 19;
const FIELDS = 3 + READING_VALUE_COLUMNS.length;

/** `numberOf(code)`: the municipality number the ingestion gave the code. */
export function decodeStoredReadings(data: Buffer, numberOf: (municipioId: string) => number): ReadingColumns {
  if (data.length < HEADER_BYTES + 2 || data.toString('latin1', 0, 6) !== 'PGCOPY') throw new Error('stored readings: not COPY binary data');
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const readings = new ReadingColumns();
  const values = new Float64Array(READING_VALUE_COLUMNS.length);
  let at = HEADER_BYTES + view.getInt32(15);
  let code = '';
  let m = -1;
  for (;;) {
    const count = view.getInt16(at);
    at += 2;
    if (count === -1) return readings;
    if (count !== FIELDS) throw new Error(`stored readings: a row of ${count} fields, expected ${FIELDS}`);
    const codeLength = view.getInt32(at);
    const rowCode = data.toString('utf8', at + 4, at + 4 + codeLength);
    at += 4 + codeLength;
    // Rows come grouped per municipality: look the number up once per group.
    if (rowCode !== code) {
      code = rowCode;
      m = numberOf(code);
    }
    const day = view.getInt32(at + 4);
    at += 8;
    for (let k = 0; k < values.length; k++) {
      values[k] = view.getFloat64(at + 4);
      at += 12;
    }
    const labelLength = view.getInt32(at);
    const label = LABEL_NUMBER[data.toString('latin1', at + 4, at + 4 + labelLength) as RiskLabel];
    at += 4 + labelLength;
    if (label === undefined) throw new Error('stored readings: an unknown risk label');
    readings.push(m, day, values, label);
  }
}
