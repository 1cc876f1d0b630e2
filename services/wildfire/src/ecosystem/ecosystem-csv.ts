/**
 * The file of `wildfire ingest ecosystem FILE.csv`: one row per municipality,
 *
 *   municipio_id,vegetation_type,fuel_model,fuel_load_t_ha,forest_cover_pct
 *   41091,shrubland,6,12.4,18
 *
 * municipio_id: INE code (5 digits) of a known municipality, at most once per file;
 * vegetation_type: a code of VEGETATION_TYPES (any case); fuel_model: an Anderson
 * (1982) model 1–13, empty only for non-burnable land (urban, bare_rock, water);
 * fuel_load_t_ha: t/ha of dry matter, 0 to MAX_FUEL_LOAD_T_HA; forest_cover_pct:
 * canopy cover (the MFE's fracción de cabida cubierta), 0 to 100. Columns in any
 * order and case, others ignored; `;` as the separator allows decimal commas.
 */
import { CsvInputError, csvRecords, fieldReader, parseNumber, requireColumns, unknownMunicipalityError, type CsvHeader } from '../csv-input';
import { FUEL_MODEL_MAX, FUEL_MODEL_MIN, MAX_FUEL_LOAD_T_HA, VEGETATION_TYPE_CODES, vegetationTypeInfo, type VegetationType } from './classes';

export const ECOSYSTEM_COLUMNS = ['municipio_id', 'vegetation_type', 'fuel_model', 'fuel_load_t_ha', 'forest_cover_pct'] as const;

export interface EcosystemRow {
  line: number;
  municipioId: string;
  vegetationType: VegetationType;
  /** null: non-burnable land. */
  fuelModel: number | null;
  fuelLoadTHa: number;
  forestCoverPct: number;
}

const between = (min: number, max: number, comma: boolean) => (raw: string) => {
  const value = parseNumber(raw, comma);
  return value !== undefined && value >= min && value <= max ? value : undefined;
};

const NON_BURNABLE = VEGETATION_TYPE_CODES.filter((code) => !vegetationTypeInfo(code)!.burnable);

/**
 * Validated rows in file order; throws CsvInputError at the first bad row, naming its
 * line and column. A municipality appearing twice is refused at its second line (the
 * codes remembered are bounded by the registry, since unknown codes are refused first).
 */
export async function* ecosystemRows(
  lines: AsyncIterable<string> | Iterable<string>,
  context: { isKnown(municipioId: string): boolean },
): AsyncGenerator<EcosystemRow> {
  let read: ReturnType<typeof fieldReader> | undefined;
  let comma = false;
  const onHeader = (header: CsvHeader, names: string[]) => {
    requireColumns(header, ECOSYSTEM_COLUMNS);
    comma = header.delimiter === ';';
    read = fieldReader(header, names);
  };
  const seen = new Map<string, number>();
  for await (const record of csvRecords(lines, onHeader)) {
    const field = read!;
    const municipioId = field(record, 'municipio_id', (raw) => (/^\d{5}$/.test(raw) ? raw : undefined), 'expected a 5-digit INE code');
    if (!context.isKnown(municipioId)) {
      throw unknownMunicipalityError(record.line, municipioId);
    }
    const first = seen.get(municipioId);
    if (first !== undefined) {
      throw new CsvInputError(`line ${record.line}: municipality ${municipioId} already appears on line ${first}`, record.line, 'municipio_id');
    }
    seen.set(municipioId, record.line);
    const vegetationType = field(
      record,
      'vegetation_type',
      (raw) => VEGETATION_TYPE_CODES.find((code) => code === raw.toLowerCase()),
      `expected one of ${VEGETATION_TYPE_CODES.join(', ')}`,
    );
    const burnable = vegetationTypeInfo(vegetationType)!.burnable;
    const fuelModel = field(
      record,
      'fuel_model',
      (raw) => {
        if (raw === '') return burnable ? undefined : null;
        return /^\d{1,2}$/.test(raw) && Number(raw) >= FUEL_MODEL_MIN && Number(raw) <= FUEL_MODEL_MAX ? Number(raw) : undefined;
      },
      burnable
        ? `expected an Anderson fuel model from ${FUEL_MODEL_MIN} to ${FUEL_MODEL_MAX} (${vegetationType} burns; only ${NON_BURNABLE.join(', ')} may leave it empty)`
        : `expected an Anderson fuel model from ${FUEL_MODEL_MIN} to ${FUEL_MODEL_MAX}, or nothing for non-burnable land`,
    );
    yield {
      line: record.line,
      municipioId,
      vegetationType,
      fuelModel,
      fuelLoadTHa: field(record, 'fuel_load_t_ha', between(0, MAX_FUEL_LOAD_T_HA, comma), `expected a fuel load in t/ha from 0 to ${MAX_FUEL_LOAD_T_HA}`),
      forestCoverPct: field(record, 'forest_cover_pct', between(0, 100, comma), 'expected a forest cover in % from 0 to 100'),
    };
  }
}
