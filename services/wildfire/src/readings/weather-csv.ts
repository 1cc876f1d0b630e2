/**
 * The weather file of `wildfire ingest weather FILE.csv`: one noon observation per
 * municipality and day,
 *
 *   municipio_id,date,temp,rh,ws,prec
 *   41091,2025-07-01,36.4,18,12.5,0
 *
 * municipio_id: INE code (5 digits) of a known municipality; date: YYYY-MM-DD, from
 * 2000-01-01 to today; temp: °C, -90 to 60 (refuses Kelvin); rh: %, 0 to 100;
 * ws: km/h at 10 m, 0 or more; prec: mm over the previous 24 h, 0 or more. Columns
 * in any order and case; `;` as the separator allows decimal commas.
 */
import { parseIsoDay } from '../calendar';
import { CsvInputError, csvRecords, fieldReader, parseNumber, requireColumns, unknownMunicipalityError, type CsvHeader, type CsvRecord } from '../csv-input';

export const WEATHER_COLUMNS = ['municipio_id', 'date', 'temp', 'rh', 'ws', 'prec'] as const;
/** Earlier dates are taken for typos; the API serves from 2015, but earlier days can start a series. */
export const EARLIEST_WEATHER_DATE = '2000-01-01';

export interface WeatherRow {
  line: number;
  municipioId: string;
  date: string;
  temp: number;
  rh: number;
  ws: number;
  prec: number;
}

/** What validating a weather file needs: whether a code names a municipality (asked with the line it is first read on), and today. */
export interface WeatherContext {
  isKnown(municipioId: string, line: number): boolean;
  today: string;
}

const between = (min: number, max: number, comma: boolean) => (raw: string) => {
  const value = parseNumber(raw, comma);
  return value !== undefined && value >= min && value <= max ? value : undefined;
};

/** Validates the data rows of a weather file once `onHeader` has seen its header; `row` throws CsvInputError naming line and column. */
export function weatherValidator(context: WeatherContext) {
  let read: ReturnType<typeof fieldReader> | undefined;
  let comma = false;
  const isDate = (raw: string) => (parseIsoDay(raw) ? raw : undefined);
  return {
    onHeader(header: CsvHeader, names: string[]): void {
      requireColumns(header, WEATHER_COLUMNS);
      comma = header.delimiter === ';';
      read = fieldReader(header, names);
    },
    row(record: CsvRecord): WeatherRow {
      const field = read!;
      const municipioId = field(record, 'municipio_id', (raw) => (/^\d{5}$/.test(raw) ? raw : undefined), 'expected a 5-digit INE code');
      if (!context.isKnown(municipioId, record.line)) {
        throw unknownMunicipalityError(record.line, municipioId);
      }
      const date = field(record, 'date', isDate, 'expected a date in the form YYYY-MM-DD');
      if (date < EARLIEST_WEATHER_DATE || date > context.today) {
        throw new CsvInputError(
          `line ${record.line}, column "date": expected a day from ${EARLIEST_WEATHER_DATE} to today (${context.today}), got "${date}"`,
          record.line,
          'date',
        );
      }
      return {
        line: record.line,
        municipioId,
        date,
        temp: field(record, 'temp', between(-90, 60, comma), 'expected a temperature in °C between -90 and 60'),
        rh: field(record, 'rh', between(0, 100, comma), 'expected a relative humidity between 0 and 100'),
        ws: field(record, 'ws', between(0, Infinity, comma), 'expected a wind speed in km/h, 0 or more'),
        prec: field(record, 'prec', between(0, Infinity, comma), 'expected a precipitation in mm, 0 or more'),
      };
    },
  };
}

/** Validated rows in file order; throws CsvInputError at the first bad row, naming its line and column. */
export async function* weatherRows(
  lines: AsyncIterable<string> | Iterable<string>,
  context: WeatherContext,
): AsyncGenerator<WeatherRow> {
  const validator = weatherValidator(context);
  for await (const record of csvRecords(lines, (header, names) => validator.onHeader(header, names))) yield validator.row(record);
}
