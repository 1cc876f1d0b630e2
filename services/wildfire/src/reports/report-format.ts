/** How the report prints numbers and dates' month names in its language. */
import type { ReportStrings } from './report-strings';

/** The month's name and year as the language writes it: "julio de 2025", "July 2025". */
export function monthLabel(periodo: string, locale: string): string {
  const [year, month] = periodo.split('-').map(Number) as [number, number];
  return new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(year, month - 1, 1)));
}

/** The month's name alone: "julio", "July". */
export function monthName(periodo: string, locale: string): string {
  const month = Number(periodo.slice(5, 7));
  return new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, month - 1, 1)));
}

export function formatter(s: Pick<ReportStrings, 'decimal'>) {
  const num = (n: number, digits = 1) => n.toFixed(digits).replace('.', s.decimal);
  return {
    num,
    opt: (n: number | null | undefined, digits = 1) => (n === null || n === undefined ? '—' : num(n, digits)),
    signed: (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${num(Math.abs(n))}`,
    share: (days: number, total: number) => (total === 0 ? '—' : num((100 * days) / total)),
  };
}

export type ReportFormatter = ReturnType<typeof formatter>;
