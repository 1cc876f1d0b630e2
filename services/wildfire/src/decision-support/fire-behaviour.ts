/**
 * Expected fire behaviour of a municipality-day from its ISI, BUI and ecosystem: the
 * head-fire rate of spread of the Canadian Forest Fire Behavior Prediction (FBP)
 * System (Forestry Canada Fire Danger Group 1992, ST-X-3: RSI = a·(1 − e^(−b·ISI))^c,
 * eq. 26; the grass curing factor as revised by Wotton, Alexander and Taylor (2009,
 * Updates and revisions to the 1992 Canadian FBP System), eqs. 35a/35b; the buildup effect
 * BE = exp(50·ln q·(1/BUI − 1/BUI₀)), eq. 54), as the cffdrs R package implements
 * it, and Byram's (1959) head-fire intensity I = 300·w·ROS (FBP eq. 69: 18,000 kJ/kg
 * over 60 s/min; w in kg/m², ROS in m/min, I in kW/m).
 *
 * The FBP System was fitted to Canadian fuel types, not to the Anderson (1982) models
 * Spanish fuel maps use, so each model is given the nearest FBP type (FUEL_TYPE_OF_MODEL):
 * grass to O-1b (standing grass) at 85 % curing, shrub and timber litter to C-7 (open
 * forest whose fire is carried by surface fuels; FBP has no shrubland type, so this is
 * a coarse proxy), slash to S-1, S-2 and S-3. Slope and wind direction are not known
 * per municipality, so the spread is on level ground with the wind behind the head.
 * `w` is the municipality's whole surface fuel load (t/ha ÷ 10): the intensity is that
 * of a head fire consuming it all, an upper bound of what FBP's own consumption
 * equations would give. Head fire intensity classes are those of the Canadian
 * Wildland Fire Information System (1: < 10 kW/m … 6: ≥ 10,000 kW/m).
 */
export type FbpFuelType = 'C-7' | 'S-1' | 'S-2' | 'S-3' | 'O-1b';

interface FbpParameters {
  a: number;
  b: number;
  c: number;
  /** Proportion of maximum ROS at BUI₀ (q) and the average BUI of the type's data (BUI₀); FBP table 7. */
  q: number;
  bui0: number;
}

/** FBP table 6 (a, b, c) and table 7 (q, BUI₀). */
export const FBP_PARAMETERS: Readonly<Record<FbpFuelType, FbpParameters>> = {
  'C-7': { a: 45, b: 0.0305, c: 2.0, q: 0.85, bui0: 106 },
  'S-1': { a: 75, b: 0.0297, c: 1.3, q: 0.75, bui0: 38 },
  'S-2': { a: 40, b: 0.0438, c: 1.7, q: 0.75, bui0: 63 },
  'S-3': { a: 55, b: 0.0829, c: 3.2, q: 0.75, bui0: 31 },
  'O-1b': { a: 250, b: 0.035, c: 1.7, q: 1, bui0: 1 },
};

/** Degree of curing assumed for grass (%): FBP's usual default for cured summer grass. */
export const GRASS_CURING_PCT = 85;

/** The FBP type standing in for each Anderson (1982) model; see the file comment. */
export const FUEL_TYPE_OF_MODEL: Readonly<Record<number, FbpFuelType>> = {
  1: 'O-1b', 2: 'O-1b', 3: 'O-1b',
  4: 'C-7', 5: 'C-7', 6: 'C-7', 7: 'C-7',
  8: 'C-7', 9: 'C-7', 10: 'C-7',
  11: 'S-1', 12: 'S-2', 13: 'S-3',
};

/** FBP eq. 54: the buildup effect on spread (1 for BUI 0 and for grass, whose q is 1). */
export function buildupEffect(type: FbpFuelType, bui: number): number {
  const { q, bui0 } = FBP_PARAMETERS[type];
  return bui > 0 ? Math.exp(50 * Math.log(q) * (1 / bui - 1 / bui0)) : 1;
}

/** FBP eqs. 35a/35b: the curing factor of grass spread. */
export function curingFactor(curingPct: number): number {
  return curingPct < 58.8 ? 0.005 * (Math.exp(0.061 * curingPct) - 1) : 0.176 + 0.02 * (curingPct - 58.8);
}

/** Head-fire rate of spread on level ground, m/min (FBP eqs. 26, 35 and 54, as cffdrs's ROScalc). */
export function headFireRateOfSpread(type: FbpFuelType, isi: number, bui: number, curingPct = GRASS_CURING_PCT): number {
  const { a, b, c } = FBP_PARAMETERS[type];
  const rsi = a * Math.pow(1 - Math.exp(-b * isi), c);
  return type === 'O-1b' ? rsi * curingFactor(curingPct) : rsi * buildupEffect(type, bui);
}

