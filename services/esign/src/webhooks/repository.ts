import { and, asc, desc, eq, isNotNull, or, sql } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { preparedQuery, UNNAMED } from '../db/prepared';
import type { WebhookEventType } from './event-types';
import { webhookDisablements, webhooks } from './tables';

export type WebhookRow = typeof webhooks.$inferSelect;

/** The only code that touches the webhooks and webhook_disablements tables. */
export function createWebhooksRepository(db: EsignDb) {
  // Every webhook.dispatch asks for the subscribers: built once (db/prepared.ts).
  const subscribersOf = preparedQuery(db, () =>
    db
      .select()
      .from(webhooks)
      .where(and(eq(webhooks.tenantId, sql.placeholder('tenantId')), eq(webhooks.active, true), sql`(${webhooks.events} is null or ${sql.placeholder('type')} = any(${webhooks.events}))`))
      .prepare(UNNAMED),
  );
  return {
    async insert(values: typeof webhooks.$inferInsert): Promise<WebhookRow> {
      const [row] = await db.insert(webhooks).values(values).returning();
      return row!;
    },

    async find(id: string): Promise<WebhookRow | null> {
      const [row] = await db.select().from(webhooks).where(eq(webhooks.id, id)).limit(1);
      return row ?? null;
    },

    listForTenant(tenantId: string): Promise<WebhookRow[]> {
      return db.select().from(webhooks).where(eq(webhooks.tenantId, tenantId)).orderBy(desc(webhooks.createdAt), desc(webhooks.id));
    },

    /** Active endpoints of the tenant subscribed to `type` (no list means every type). */
    subscribers(tenantId: string, type: WebhookEventType): Promise<WebhookRow[]> {
      return subscribersOf({ tenantId, type });
    },

    /** Endpoints failing now, or disabled by the service (administration). */
    failing(limit: number): Promise<WebhookRow[]> {
      return db
        .select()
        .from(webhooks)
        .where(or(isNotNull(webhooks.failingSince), and(eq(webhooks.active, false), isNotNull(webhooks.disabledReason))))
        .orderBy(asc(webhooks.failingSince))
        .limit(limit);
    },

    async update(id: string, patch: Partial<typeof webhooks.$inferInsert>): Promise<WebhookRow | null> {
      const [row] = await db.update(webhooks).set(patch).where(eq(webhooks.id, id)).returning();
      return row ?? null;
    },

    async remove(id: string): Promise<void> {
      await db.delete(webhooks).where(eq(webhooks.id, id));
    },

    /** Tenant erasure: every endpoint of the tenant (its deliveries and attempts go with it, by cascade) and its disablement records. */
    async removeAllOfTenant(tenantId: string): Promise<number> {
      const rows = await db.delete(webhooks).where(eq(webhooks.tenantId, tenantId)).returning({ id: webhooks.id });
      await db.delete(webhookDisablements).where(eq(webhookDisablements.tenantId, tenantId));
      return rows.length;
    },

    /** The endpoint failed, if it had not been failing yet: from when. */
    async markFailing(id: string, at: Date): Promise<Date> {
      const [row] = await db
        .update(webhooks)
        .set({ failingSince: sql`coalesce(${webhooks.failingSince}, ${at.toISOString()}::timestamptz)` })
        .where(eq(webhooks.id, id))
        .returning({ since: webhooks.failingSince });
      return row?.since ?? at;
    },

    async markHealthy(id: string): Promise<void> {
      await db.update(webhooks).set({ failingSince: null }).where(eq(webhooks.id, id));
    },

    /** Disables the endpoint with a reason, and records it for the admin views. */
    async disable(row: Pick<WebhookRow, 'id' | 'tenantId'>, reason: string, at: Date): Promise<void> {
      await db.update(webhooks).set({ active: false, disabledReason: reason, updatedAt: at }).where(eq(webhooks.id, row.id));
      await db.insert(webhookDisablements).values({ webhookId: row.id, tenantId: row.tenantId, reason, at });
    },
  };
}

export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;
