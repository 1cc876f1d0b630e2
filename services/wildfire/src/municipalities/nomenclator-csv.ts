/**
 * `wildfire ingest municipalities FILE`: the two layouts users have, told apart by
 * the header.
 *  - IGN/CNIG "Nomenclátor Geográfico de Municipios y Entidades de Población"
 *    (MUNICIPIOS.csv as downloaded): `;`-separated, Latin-1, decimal commas; columns
 *    COD_INE (11 characters, the first 5 are the INE code), NOMBRE_ACTUAL, PROVINCIA,
 *    LONGITUD_ETRS89, LATITUD_ETRS89, ALTITUD, POBLACION_MUNI, others ignored.
 *  - plain UTF-8 `ine_code,name,province_code,province,lat,lon,altitude_m,population`.
 *    A number may have a decimal comma when its field is quoted (`"32,88"`, as the
 *    derived 2024 file writes 14 altitudes); a dot is read either way.
 * Either is decoded as UTF-8 when it is valid UTF-8, otherwise as Latin-1
 * (windows-1252), so a nomenclator re-saved as UTF-8 also works.
 */
import { CsvInputError, csvRecords, decodeText, fieldReader, parseNumber, requireColumns, textLines, type CsvHeader } from '../csv-input';
import type { MunicipalityEnrichment } from './repository';
import { COMMUNITIES, provinceOf } from './provinces';

export type NomenclatorFormat = 'ign' | 'plain';

const IGN_COLUMNS = ['COD_INE', 'NOMBRE_ACTUAL', 'PROVINCIA', 'LONGITUD_ETRS89', 'LATITUD_ETRS89', 'ALTITUD', 'POBLACION_MUNI'] as const;
const PLAIN_COLUMNS = ['ine_code', 'name', 'province_code', 'province', 'lat', 'lon', 'altitude_m', 'population'] as const;

/** Spain's extent with a margin, Canary Islands included: catches swapped or projected coordinates. */
const LAT_RANGE = [27, 44.5] as const;
const LON_RANGE = [-18.5, 4.6] as const;
/** Mulhacén is 3,479 m; Teide 3,715 m. */
const ALTITUDE_RANGE = [-100, 3800] as const;

export interface NomenclatorFile {
  format: NomenclatorFormat;
  rows: MunicipalityEnrichment[];
}

const inRange = (min: number, max: number, decimalComma: boolean) => (raw: string) => {
  const value = parseNumber(raw, decimalComma);
  return value !== undefined && value >= min && value <= max ? value : undefined;
};
const optional =
  <T>(check: (raw: string) => T | undefined) =>
  (raw: string): T | null | undefined =>
    raw === '' ? null : check(raw);

export async function parseNomenclator(bytes: Buffer): Promise<NomenclatorFile> {
  let format: NomenclatorFormat | undefined;
  let read: ReturnType<typeof fieldReader> | undefined;
  const onHeader = (header: CsvHeader, names: string[]) => {
    if (header.index.has('cod_ine')) {
      format = 'ign';
      requireColumns(header, IGN_COLUMNS);
    } else if (header.index.has('ine_code')) {
      format = 'plain';
      requireColumns(header, PLAIN_COLUMNS);
    } else {
      throw new CsvInputError(
        `line 1: not a municipality file: expected the IGN/CNIG nomenclator header (${IGN_COLUMNS.join(';')}, ...) or ${PLAIN_COLUMNS.join(',')}`,
        1,
      );
    }
    read = fieldReader(header, names);
  };

  const rows: MunicipalityEnrichment[] = [];
  const seen = new Map<string, number>();
  for await (const record of csvRecords(textLines(decodeText(bytes)), onHeader)) {
    const field = read!;
    const ign = format === 'ign';
    // IGN: always a decimal comma. Plain: a comma inside a field can only come from quotes, so it is a decimal mark too.
    const comma = true;
    const ineCode = ign
      ? field(record, 'COD_INE', (raw) => (/^\d{5}/.test(raw) && provinceOf(raw.slice(0, 5)) ? raw.slice(0, 5) : undefined), 'expected a code whose first 5 characters are an INE municipality code')
      : field(record, 'ine_code', (raw) => (/^\d{5}$/.test(raw) && provinceOf(raw) ? raw : undefined), 'expected a 5-digit INE code with a province from 01 to 52');
    const province = provinceOf(ineCode)!;
    if (!ign) {
      field(record, 'province_code', (raw) => (raw.padStart(2, '0') === province.code ? raw : undefined), `expected ${province.code}, the first two digits of ${ineCode}`);
    }
    const name = field(record, ign ? 'NOMBRE_ACTUAL' : 'name', (raw) => raw || undefined, 'expected the municipality name');
    const provinceName = field(record, ign ? 'PROVINCIA' : 'province', (raw) => raw, '');
    const lat = field(record, ign ? 'LATITUD_ETRS89' : 'lat', inRange(LAT_RANGE[0], LAT_RANGE[1], comma), `expected a latitude in Spain (${LAT_RANGE[0]} to ${LAT_RANGE[1]})`);
    const lon = field(record, ign ? 'LONGITUD_ETRS89' : 'lon', inRange(LON_RANGE[0], LON_RANGE[1], comma), `expected a longitude in Spain (${LON_RANGE[0]} to ${LON_RANGE[1]})`);
    const altitudeM = field(record, ign ? 'ALTITUD' : 'altitude_m', optional(inRange(ALTITUDE_RANGE[0], ALTITUDE_RANGE[1], comma)), 'expected an altitude in metres or nothing');
    const population = field(
      record,
      ign ? 'POBLACION_MUNI' : 'population',
      optional((raw) => (/^\d+$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : undefined)),
      'expected a whole number of inhabitants or nothing',
    );
    const first = seen.get(ineCode);
    if (first !== undefined) throw new CsvInputError(`line ${record.line}: municipality ${ineCode} already appears on line ${first}`, record.line);
    seen.set(ineCode, record.line);
    rows.push({
      ineCode,
      name,
      provinceCode: province.code,
      province: provinceName || province.name,
      communityCode: province.communityCode,
      community: COMMUNITIES[province.communityCode]!,
      lat,
      lon,
      altitudeM,
      population,
    });
  }
  if (rows.length === 0) throw new CsvInputError('the file has a header but no municipalities', 2);
  return { format: format!, rows };
}
