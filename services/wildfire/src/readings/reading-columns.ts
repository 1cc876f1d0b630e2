import type { ColumnSource } from '../db/binary-copy';
import type { RiskLabel } from '../risk/risk-score';

/** The value columns of a reading, in order, after municipio_id and date. */
export const READING_VALUE_COLUMNS = ['temp', 'rh', 'ws', 'prec', 'ffmc', 'dmc', 'dc', 'isi', 'bui', 'fwi', 'dsr', 'risk_score'] as const;
export const LABELS: readonly RiskLabel[] = ['LOW', 'MEDIUM', 'HIGH'];
export const LABEL_NUMBER: Record<RiskLabel, number> = { LOW: 0, MEDIUM: 1, HIGH: 2 };

/** Readings (computed, or stored and read back), column by column: municipality number, day, READING_VALUE_COLUMNS, risk label number. */
export class ReadingColumns {
  length = 0;
  municipality: Int32Array;
  day: Int32Array;
  values: Float64Array[];
  label: Uint8Array;

  /** `capacity`: the rows expected, so the arrays rarely grow. */
  constructor(capacity = 256) {
    this.municipality = new Int32Array(capacity);
    this.day = new Int32Array(capacity);
    this.values = READING_VALUE_COLUMNS.map(() => new Float64Array(capacity));
    this.label = new Uint8Array(capacity);
  }

  push(municipality: number, day: number, values: Float64Array, label: number): void {
    if (this.length === this.day.length) this.grow(Math.max(256, this.length * 2));
    const i = this.length++;
    this.municipality[i] = municipality;
    this.day[i] = day;
    for (let k = 0; k < values.length; k++) this.values[k]![i] = values[k]!;
    this.label[i] = label;
  }

  /** The columns of the readings table, for `bulkLoadColumns`. */
  sources(codes: readonly string[]): ColumnSource[] {
    return [
      { name: 'municipio_id', data: { type: 'text', index: this.municipality, dictionary: codes } },
      { name: 'date', data: { type: 'date', days: this.day } },
      ...READING_VALUE_COLUMNS.map((name, k): ColumnSource => ({ name, data: { type: 'float8', values: this.values[k]! } })),
      { name: 'risk_label', data: { type: 'text', index: this.label, dictionary: LABELS } },
    ];
  }

  private grow(size: number): void {
    const more = <T extends Int32Array | Float64Array | Uint8Array>(a: T): T => {
      const next = new (a.constructor as new (n: number) => T)(size);
      next.set(a);
      return next;
    };
    this.municipality = more(this.municipality);
    this.day = more(this.day);
    this.values = this.values.map(more);
    this.label = more(this.label);
  }
}