/** Byram's intensity as FBP eq. 69, kW/m: fuel consumed in kg/m², spread in m/min. */
export const headFireIntensity = (fuelConsumedKgM2: number, rosMMin: number): number => 300 * fuelConsumedKgM2 * rosMMin;

export const BEHAVIOUR_CLASSES = ['no_spread', 'creeping', 'low', 'moderate', 'high', 'very_high', 'extreme'] as const;
export type BehaviourClass = (typeof BEHAVIOUR_CLASSES)[number];

interface IntensityClass {
  class: 1 | 2 | 3 | 4 | 5 | 6;
  /** Lowest intensity of the class (included), kW/m. */
  minKwM: number;
  behaviour: Exclude<BehaviourClass, 'no_spread'>;
  explanation: string;
}

/** CWFIS head fire intensity classes, with a plain reading of each for the people who act on it. */
export const INTENSITY_CLASSES: readonly IntensityClass[] = [
  { class: 1, minKwM: 0, behaviour: 'creeping', explanation: 'Fuego de superficie lento y de llama baja, que se apaga solo o se controla con facilidad.' },
  { class: 2, minKwM: 10, behaviour: 'low', explanation: 'Fuego de superficie de intensidad baja a moderada: se puede atacar de frente con herramientas manuales.' },
  { class: 3, minKwM: 500, behaviour: 'moderate', explanation: 'Fuego de superficie vigoroso: el ataque directo necesita autobombas y maquinaria; con arbolado puede subir a las copas de forma aislada.' },
  { class: 4, minKwM: 2000, behaviour: 'high', explanation: 'Fuego de alta intensidad, con antorcheo y focos secundarios cercanos: el ataque directo de la cabeza es difícil y necesita medios aéreos.' },
  { class: 5, minKwM: 4000, behaviour: 'very_high', explanation: 'Fuego muy intenso, con paso a copas y focos secundarios: fuera de la capacidad de ataque directo a la cabeza.' },
  { class: 6, minKwM: 10000, behaviour: 'extreme', explanation: 'Comportamiento extremo: fuego de copas activo, focos a distancia y avance muy rápido; solo cabe el ataque indirecto y proteger a la población.' },
];

export function intensityClassOf(kwM: number): IntensityClass {
  let found = INTENSITY_CLASSES[0]!;
  for (const c of INTENSITY_CLASSES) if (kwM >= c.minKwM) found = c;
  return found;
}

export interface FireBehaviour {
  behaviourClass: BehaviourClass;
  explanation: string;
  fuelModel: number | null;
  fbpFuelType: FbpFuelType | null;
  fuelLoadTHa: number;
  rateOfSpreadMMin: number | null;
  headFireIntensityKwM: number | null;
  intensityClass: IntensityClass['class'] | null;
  isi: number;
  bui: number;
}

const NO_SPREAD = 'No se espera propagación de fuego de superficie: el terreno dominante no es combustible (urbano, roca o agua).';
const NO_FUEL = 'No se espera propagación de fuego de superficie: no consta carga de combustible de superficie.';

/** The expected behaviour of a head fire in the municipality's dominant fuel on a day of this ISI and BUI. */
export function fireBehaviourOf(isi: number, bui: number, ecosystem: { fuelModel: number | null; fuelLoadTHa: number }): FireBehaviour {
  const type = ecosystem.fuelModel === null ? undefined : FUEL_TYPE_OF_MODEL[ecosystem.fuelModel];
  const base = { fuelModel: ecosystem.fuelModel, fuelLoadTHa: ecosystem.fuelLoadTHa, isi, bui };
  if (type === undefined || ecosystem.fuelLoadTHa <= 0) {
    return { ...base, behaviourClass: 'no_spread', explanation: type === undefined ? NO_SPREAD : NO_FUEL, fbpFuelType: type ?? null, rateOfSpreadMMin: null, headFireIntensityKwM: null, intensityClass: null };
  }
  const ros = headFireRateOfSpread(type, isi, bui);
  const intensity = headFireIntensity(ecosystem.fuelLoadTHa / 10, ros);
  const cls = intensityClassOf(intensity);
  return { ...base, behaviourClass: cls.behaviour, explanation: cls.explanation, fbpFuelType: type, rateOfSpreadMMin: ros, headFireIntensityKwM: intensity, intensityClass: cls.class };
}
