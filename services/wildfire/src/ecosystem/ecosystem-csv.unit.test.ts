import { CsvInputError } from '../csv-input';
import { ecosystemRows, type EcosystemRow } from './ecosystem-csv';

const KNOWN = new Set(['28079', '41091', '15030', '38038']);
const HEADER = 'municipio_id,vegetation_type,fuel_model,fuel_load_t_ha,forest_cover_pct';

async function parse(lines: string[]): Promise<EcosystemRow[]> {
  const rows: EcosystemRow[] = [];
  for await (const row of ecosystemRows(lines, { isKnown: (code) => KNOWN.has(code) })) rows.push(row);
  return rows;
}

async function refusal(lines: string[]): Promise<CsvInputError> {
  try {
    await parse(lines);
  } catch (err) {
    if (err instanceof CsvInputError) return err;
    throw err;
  }
  throw new Error('the file was accepted');
}

describe('the ecosystem CSV', () => {
  it('reads each row with its line number, an empty fuel model as non-burnable', async () => {
    expect(await parse([HEADER, '41091,shrubland,6,12.4,18', '', '28079,urban,,0,4'])).toEqual([
      { line: 2, municipioId: '41091', vegetationType: 'shrubland', fuelModel: 6, fuelLoadTHa: 12.4, forestCoverPct: 18 },
      { line: 4, municipioId: '28079', vegetationType: 'urban', fuelModel: null, fuelLoadTHa: 0, forestCoverPct: 4 },
    ]);
  });

  it('takes columns in any order and case, ignores others, and reads decimal commas after a semicolon header', async () => {
    const rows = await parse(['Forest_Cover_Pct;FUEL_MODEL;notes;Municipio_ID;Fuel_Load_T_Ha;Vegetation_Type', '62,5;9;pinar;15030;8,25;Conifer_Forest']);
    expect(rows).toEqual([{ line: 2, municipioId: '15030', vegetationType: 'conifer_forest', fuelModel: 9, fuelLoadTHa: 8.25, forestCoverPct: 62.5 }]);
  });

  it('names every missing column at once', async () => {
    const err = await refusal(['municipio_id,vegetation_type,fuel_load', '41091,shrubland,6']);
    expect(err.message).toBe(
      'line 1: missing columns "fuel_model", "fuel_load_t_ha", "forest_cover_pct" (expected municipio_id, vegetation_type, fuel_model, fuel_load_t_ha, forest_cover_pct)',
    );
  });

  it.each([
    ['4109,shrubland,6,12,18', 'municipio_id', 'expected a 5-digit INE code'],
    ['99999,shrubland,6,12,18', 'municipio_id', 'no municipality has the INE code 99999'],
    ['41091,forest,6,12,18', 'vegetation_type', 'expected one of conifer_forest, broadleaf_forest'],
    ['41091,shrubland,14,12,18', 'fuel_model', 'expected an Anderson fuel model from 1 to 13'],
    ['41091,shrubland,0,12,18', 'fuel_model', 'expected an Anderson fuel model from 1 to 13'],
    ['41091,shrubland,6.5,12,18', 'fuel_model', 'expected an Anderson fuel model from 1 to 13'],
    ['41091,shrubland,,12,18', 'fuel_model', 'shrubland burns; only urban, bare_rock, water may leave it empty'],
    ['41091,shrubland,6,-1,18', 'fuel_load_t_ha', 'expected a fuel load in t/ha from 0 to 300'],
    ['41091,shrubland,6,12400,18', 'fuel_load_t_ha', 'expected a fuel load in t/ha from 0 to 300'],
    ['41091,shrubland,6,,18', 'fuel_load_t_ha', 'expected a fuel load in t/ha from 0 to 300'],
    ['41091,shrubland,6,12,101', 'forest_cover_pct', 'expected a forest cover in % from 0 to 100'],
    ['41091,shrubland,6,12,18%', 'forest_cover_pct', 'expected a forest cover in % from 0 to 100'],
  ])('refuses %s, naming line and column %s', async (row, column, message) => {
    const err = await refusal([HEADER, '28079,urban,,0,4', row]);
    expect(err).toMatchObject({ line: 3, column });
    expect(err.message).toContain(`line 3`);
    expect(err.message).toContain(message);
  });

  it('refuses a municipality listed twice at its second line, naming the first', async () => {
    const err = await refusal([HEADER, '41091,shrubland,6,12,18', '28079,urban,,0,4', '41091,grassland,1,1.5,0']);
    expect(err).toMatchObject({ line: 4, column: 'municipio_id' });
    expect(err.message).toBe('line 4: municipality 41091 already appears on line 2');
  });

  it('refuses an empty file', async () => {
    expect((await refusal([])).message).toMatch(/the file is empty/);
  });
});
