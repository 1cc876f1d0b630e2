import { and, asc, eq, gte, lte, sql } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { preparedQuery, UNNAMED } from '../db/prepared';
import { meterDaily, type MeterCounter } from './tables';

export type MeterKey = MeterCounter | 'storage_delta';

/** Where calls without a key are counted (PDF tools). */
export const ANONYMOUS_TENANT = 'anonymous';

/** The only code that touches meter_daily. */
export function createMeterRepository(db: EsignDb) {
  // Counted in most write transactions: built once (db/prepared.ts).
  const increment = preparedQuery(db, () =>
    db
      .insert(meterDaily)
      .values({ tenant: sql.placeholder('tenant'), day: sql.placeholder('day'), counter: sql.placeholder('counter'), value: sql.placeholder('by') })
      .onConflictDoUpdate({ target: [meterDaily.tenant, meterDaily.day, meterDaily.counter], set: { value: sql`${meterDaily.value} + ${sql.placeholder('by')}` } })
      .prepare(UNNAMED),
  );
  return {
    /** Adds `by` to the tenant's counter for `day` (in the caller's transaction, when it has one). */
    async add(tenant: string, day: string, counter: MeterKey, by = 1): Promise<void> {
      if (by === 0) return;
      await increment({ tenant, day, counter, by });
    },

    /**
     * Tenant erasure: the tenant's counters move from its id (whose row is deleted) to its
     * name, added to any an earlier erased tenant of that name left, so billing still finds them.
     */
    async attributeToName(tenantId: string, name: string): Promise<void> {
      await db.execute(sql`
        with moved as (delete from ${meterDaily} where ${meterDaily.tenant} = ${tenantId} returning day, counter, value)
        insert into ${meterDaily} (tenant, day, counter, value)
        select ${name}, day, counter, value from moved
        on conflict (tenant, day, counter) do update set value = ${meterDaily}.value + excluded.value`);
    },

    /** Every row between the days (inclusive), optionally one tenant's. */
    rows(options: { tenant?: string; from?: string; to?: string }): Promise<{ tenant: string; day: string; counter: string; value: number }[]> {
      return db
        .select()
        .from(meterDaily)
        .where(
          and(
            options.tenant ? eq(meterDaily.tenant, options.tenant) : undefined,
            options.from ? gte(meterDaily.day, options.from) : undefined,
            options.to ? lte(meterDaily.day, options.to) : undefined,
          ),
        )
        .orderBy(asc(meterDaily.tenant), asc(meterDaily.day));
    },

    /** The storage change of the tenant up to (and including) `day`: the bytes stored at its end. */
    async storageAt(tenant: string, day: string): Promise<number> {
      const [row] = await db
        .select({ total: sql<string | null>`sum(${meterDaily.value})` })
        .from(meterDaily)
        .where(and(eq(meterDaily.tenant, tenant), eq(meterDaily.counter, 'storage_delta'), lte(meterDaily.day, day)));
      return Number(row?.total ?? 0);
    },
  };
}

export type MeterRepository = ReturnType<typeof createMeterRepository>;
