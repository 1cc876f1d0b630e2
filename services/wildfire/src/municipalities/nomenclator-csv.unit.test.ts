import { CsvInputError } from '../csv-input';
import { IGN_NOMENCLATOR, PLAIN_NOMENCLATOR } from './__fixtures__/nomenclator-sample';
import { parseNomenclator } from './nomenclator-csv';

async function failure(text: string, encoding: BufferEncoding = 'utf8') {
  try {
    await parseNomenclator(Buffer.from(text, encoding));
  } catch (err) {
    if (err instanceof CsvInputError) return err.message;
    throw err;
  }
  throw new Error('expected the file to be refused');
}

describe('parseNomenclator', () => {
  it('reads the IGN/CNIG file as downloaded: Latin-1, semicolons, decimal commas, 11-character COD_INE', async () => {
    const { format, rows } = await parseNomenclator(Buffer.from(IGN_NOMENCLATOR, 'latin1'));
    expect(format).toBe('ign');
    expect(rows[0]).toEqual({
      ineCode: '01001',
      name: 'Alegría-Dulantzi',
      provinceCode: '01',
      province: 'Araba/Álava',
      communityCode: '16',
      community: 'País Vasco/Euskadi',
      lat: 42.83981158,
      lon: -2.51243731,
      altitudeM: 568,
      population: 2975,
    });
    expect(rows.map((r) => r.ineCode)).toEqual(['01001', '41091', '15030']);
  });

  it('reads the same file re-saved as UTF-8', async () => {
    const { rows } = await parseNomenclator(Buffer.from(IGN_NOMENCLATOR, 'utf8'));
    expect(rows[2]).toMatchObject({ name: 'A Coruña', lat: 43.37126587 });
  });

  it('reads the plain UTF-8 layout, an empty population as unknown', async () => {
    const { format, rows } = await parseNomenclator(Buffer.from(PLAIN_NOMENCLATOR));
    expect(format).toBe('plain');
    expect(rows).toHaveLength(6);
    expect(rows[5]).toMatchObject({ ineCode: '48916', name: 'Ziortza-Bolibar', population: null, altitudeM: 200 });
  });

  it('reads a quoted altitude with a decimal comma in the plain layout, as the 2024 derived file writes 14 of them', async () => {
    // Rows of the IGN/CNIG nomenclator 2024 (CC-BY 4.0, IGN/CNIG) in the plain layout, as distributed: quoted decimal-comma
    // altitudes, and a quoted name with commas.
    const text = [
      'ine_code,name,province_code,province,lat,lon,altitude_m,population',
      '07032,Maó,07,Illes Balears,39.889762,4.264303,"32,88",29902',
      '38011,Candelaria,38,Santa Cruz de Tenerife,28.35523524,-16.37002705,"6,5",28694',
      '17187,"Saus, Camallera i Llampaies",17,Girona,42.1218695,2.96318463,86,872',
      '41078,La Puebla de los Infantes,41,Sevilla,37.778646,-5.388949,"231,97",2966',
    ].join('\n');
    const { rows } = await parseNomenclator(Buffer.from(text));
    expect(rows.map((r) => [r.ineCode, r.name, r.altitudeM])).toEqual([
      ['07032', 'Maó', 32.88],
      ['38011', 'Candelaria', 6.5],
      ['17187', 'Saus, Camallera i Llampaies', 86],
      ['41078', 'La Puebla de los Infantes', 231.97],
    ]);
    expect(await failure(text.replace('"32,88"', '"32,8,8"'))).toContain('line 2, column "altitude_m": expected an altitude');
  });

  it.each([
    ['a latitude outside Spain', PLAIN_NOMENCLATOR.replace('40.40841191', '4040841191'), 'line 4, column "lat": expected a latitude in Spain'],
    ['swapped coordinates', PLAIN_NOMENCLATOR.replace('37.38620512,-5.99251368', '-5.99251368,37.38620512'), 'line 6, column "lat"'],
    ['a province code that does not match', PLAIN_NOMENCLATOR.replace('28079,Madrid,28', '28079,Madrid,29'), 'line 4, column "province_code": expected 28'],
    ['a 4-digit code', PLAIN_NOMENCLATOR.replace('41091,', '4109,'), 'line 6, column "ine_code"'],
    ['a repeated municipality', `${PLAIN_NOMENCLATOR}\n41091,Sevilla,41,Sevilla,37.3,-5.9,11,1`, 'line 8: municipality 41091 already appears on line 6'],
    ['an unknown header', 'code;name\n01001;x', 'line 1: not a municipality file'],
    ['a missing column', 'ine_code,name,lat\n01001,x,42', 'line 1: missing columns "province_code"'],
    ['no rows', 'ine_code,name,province_code,province,lat,lon,altitude_m,population\n', 'no municipalities'],
  ])('refuses %s, naming the line', async (_label, text, message) => {
    expect(await failure(text)).toContain(message);
  });
});
