/**
 * Fire danger label and score from the Fire Weather Index.
 *
 * The classes follow the fire danger classes of the European Forest Fire
 * Information System (EFFIS, JRC; "Fire danger forecast" technical background),
 * merged into three: EFFIS very low and low (FWI < 11.2) are LOW, moderate
 * (11.2 <= FWI < 21.3) is MEDIUM, high, very high and extreme (FWI >= 21.3) are
 * HIGH. Upper bounds are excluded, as in EFFIS.
 */

export type RiskLabel = 'LOW' | 'MEDIUM' | 'HIGH';

/** Lowest FWI of each class above LOW. */
export const RISK_THRESHOLDS = Object.freeze({ MEDIUM: 11.2, HIGH: 21.3 } as const);

/**
 * Decay length (FWI units) of the score above the HIGH threshold: the width of the
 * MEDIUM band (21.3 − 11.2), which makes the score's slope continuous at FWI 21.3.
 * Written out rather than subtracted so the constants are exactly the documented ones.
 */
export const RISK_SCORE_DECAY = 10.1;

function requireFwi(fwi: number): void {
  if (!(fwi >= 0)) throw new RangeError(`FWI must be a number >= 0, got ${fwi}`);
}

/** EFFIS-based class of an FWI value (see the file comment). */
export function riskLabel(fwi: number): RiskLabel {
  requireFwi(fwi);
  if (fwi < RISK_THRESHOLDS.MEDIUM) return 'LOW';
  if (fwi < RISK_THRESHOLDS.HIGH) return 'MEDIUM';
  return 'HIGH';
}

/**
 * Risk score in [0, 1], strictly increasing in FWI, with the label thresholds at
 * score 1/3 (FWI 11.2) and 2/3 (FWI 21.3):
 *
 *   score(FWI) = FWI / 33.6                              for 0 <= FWI < 11.2
 *              = 1/3 + (FWI − 11.2) / 30.3               for 11.2 <= FWI < 21.3
 *              = 1 − (1/3)·exp(−(FWI − 21.3) / 10.1)     for FWI >= 21.3
 *
 * i.e. linear from 0 to 1/3 across LOW, linear from 1/3 to 2/3 across MEDIUM, and
 * an exponential approach to 1 across HIGH whose decay length 10.1 (the width of
 * MEDIUM) continues MEDIUM's slope at 21.3. So score < 1/3 ⇔ LOW, score < 2/3 ⇔
 * LOW or MEDIUM. Landmarks: 5.2 → 0.155, 38 (EFFIS very high) → 0.936, 50 (EFFIS
 * extreme) → 0.981, 100 → 0.9999.
 *
 * Not rounded: rounding would merge nearby FWI values. In double precision the
 * score still rises for FWI steps of 0.01 up to FWI ≈ 300 (far beyond observed
 * values) and reaches exactly 1 only above FWI ≈ 388.
 */
export function riskScore(fwi: number): number {
  requireFwi(fwi);
  const { MEDIUM, HIGH } = RISK_THRESHOLDS;
  if (fwi < MEDIUM) return fwi / 33.6;
  if (fwi < HIGH) return 1 / 3 + (fwi - MEDIUM) / 30.3;
  return 1 - Math.exp(-(fwi - HIGH) / RISK_SCORE_DECAY) / 3;
}
