import jsonata from 'jsonata';

/**
 * Template expressions are JSONata (docs.jsonata.org): a query and arithmetic language
 * over the variables, with no access to files, the environment or the network. They
 * come from the template only; a client's values are the data they read.
 */
export interface Expression {
  source: string;
  evaluate(variables: unknown, bindings: Record<string, unknown>): Promise<unknown>;
}

export function compileExpression(source: string): Expression {
  if (!source) throw new Error('empty expression');
  const compiled = jsonata(source);
  return { source, evaluate: (variables, bindings) => compiled.evaluate(variables, bindings) };
}

/** The formatting functions every expression may call, in the template's locale. */
export function formattingFunctions(locale: string): Record<string, (...args: never[]) => string | undefined> {
  const numbers = new Map<string, Intl.NumberFormat>();
  const numberFormat = (key: string, options: Intl.NumberFormatOptions) => {
    let format = numbers.get(key);
    if (!format) {
      // 'always': es-ES would otherwise write 1234,56 without its thousands point.
      format = new Intl.NumberFormat(locale, { useGrouping: 'always', ...options } as Intl.NumberFormatOptions);
      numbers.set(key, format);
    }
    return format;
  };
  const dates = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' });
  const finite = (name: string, x: unknown): number | undefined => {
    if (x === undefined || x === null) return undefined;
    if (typeof x !== 'number' || !Number.isFinite(x)) throw new TypeError(`$${name} takes a number, got ${JSON.stringify(x)}`);
    return x;
  };
  return {
    number: (x: unknown, decimals?: unknown) => {
      const n = finite('number', x);
      if (n === undefined) return undefined;
      const d = typeof decimals === 'number' ? decimals : undefined;
      return numberFormat(`n${d}`, d === undefined ? { maximumFractionDigits: 2 } : { minimumFractionDigits: d, maximumFractionDigits: d }).format(n);
    },
    currency: (x: unknown, code?: unknown) => {
      const n = finite('currency', x);
      if (n === undefined) return undefined;
      const currency = typeof code === 'string' ? code : 'EUR';
      return numberFormat(`c${currency}`, { style: 'currency', currency }).format(n);
    },
    percent: (x: unknown) => {
      const n = finite('percent', x);
      return n === undefined ? undefined : numberFormat('p', { style: 'percent', maximumFractionDigits: 2 }).format(n / 100);
    },
    date: (x: unknown) => {
      if (x === undefined || x === null) return undefined;
      const at = typeof x === 'string' && /^\d{4}-\d{2}-\d{2}/.test(x) ? new Date(x.length === 10 ? `${x}T00:00:00Z` : x) : undefined;
      if (!at || Number.isNaN(at.getTime())) throw new TypeError(`$date takes a date written YYYY-MM-DD, got ${JSON.stringify(x)}`);
      return dates.format(at);
    },
    upper: (x: unknown) => (x === undefined || x === null ? undefined : String(x).toLocaleUpperCase(locale)),
  };
}

/** How a value is printed: text as it is, numbers in the locale, nothing for null. */
export function printValue(value: unknown, functions: ReturnType<typeof formattingFunctions>): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return (functions.number as (x: number) => string)(value);
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.map((v) => printValue(v, functions)).join(', ');
  throw new TypeError('an expression gave an object; print one of its fields instead');
}
