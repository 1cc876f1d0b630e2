import { and, eq, sql } from 'drizzle-orm';
import type { WildfireDb } from '../db';
import { accountUsage } from './tables';

/** Requests counted for one account and month that are not yet in `account_usage`. */
export interface UsageDelta {
  accountId: string;
  month: string;
  requests: number;
}

/** The only code that touches the account_usage table. */
export function createUsageRepository(db: WildfireDb) {
  return {
    /**
     * Adds each delta to its account's month in one statement (a flush of the usage
     * counters). Adding, never setting, is what lets several instances flush without
     * coordinating: each delta is handed to exactly one flusher.
     */
    async addRequests(deltas: readonly UsageDelta[], at: Date): Promise<void> {
      if (deltas.length === 0) return;
      await db
        .insert(accountUsage)
        .values(deltas.map((d) => ({ accountId: d.accountId, month: d.month, requests: d.requests, updatedAt: at })))
        .onConflictDoUpdate({
          target: [accountUsage.accountId, accountUsage.month],
          set: { requests: sql`${accountUsage.requests} + excluded.requests`, updatedAt: at },
        });
    },

    /** The requests flushed for the account's month. */
    async requests(accountId: string, month: string): Promise<number> {
      const [row] = await db
        .select({ requests: accountUsage.requests })
        .from(accountUsage)
        .where(and(eq(accountUsage.accountId, accountId), eq(accountUsage.month, month)));
      return row?.requests ?? 0;
    },
  };
}

export type UsageRepository = ReturnType<typeof createUsageRepository>;
