import { and, eq, lt, sql } from 'drizzle-orm';
import type { WildfireDb } from '../db';
import { accountUsage } from './tables';

/** The only code that touches the account_usage table. */
export function createUsageRepository(db: WildfireDb) {
  return {
    /**
     * Counts one request for the account's month and returns the new total; null
     * when `quota` is already spent (nothing is counted then). One statement, so
     * concurrent instances can neither lose an increment nor overshoot the quota.
     */
    async countRequest(accountId: string, month: string, quota: number | null, at: Date): Promise<number | null> {
      const [row] = await db
        .insert(accountUsage)
        .values({ accountId, month, requests: 1, updatedAt: at })
        .onConflictDoUpdate({
          target: [accountUsage.accountId, accountUsage.month],
          set: { requests: sql`${accountUsage.requests} + 1`, updatedAt: at },
          setWhere: quota === null ? undefined : lt(accountUsage.requests, quota),
        })
        .returning({ requests: accountUsage.requests });
      return row?.requests ?? null;
    },

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
