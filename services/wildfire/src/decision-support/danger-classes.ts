/**
 * The six EFFIS fire danger classes of the FWI and AEMET's five-level wording for
 * each. Lower bounds are included and upper bounds excluded, as in EFFIS: FWI 5.2 is
 * low, 49.99 very high, 50 extreme. AEMET names five levels; its own thresholds vary
 * by region, so the service maps EFFIS classes onto AEMET's wording (very low and
 * low are both "bajo") rather than claim AEMET's regional thresholds.
 * The three m1 labels are these classes merged (risk/risk-score.ts), so
 * `danger_class` and `risk_label` always agree.
 */
export const DANGER_CLASS_CODES = ['very_low', 'low', 'moderate', 'high', 'very_high', 'extreme'] as const;
export type DangerClass = (typeof DANGER_CLASS_CODES)[number];

export const AEMET_LEVELS = ['bajo', 'moderado', 'alto', 'muy alto', 'extremo'] as const;
export type AemetLevel = (typeof AEMET_LEVELS)[number];

export interface DangerClassRow {
  code: DangerClass;
  /** Lowest FWI of the class (included). */
  minFwi: number;
  aemet: AemetLevel;
  /** Spanish name used in texts. */
  nameEs: string;
}

/** Source: EFFIS fire danger forecast, technical background (SOURCES.effis); AEMET wording (SOURCES.aemet). */
export const DANGER_CLASSES: readonly DangerClassRow[] = [
  { code: 'very_low', minFwi: 0, aemet: 'bajo', nameEs: 'muy bajo' },
  { code: 'low', minFwi: 5.2, aemet: 'bajo', nameEs: 'bajo' },
  { code: 'moderate', minFwi: 11.2, aemet: 'moderado', nameEs: 'moderado' },
  { code: 'high', minFwi: 21.3, aemet: 'alto', nameEs: 'alto' },
  { code: 'very_high', minFwi: 38, aemet: 'muy alto', nameEs: 'muy alto' },
  { code: 'extreme', minFwi: 50, aemet: 'extremo', nameEs: 'extremo' },
];

/** The EFFIS class of an FWI value (>= 0). */
export function dangerClassRow(fwi: number): DangerClassRow {
  if (!(fwi >= 0)) throw new RangeError(`FWI must be a number >= 0, got ${fwi}`);
  let found = DANGER_CLASSES[0]!;
  for (const row of DANGER_CLASSES) if (fwi >= row.minFwi) found = row;
  return found;
}

export const dangerClass = (fwi: number): DangerClass => dangerClassRow(fwi).code;

/** The classes at which Ley 43/2003 art. 48.6 obliges the bans: "muy alto" and "extremo". */
export const ART_48_6_CLASSES: readonly DangerClass[] = ['very_high', 'extreme'];
