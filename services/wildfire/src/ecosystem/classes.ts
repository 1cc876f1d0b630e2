/**
 * The vocabularies of the ecosystem data: vegetation types and fuel models. Their
 * codes are part of the API and of the `ingest ecosystem` file format, so they
 * never change meaning; a new class gets a new code.
 *
 * Vegetation types follow the structural types (`tipo estructural`) of the Mapa
 * Forestal de España (MFE25/MFE50, MITECO), with the MFE's tree-covered `Bosque`
 * split by its dominant formation (conifers, broadleaves, or both) because that is
 * what decides how it burns; plantations go with their species.
 *
 * Fuel models are the 13 of Rothermel's surface-fire model as catalogued by
 * Anderson (1982, USDA Forest Service GTR INT-122; the "NFFL" models): the set
 * ICONA's photographic key (Clave fotográfica para la identificación de modelos de
 * combustible, 1990) adopted for Spain, in which Spanish regional fuel maps are
 * still published.
 */

export interface VegetationTypeInfo {
  code: string;
  name: string;
  /** The Mapa Forestal de España class it corresponds to. */
  mfe: string;
  /** False for land that carries no surface fire; only these may go without a fuel model. */
  burnable: boolean;
}

export const VEGETATION_TYPES = [
  { code: 'conifer_forest', name: 'Conifer forest', mfe: 'Bosque: coníferas (Pinus, Abies, Juniperus)', burnable: true },
  { code: 'broadleaf_forest', name: 'Broadleaf forest', mfe: 'Bosque: frondosas (Quercus, Fagus, Castanea, Eucalyptus, laurisilva)', burnable: true },
  { code: 'mixed_forest', name: 'Mixed forest', mfe: 'Bosque: mezcla de coníferas y frondosas', burnable: true },
  { code: 'dehesa', name: 'Wooded pasture (dehesa)', mfe: 'Bosque adehesado', burnable: true },
  { code: 'shrubland', name: 'Shrubland (matorral)', mfe: 'Matorral', burnable: true },
  { code: 'grassland', name: 'Grassland (pastizal)', mfe: 'Herbazal/pastizal, pastizal-matorral', burnable: true },
  { code: 'agricultural', name: 'Agricultural land', mfe: 'Agrícola y prados artificiales', burnable: true },
  { code: 'wetland', name: 'Wetland', mfe: 'Humedal', burnable: true },
  { code: 'urban', name: 'Urban and artificial', mfe: 'Artificial', burnable: false },
  { code: 'bare_rock', name: 'Bare ground and rock', mfe: 'Monte sin vegetación superior (roquedos, arenales, coladas)', burnable: false },
  { code: 'water', name: 'Water', mfe: 'Agua', burnable: false },
] as const satisfies readonly VegetationTypeInfo[];

export type VegetationType = (typeof VEGETATION_TYPES)[number]['code'];
export const VEGETATION_TYPE_CODES = VEGETATION_TYPES.map((v) => v.code) as [VegetationType, ...VegetationType[]];

const VEGETATION_BY_CODE: ReadonlyMap<string, VegetationTypeInfo> = new Map(VEGETATION_TYPES.map((v) => [v.code, v]));

export function vegetationTypeInfo(code: string): VegetationTypeInfo | undefined {
  return VEGETATION_BY_CODE.get(code);
}

export interface FuelModelInfo {
  code: number;
  name: string;
  /** ICONA's Spanish name. */
  nameEs: string;
  /**
   * Anderson's total fuel load (dead 1-h, 10-h, 100-h and live), in t/ha of dry
   * matter: his tons per acre × 2.2417. The synthetic data is drawn around it.
   */
  nominalLoadTHa: number;
}

export const FUEL_MODELS: readonly FuelModelInfo[] = [
  { code: 1, name: 'Short grass', nameEs: 'Pasto fino, seco y bajo', nominalLoadTHa: 1.7 },
  { code: 2, name: 'Timber (grass and understory)', nameEs: 'Pasto con matorral o arbolado claro', nominalLoadTHa: 9.0 },
  { code: 3, name: 'Tall grass', nameEs: 'Pasto grueso y alto (más de 1 m)', nominalLoadTHa: 6.7 },
  { code: 4, name: 'Chaparral', nameEs: 'Matorral denso de unos 2 m o arbolado joven', nominalLoadTHa: 35.9 },
  { code: 5, name: 'Brush', nameEs: 'Matorral denso y verde de menos de 1 m', nominalLoadTHa: 7.8 },
  { code: 6, name: 'Dormant brush, hardwood slash', nameEs: 'Matorral más inflamable que el 5, de 0,6 a 1,2 m', nominalLoadTHa: 13.5 },
  { code: 7, name: 'Southern rough', nameEs: 'Matorral inflamable bajo arbolado', nominalLoadTHa: 10.9 },
  { code: 8, name: 'Closed timber litter', nameEs: 'Hojarasca compacta bajo bosque cerrado', nominalLoadTHa: 11.2 },
  { code: 9, name: 'Hardwood litter', nameEs: 'Hojarasca suelta (frondosas, pinos de acícula larga)', nominalLoadTHa: 7.8 },
  { code: 10, name: 'Timber (litter and understory)', nameEs: 'Hojarasca con restos leñosos y matorral bajo bosque', nominalLoadTHa: 26.9 },
  { code: 11, name: 'Light logging slash', nameEs: 'Restos de corta ligeros', nominalLoadTHa: 25.8 },
  { code: 12, name: 'Medium logging slash', nameEs: 'Restos de corta medios', nominalLoadTHa: 77.5 },
  { code: 13, name: 'Heavy logging slash', nameEs: 'Restos de corta pesados', nominalLoadTHa: 130.2 },
];

export type FuelModel = number;
export const FUEL_MODEL_MIN = 1;
export const FUEL_MODEL_MAX = 13;

export function fuelModelInfo(code: number): FuelModelInfo | undefined {
  return FUEL_MODELS[code - 1];
}

/** Fuel loads above this are taken for a unit error such as kg/ha (Anderson's heaviest slash is about 130 t/ha). */
export const MAX_FUEL_LOAD_T_HA = 300;
