/**
 * Automatic decisions on forecast days: every run of consecutive forecast days at
 * very_high or above (FWI ≥ 38, the threshold of observed days) in a municipality's
 * latest forecast is one automatic decision marked `forecast: true`, with the same title,
 * measures and legal basis as an observed run (automatic-decisions.ts).
 *
 * Live data: the AEMET forecast import replaces them with the municipality's forecast
 * days, in the same transaction (forecast/repository.ts `replace`), so they always follow
 * the latest forecast: a run no longer forecast is deleted, one that moved is replaced.
 * They never merge with an observed run: the observed days keep their own decisions, and
 * the next day's forecast, which starts after them, drops a forecast run they overtook.
 * Ids are `dec_` + 24 hex digits of sha256("forecast|<code>|<first day>"), so a run
 * forecast again from the same first day keeps its id and `created_at`.
 * Test tokens: `syntheticForecastDecisions` derives them from the synthetic forecast
 * (the next six days), never stored.
 */
import { createHash } from 'node:crypto';
import { and, eq, notInArray, sql } from 'drizzle-orm';
import { addDays } from '../calendar';
import type { WildfireDb } from '../db';
import type { SyntheticData } from '../synthetic/synthetic-data';
import { AUTOMATIC_DECISION, highRuns, syntheticDecision } from './automatic-decisions';
import type { StoredDecision } from './repository';
import { decisions } from './tables';

/** How many days a forecast covers (D+1…D+6), as GET /api/v3/m1/forecast. */
const FORECAST_DAYS = 6;

export const forecastDecisionId = (municipioId: string, from: string) =>
  `dec_${createHash('sha256').update(`forecast|${municipioId}|${from}`).digest('hex').slice(0, 24)}`;

export interface ForecastDecisionCounts {
  created: number;
  updated: number;
  removed: number;
}

/**
 * Replaces the forecast decisions of a municipality with the runs of `days` (its new
 * forecast, in date order), on the caller's transaction.
 */
export async function replaceForecastDecisions(
  tx: Pick<WildfireDb, 'delete' | 'insert'>,
  municipioId: string,
  days: readonly { date: string; fwi: number }[],
  now: Date,
): Promise<ForecastDecisionCounts> {
  const runs = highRuns(days);
  const ids = runs.map((r) => forecastDecisionId(municipioId, r.from));
  const mine = and(eq(decisions.origin, 'automatic'), eq(decisions.forecast, true), eq(decisions.scopeLevel, 'municipality'), eq(decisions.scopeCode, municipioId));
  const removed = await tx
    .delete(decisions)
    .where(ids.length > 0 ? and(mine, notInArray(decisions.decisionId, ids)) : mine)
    .returning({ id: decisions.decisionId });
  if (runs.length === 0) return { created: 0, updated: 0, removed: removed.length };
  const written = await tx
    .insert(decisions)
    .values(
      runs.map((run, i) => ({
        decisionId: ids[i]!,
        type: 'alert' as const,
        title: AUTOMATIC_DECISION.title,
        scopeLevel: 'municipality' as const,
        scopeCode: municipioId,
        dateFrom: run.from,
        dateTo: run.to,
        measures: AUTOMATIC_DECISION.measures,
        legalBasis: AUTOMATIC_DECISION.legalBasis,
        sourceUrl: AUTOMATIC_DECISION.sourceUrl,
        origin: 'automatic' as const,
        forecast: true,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: decisions.decisionId,
      set: { dateTo: sql`excluded.date_to`, updatedAt: sql`excluded.updated_at` },
      setWhere: sql`${decisions.dateTo} IS DISTINCT FROM excluded.date_to`,
    })
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  const created = written.filter((w) => w.inserted).length;
  return { created, updated: written.length - created, removed: removed.length };
}

/**
 * The synthetic forecast decisions of a municipality: the runs at or above FWI 38 among
 * the synthetic series' next six days (what GET /api/v3/m1/forecast answers test tokens);
 * `created_at` is 00:00 UTC of today, the synthetic forecast's issue day.
 */
export function syntheticForecastDecisions(synthetic: SyntheticData, municipioId: string, today: string): StoredDecision[] {
  return highRuns(synthetic.readings(municipioId, addDays(today, 1), addDays(today, FORECAST_DAYS))).map((run) =>
    syntheticDecision('synthetic-forecast', municipioId, run, { forecast: true, createdAt: `${today}T00:00:00.000Z` }),
  );
}
