/**
 * Decodes, chunk by chunk as they arrive, the stored readings that
 * `weatherIngestion().storedFrom` reads with `COPY (SELECT municipio_id, day, 12 float8
 * columns, risk_label) TO STDOUT (FORMAT binary)`, into columns: after the 19-byte
 * header (and its extension), each row is a field count and each field's length and
 * big-endian bytes; a count of -1 ends the data. Only a row cut by a chunk boundary is
 * held back, so memory stays at the columns' size.
 */
import type { RiskLabel } from '../risk/risk-score';
import { LABEL_NUMBER, READING_VALUE_COLUMNS, ReadingColumns } from './reading-columns';

const HEADER_BYTES = 19;
const FIELDS = 3 + READING_VALUE_COLUMNS.length;

/** Where the row at `at` ends, -1 when the data holds only part of it. */
function rowEnd(view: DataView, at: number): number {
  if (at + 2 > view.byteLength) return -1;
  const count = view.getInt16(at);
  let pos = at + 2;
  for (let f = 0; f < count; f++) {
    if (pos + 4 > view.byteLength) return -1;
    pos += 4 + Math.max(0, view.getInt32(pos));
    if (pos > view.byteLength) return -1;
  }
  return pos;
}

export class StoredReadingsDecoder {
  readonly readings = new ReadingColumns();
  private pending: Buffer | undefined;
  private started = false;
  private finished = false;
  private code = '';
  private m = -1;
  private readonly values = new Float64Array(READING_VALUE_COLUMNS.length);

  /** `numberOf(code)`: the municipality number the ingestion gave the code. */
  constructor(private readonly numberOf: (municipioId: string) => number) {}

  push(chunk: Buffer): void {
    const data = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    let at = 0;
    if (!this.started) {
      if (data.length < HEADER_BYTES || data.length < HEADER_BYTES + view.getInt32(15)) {
        this.pending = data;
        return;
      }
      if (data.toString('latin1', 0, 6) !== 'PGCOPY') throw new Error('stored readings: not COPY binary data');
      at = HEADER_BYTES + view.getInt32(15);
      this.started = true;
    }
    while (!this.finished) {
      const end = rowEnd(view, at);
      if (end === -1) break;
      this.row(data, view, at);
      at = end;
    }
    this.pending = at < data.length ? data.subarray(at) : undefined;
  }

  /** The readings, once the data has ended. */
  end(): ReadingColumns {
    if (!this.finished || this.pending) throw new Error('stored readings: the COPY data ended early');
    return this.readings;
  }

  private row(data: Buffer, view: DataView, at: number): void {
    const count = view.getInt16(at);
    at += 2;
    if (count === -1) {
      this.finished = true;
      return;
    }
    if (count !== FIELDS) throw new Error(`stored readings: a row of ${count} fields, expected ${FIELDS}`);
    const codeLength = view.getInt32(at);
    const code = data.toString('utf8', at + 4, at + 4 + codeLength);
    at += 4 + codeLength;
    // Rows come grouped per municipality: look the number up once per group.
    if (code !== this.code) {
      this.code = code;
      this.m = this.numberOf(code);
    }
    const day = view.getInt32(at + 4);
    at += 8;
    for (let k = 0; k < this.values.length; k++) {
      this.values[k] = view.getFloat64(at + 4);
      at += 12;
    }
    const labelLength = view.getInt32(at);
    const label = LABEL_NUMBER[data.toString('latin1', at + 4, at + 4 + labelLength) as RiskLabel];
    if (label === undefined) throw new Error('stored readings: an unknown risk label');
    this.readings.push(this.m, day, this.values, label);
  }
}
