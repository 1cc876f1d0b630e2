import { asc, eq } from 'drizzle-orm';
import type { Database } from '@firma-riesgo/service-kit';
import type { schema } from '../db';
import { forecastDays, forecastRuns } from './tables';

type WildfireDatabase = Pick<Database<typeof schema>, 'db'>;
/** The transaction `replace` runs in, for work that must commit with the forecast (its automatic decisions). */
export type ForecastTransaction = Parameters<Parameters<Database<typeof schema>['db']['transaction']>[0]>[0];
export type ForecastDayRow = typeof forecastDays.$inferSelect;
export type ForecastRun = typeof forecastRuns.$inferSelect;

export function createForecastRepository(database: WildfireDatabase) {
  const { db } = database;
  return {
    /** The stored forecast of a municipality, in date order. */
    days: (municipioId: string): Promise<ForecastDayRow[]> => db.select().from(forecastDays).where(eq(forecastDays.municipioId, municipioId)).orderBy(asc(forecastDays.date)),

    async run(issuedOn: string): Promise<ForecastRun | null> {
      const [row] = await db.select().from(forecastRuns).where(eq(forecastRuns.issuedOn, issuedOn));
      return row ?? null;
    },

    /** The day's run, started now unless one exists (then it is resumed). */
    async startRun(issuedOn: string, total: number, at: Date): Promise<ForecastRun> {
      await db.insert(forecastRuns).values({ issuedOn, startedAt: at, total, done: 0, cursor: null }).onConflictDoNothing();
      const [row] = await db.select().from(forecastRuns).where(eq(forecastRuns.issuedOn, issuedOn));
      return row!;
    },

    async finishRun(issuedOn: string, at: Date): Promise<void> {
      await db.update(forecastRuns).set({ finishedAt: at }).where(eq(forecastRuns.issuedOn, issuedOn));
    },

    /**
     * Replaces a municipality's forecast and, for a run, moves its cursor past it, in one
     * transaction with `alongside` (the forecast's automatic decisions): a run stopped at
     * any point leaves whole forecasts, their decisions and a cursor that agrees.
     */
    async replace(
      municipioId: string,
      rows: readonly Omit<ForecastDayRow, 'municipioId'>[],
      run: { issuedOn: string; cursor: string } | null,
      alongside?: (tx: ForecastTransaction) => Promise<unknown>,
    ): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.delete(forecastDays).where(eq(forecastDays.municipioId, municipioId));
        if (rows.length > 0) await tx.insert(forecastDays).values(rows.map((r) => ({ ...r, municipioId })));
        if (alongside) await alongside(tx);
        if (run) {
          const [current] = await tx.select().from(forecastRuns).where(eq(forecastRuns.issuedOn, run.issuedOn)).for('update');
          if (current) await tx.update(forecastRuns).set({ cursor: run.cursor, done: current.done + 1 }).where(eq(forecastRuns.issuedOn, run.issuedOn));
        }
      });
    },
  };
}

export type ForecastRepository = ReturnType<typeof createForecastRepository>;
