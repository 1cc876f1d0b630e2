/**
 * Automatic decisions: every run of consecutive days at very_high or above (FWI ≥ 38,
 * the EFFIS classes of decision-support/danger-classes.ts) for a municipality is one
 * decision of type `alert`, origin `automatic`, scope the municipality, with the six
 * bans of Ley 43/2003 art. 48.6 (measures-table.ts) and dates spanning the run.
 *
 * Live data: weather ingestion calls `updateAutomaticDecisions` in its transaction once
 * the readings are written, with the runs of high days its FWI loop gathered; the
 * repository recomputes the touched municipalities' runs set-based (decisions/repository.ts `replaceAutomatic`), so a correction extends,
 * merges, splits or removes decisions in the same commit as the readings.
 * Test tokens: `syntheticAutomaticDecisions` derives the same runs from the synthetic
 * series on demand; they are never stored.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import { addDays } from '../calendar';
import { DANGER_CLASSES } from '../decision-support/danger-classes';
import { ART_48_6_LEGAL_BASIS, measuresFor } from '../decision-support/measures-table';
import { SOURCES } from '../decision-support/sources';
import { EARLIEST_DATE } from '../readings/date-range';
import type { SyntheticData } from '../synthetic/synthetic-data';
import type { AutomaticDecisionContent, AutomaticDecisionCounts, DayRun } from './automatic-sql';
import type { DecisionsRepository, StoredDecision } from './repository';

export const AUTOMATIC_MIN_FWI = DANGER_CLASSES.find((c) => c.code === 'very_high')!.minFwi;

export const AUTOMATIC_DECISION: AutomaticDecisionContent = {
  minFwi: AUTOMATIC_MIN_FWI,
  title: `Peligro muy alto o extremo de incendio (FWI ≥ ${AUTOMATIC_MIN_FWI}): prohibiciones del art. 48.6 de la Ley de Montes`,
  measures: measuresFor('very_high')
    .filter((m) => m.legal_basis === ART_48_6_LEGAL_BASIS)
    .map((m) => m.title),
  legalBasis: ART_48_6_LEGAL_BASIS,
  sourceUrl: SOURCES.ley_montes.url,
};

export function createUpdateAutomaticDecisions(deps: { repo: Pick<DecisionsRepository, 'replaceAutomatic'>; clock: () => Date }) {
  /**
   * Recomputes the automatic decisions of each touched municipality from its first touched
   * day, on `tx`. `highFrom`: the runs of days at or above AUTOMATIC_MIN_FWI from each
   * first touched day on, when the caller has them (weather ingestion gathers them while
   * computing the FWI); without them they are read from the stored readings.
   */
  return function updateAutomaticDecisions(
    tx: pg.ClientBase,
    touched: readonly { municipio_id: string; first: string }[],
    highFrom?: readonly DayRun[],
  ): Promise<AutomaticDecisionCounts> {
    return deps.repo.replaceAutomatic(tx, touched, AUTOMATIC_DECISION, deps.clock(), highFrom);
  };
}

/**
 * `wildfire decisions rebuild-automatic`: derives the automatic decisions of every stored
 * reading again, e.g. for readings stored before automatic decisions existed. Idempotent.
 */
export function createRebuildAutomaticDecisions(deps: { repo: Pick<DecisionsRepository, 'rebuildAutomatic'>; clock: () => Date }) {
  return () => deps.repo.rebuildAutomatic(AUTOMATIC_DECISION, deps.clock());
}

/** Runs of consecutive dates among `days` (in date order) whose FWI is at or above `minFwi`. */
export function highRuns(days: readonly { date: string; fwi: number }[], minFwi = AUTOMATIC_MIN_FWI): { from: string; to: string }[] {
  const runs: { from: string; to: string }[] = [];
  for (const day of days) {
    if (day.fwi < minFwi) continue;
    const last = runs[runs.length - 1];
    if (last && addDays(last.to, 1) === day.date) last.to = day.date;
    else runs.push({ from: day.date, to: day.date });
  }
  return runs;
}

/** Days read per step when a synthetic run is followed past the span asked for. */
const WIDEN_STEP_DAYS = 31;

/**
 * The synthetic automatic decisions of a municipality in force on some day from `from`
 * to `to` (both within 2015-01-01..today), each run whole: one crossing either end is
 * followed into the days around it. Ids are `dec_` + 24 hex digits of
 * sha256("synthetic|<code>|<first day>"); `created_at` is 00:00 UTC of the first day.
 */
export function syntheticAutomaticDecisions(synthetic: SyntheticData, municipioId: string, from: string, to: string, today: string): StoredDecision[] {
  let first = from;
  let last = to;
  let days = synthetic.readings(municipioId, first, last);
  // Follow a run that crosses an end until a day below the threshold (or the series' ends).
  while (first > EARLIEST_DATE && days.length > 0 && days[0]!.fwi >= AUTOMATIC_MIN_FWI) {
    const before = synthetic.readings(municipioId, maxDay(addDays(first, -WIDEN_STEP_DAYS), EARLIEST_DATE), addDays(first, -1));
    first = before[0]!.date;
    days = [...before, ...days];
    if (before.some((d) => d.fwi < AUTOMATIC_MIN_FWI)) break;
  }
  while (last < today && days.length > 0 && days[days.length - 1]!.fwi >= AUTOMATIC_MIN_FWI) {
    const after = synthetic.readings(municipioId, addDays(last, 1), minDay(addDays(last, WIDEN_STEP_DAYS), today));
    last = after[after.length - 1]!.date;
    days = [...days, ...after];
    if (after.some((d) => d.fwi < AUTOMATIC_MIN_FWI)) break;
  }
  return highRuns(days)
    .filter((run) => run.to >= from && run.from <= to)
    .map((run) => syntheticDecision('synthetic', municipioId, run, { forecast: false, createdAt: `${run.from}T00:00:00.000Z` }));
}

/**
 * A synthetic automatic decision of a run (never stored): the id is `dec_` + 24 hex digits of
 * sha256("<kind>|<code>|<first day>"), the content AUTOMATIC_DECISION's.
 */
export function syntheticDecision(
  kind: 'synthetic' | 'synthetic-forecast',
  municipioId: string,
  run: { from: string; to: string },
  { forecast, createdAt }: { forecast: boolean; createdAt: string },
): StoredDecision {
  return {
    decision_id: `dec_${createHash('sha256').update(`${kind}|${municipioId}|${run.from}`).digest('hex').slice(0, 24)}`,
    type: 'alert',
    title: AUTOMATIC_DECISION.title,
    scope_level: 'municipality',
    scope_code: municipioId,
    date_from: run.from,
    date_to: run.to,
    measures: AUTOMATIC_DECISION.measures,
    legal_basis: AUTOMATIC_DECISION.legalBasis,
    source_url: AUTOMATIC_DECISION.sourceUrl,
    origin: 'automatic',
    forecast,
    created_at: new Date(createdAt),
  };
}

const maxDay = (a: string, b: string) => (a > b ? a : b);
const minDay = (a: string, b: string) => (a < b ? a : b);
