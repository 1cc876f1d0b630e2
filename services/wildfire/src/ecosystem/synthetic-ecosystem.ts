/**
 * The ecosystem test tokens read: drawn once per municipality from its province's
 * climate zone (municipalities/provinces.ts) with a generator keyed by its INE code,
 * so the same code always gets the same profile, in every process, without the
 * database or the clock.
 *
 * The shares of each vegetation type per zone are a coarse reading of the Mapa
 * Forestal de España and the Inventario Forestal Nacional: eucalyptus, oak and
 * maritime pine with gorse heath on the Atlantic coast; heath and shrub over the
 * Galician interior; cereal land, holm oak and pine on the Meseta (more pine in the
 * high provinces); olive groves, dehesa and matorral in the southern interior;
 * Aleppo pine, garrigue and irrigated land on the Mediterranean; coastal scrub, lava
 * fields and Canary pine in the Canaries. Fuel models follow the vegetation (ICONA's
 * usual assignments), the fuel load is the model's nominal load scaled by the zone's
 * productivity (wetter zones carry more), and forest cover follows the vegetation.
 */
import type { ClimateZone } from '../municipalities/provinces';
import { provinceOf } from '../municipalities/provinces';
import { hashKey, seededRandom, uniform } from '../synthetic/seeded-random';
import { fuelModelInfo, vegetationTypeInfo, type VegetationType } from './classes';

export interface EcosystemValues {
  vegetationType: VegetationType;
  /** null: non-burnable land. */
  fuelModel: number | null;
  fuelLoadTHa: number;
  forestCoverPct: number;
}

type Weights<T> = readonly (readonly [T, number])[];

export const ZONE_VEGETATION: Readonly<Record<ClimateZone, Weights<VegetationType>>> = {
  oceanic: [
    ['broadleaf_forest', 30],
    ['conifer_forest', 20],
    ['mixed_forest', 10],
    ['shrubland', 18],
    ['grassland', 12],
    ['agricultural', 7],
    ['urban', 3],
  ],
  oceanic_inland: [
    ['shrubland', 32],
    ['broadleaf_forest', 20],
    ['conifer_forest', 18],
    ['mixed_forest', 6],
    ['grassland', 12],
    ['agricultural', 10],
    ['urban', 2],
  ],
  continental: [
    ['agricultural', 36],
    ['conifer_forest', 14],
    ['broadleaf_forest', 12],
    ['shrubland', 14],
    ['grassland', 10],
    ['mixed_forest', 4],
    ['dehesa', 6],
    ['urban', 3],
    ['bare_rock', 1],
  ],
  southern_inland: [
    ['agricultural', 36],
    ['dehesa', 16],
    ['shrubland', 20],
    ['conifer_forest', 9],
    ['broadleaf_forest', 7],
    ['grassland', 7],
    ['urban', 3],
    ['bare_rock', 2],
  ],
  mediterranean: [
    ['shrubland', 28],
    ['conifer_forest', 25],
    ['agricultural', 20],
    ['urban', 10],
    ['broadleaf_forest', 5],
    ['mixed_forest', 4],
    ['grassland', 5],
    ['wetland', 1],
    ['bare_rock', 2],
  ],
  subtropical: [
    ['shrubland', 36],
    ['bare_rock', 18],
    ['conifer_forest', 12],
    ['agricultural', 15],
    ['urban', 10],
    ['broadleaf_forest', 5],
    ['grassland', 4],
  ],
};

/** Above this capital altitude (m) a continental province is pine country (Soria, Segovia, Ávila, Cuenca, Teruel, Burgos). */
const HIGH_PROVINCE_M = 850;
const HIGH_PROVINCE_CONIFER_FACTOR = 2.5;

export const VEGETATION_FUEL_MODELS: Readonly<Record<VegetationType, Weights<number>>> = {
  conifer_forest: [
    [4, 10],
    [7, 25],
    [8, 15],
    [9, 25],
    [10, 25],
  ],
  broadleaf_forest: [
    [6, 10],
    [8, 35],
    [9, 35],
    [10, 20],
  ],
  mixed_forest: [
    [7, 25],
    [8, 25],
    [9, 25],
    [10, 25],
  ],
  dehesa: [
    [1, 50],
    [2, 40],
    [5, 10],
  ],
  shrubland: [
    [4, 25],
    [5, 30],
    [6, 30],
    [7, 15],
  ],
  grassland: [
    [1, 60],
    [2, 15],
    [3, 25],
  ],
  agricultural: [
    [1, 60],
    [3, 40],
  ],
  wetland: [[3, 1]],
  urban: [],
  bare_rock: [],
  water: [],
};

/** Forest cover (%) of each vegetation type: the MFE's canopy cover ranges. */
const VEGETATION_COVER: Readonly<Record<VegetationType, readonly [number, number]>> = {
  conifer_forest: [45, 90],
  broadleaf_forest: [50, 95],
  mixed_forest: [45, 90],
  dehesa: [10, 35],
  shrubland: [3, 25],
  grassland: [0, 12],
  agricultural: [0, 8],
  wetland: [0, 10],
  urban: [0, 10],
  bare_rock: [0, 4],
  water: [0, 0],
};

/** Fuel accumulates faster where it rains more. */
const ZONE_LOAD_FACTOR: Readonly<Record<ClimateZone, number>> = {
  oceanic: 1.2,
  oceanic_inland: 1.1,
  continental: 0.9,
  southern_inland: 0.85,
  mediterranean: 1,
  subtropical: 0.8,
};

function weighted<T>(random: () => number, weights: Weights<T>): T {
  const total = weights.reduce((sum, [, w]) => sum + w, 0);
  let pick = random() * total;
  for (const [value, w] of weights) {
    pick -= w;
    if (pick < 0) return value;
  }
  return weights[weights.length - 1]![0];
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** The synthetic ecosystem of a municipality; throws for a code outside provinces 01–52. */
export function syntheticEcosystem(ineCode: string): EcosystemValues {
  const province = provinceOf(ineCode);
  if (!province) throw new RangeError(`no province for municipality code ${ineCode}`);
  const random = seededRandom(hashKey(`ecosystem|${ineCode}`));
  const highPines = province.climate === 'continental' && province.altitude > HIGH_PROVINCE_M;
  const vegetation = ZONE_VEGETATION[province.climate].map(
    ([type, w]) => [type, type === 'conifer_forest' && highPines ? w * HIGH_PROVINCE_CONIFER_FACTOR : w] as const,
  );
  const vegetationType = weighted(random, vegetation);
  const fuelModel = vegetationTypeInfo(vegetationType)!.burnable ? weighted(random, VEGETATION_FUEL_MODELS[vegetationType]) : null;
  const load = fuelModel === null ? 0 : fuelModelInfo(fuelModel)!.nominalLoadTHa * ZONE_LOAD_FACTOR[province.climate] * uniform(random, 0.75, 1.25);
  const [coverMin, coverMax] = VEGETATION_COVER[vegetationType];
  return {
    vegetationType,
    fuelModel,
    fuelLoadTHa: round1(load),
    forestCoverPct: Math.round(uniform(random, coverMin, coverMax)),
  };
}
