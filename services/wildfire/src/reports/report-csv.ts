import type { TReportDay } from './schemas';

export const DAILY_CSV_COLUMNS = ['date', 'fwi', 'ffmc', 'dmc', 'dc', 'isi', 'bui', 'dsr', 'temp', 'rh', 'ws', 'prec', 'risk_score', 'risk_label', 'danger_class'] as const;

/**
 * The daily data of a report as CSV (RFC 4180: comma-separated, CRLF line ends, a
 * header row): one row per day with data, dot decimals, every value plain (no field
 * ever needs quoting). The same days always give the same bytes: the report's
 * `data_sha256` is the digest of this text.
 */
export function dailyCsv(days: readonly TReportDay[]): string {
  const lines = [DAILY_CSV_COLUMNS.join(','), ...days.map((d) => DAILY_CSV_COLUMNS.map((c) => String(d[c])).join(','))];
  return `${lines.join('\r\n')}\r\n`;
}
