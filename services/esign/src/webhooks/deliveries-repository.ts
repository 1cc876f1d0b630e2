import { and, asc, count, desc, eq, inArray, lt, lte, sql } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { webhookAttempts, webhookDeliveries, type DeliveryStatus } from './tables';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof webhookAttempts.$inferSelect;

/** The only code that touches webhook_deliveries and webhook_attempts. */
export function createWebhookDeliveriesRepository(db: EsignDb) {
  return {
    /** One delivery per endpoint and event; a repeated fan-out finds the existing ones. */
    async createMany(rows: { webhookId: string; eventSeq: number; tenantId: string; documentId: string | null; nextAttemptAt: Date }[]): Promise<DeliveryRow[]> {
      if (rows.length === 0) return [];
      await db.insert(webhookDeliveries).values(rows).onConflictDoNothing();
      return db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.eventSeq, rows[0]!.eventSeq), inArray(webhookDeliveries.webhookId, rows.map((r) => r.webhookId))));
    },

    async find(id: string): Promise<DeliveryRow | null> {
      const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).limit(1);
      return row ?? null;
    },

    /** Locks the delivery for one attempt: two jobs for it never send at once. */
    async lock(id: string): Promise<DeliveryRow | null> {
      const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)).for('update', { skipLocked: true }).limit(1);
      return row ?? null;
    },

    /** Whether an earlier event of the same document is still on its way to this endpoint (order per document). */
    async earlierOpen(delivery: Pick<DeliveryRow, 'webhookId' | 'documentId' | 'eventSeq'>): Promise<boolean> {
      if (!delivery.documentId) return false;
      const [row] = await db
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.webhookId, delivery.webhookId),
            eq(webhookDeliveries.documentId, delivery.documentId),
            lt(webhookDeliveries.eventSeq, delivery.eventSeq),
            inArray(webhookDeliveries.status, ['pending', 'failed']),
          ),
        )
        .limit(1);
      return Boolean(row);
    },

    /** The next open delivery of the document to the endpoint, once the one before it is done. */
    async nextOpen(webhookId: string, documentId: string): Promise<DeliveryRow | null> {
      const [row] = await db
        .select()
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.webhookId, webhookId), eq(webhookDeliveries.documentId, documentId), inArray(webhookDeliveries.status, ['pending', 'failed'])))
        .orderBy(asc(webhookDeliveries.eventSeq))
        .limit(1);
      return row ?? null;
    },

    async recordAttempt(
      delivery: DeliveryRow,
      attempt: { attemptedAt: Date; statusCode: number | null; error: string | null; durationMs: number; responseBody: string | null },
      next: { status: DeliveryStatus; nextAttemptAt: Date | null },
    ): Promise<void> {
      await db.insert(webhookAttempts).values({ deliveryId: delivery.id, ...attempt });
      await db
        .update(webhookDeliveries)
        .set({ status: next.status, nextAttemptAt: next.nextAttemptAt, attempts: sql`${webhookDeliveries.attempts} + 1`, updatedAt: attempt.attemptedAt })
        .where(eq(webhookDeliveries.id, delivery.id));
    },

    /** A manual retry: the delivery is open again, due now, with the same webhook-id. */
    async reopen(id: string, at: Date): Promise<void> {
      await db.update(webhookDeliveries).set({ status: 'pending', nextAttemptAt: at, updatedAt: at }).where(eq(webhookDeliveries.id, id));
    },

    /** Open deliveries due before `before`: their job was lost (crash, Redis lost). */
    async overdue(before: Date): Promise<DeliveryRow[]> {
      return db
        .select()
        .from(webhookDeliveries)
        .where(and(inArray(webhookDeliveries.status, ['pending', 'failed']), lte(webhookDeliveries.nextAttemptAt, before)))
        .orderBy(asc(webhookDeliveries.eventSeq));
    },

    /** The endpoint's delivery log, newest first, with every attempt. */
    async page(webhookId: string, options: { limit: number; offset: number }): Promise<{ rows: (DeliveryRow & { attemptRows: AttemptRow[] })[]; total: number }> {
      const [rows, [total]] = await Promise.all([
        db.select().from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)).orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.eventSeq)).limit(options.limit).offset(options.offset),
        db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.webhookId, webhookId)),
      ]);
      const attempts = rows.length
        ? await db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, rows.map((r) => r.id))).orderBy(asc(webhookAttempts.attemptedAt), asc(webhookAttempts.id))
        : [];
      return { rows: rows.map((r) => ({ ...r, attemptRows: attempts.filter((a) => a.deliveryId === r.id) })), total: total?.n ?? 0 };
    },

    /** Deliveries by status (administration: the webhook success rate). */
    async countsByStatus(): Promise<Record<string, number>> {
      const rows = await db.select({ status: webhookDeliveries.status, n: sql<number>`count(*)::int` }).from(webhookDeliveries).groupBy(webhookDeliveries.status);
      return Object.fromEntries(rows.map((r) => [r.status, r.n]));
    },

    /** Tenant erasure: every delivery of the tenant left (with its attempts, by cascade). */
    async removeAllOfTenant(tenantId: string): Promise<number> {
      const rows = await db.delete(webhookDeliveries).where(eq(webhookDeliveries.tenantId, tenantId)).returning({ id: webhookDeliveries.id });
      return rows.length;
    },

    /** Erasure: what receivers answered about the document's events may quote personal data. */
    async scrubDocument(documentId: string): Promise<void> {
      await db
        .update(webhookAttempts)
        .set({ responseBody: null })
        .where(inArray(webhookAttempts.deliveryId, db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(eq(webhookDeliveries.documentId, documentId))));
    },
  };
}

export type WebhookDeliveriesRepository = ReturnType<typeof createWebhookDeliveriesRepository>;
