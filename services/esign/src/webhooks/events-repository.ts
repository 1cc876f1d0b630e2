import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { preparedQuery, UNNAMED } from '../db/prepared';
import type { WebhookEventType } from './event-types';
import { webhookEvents } from './tables';

export type WebhookEventRow = typeof webhookEvents.$inferSelect;
export type EventData = Record<string, string | number | boolean | null>;
/** An outbox row as its fan-out needs it: what `append` answers, so the fan-out does not read it again. */
export type OutboxEvent = Pick<WebhookEventRow, 'id' | 'seq' | 'tenantId' | 'documentId' | 'type'>;

export interface NewWebhookEvent {
  tenantId: string;
  documentId: string | null;
  type: WebhookEventType;
  occurredAt: Date;
  data: EventData;
}

/**
 * The webhook outbox (webhook_events). Other features append to it inside their own
 * transactions (it is in their unit of work), then enqueue `webhook.dispatch` with the
 * returned ids after commit; the recovery sweep finds rows whose job was lost.
 */
const outboxColumns = { id: webhookEvents.id, seq: webhookEvents.seq, tenantId: webhookEvents.tenantId, documentId: webhookEvents.documentId, type: webhookEvents.type };

export function createWebhookEventsRepository(db: EsignDb) {
  // Every webhook.dispatch reads its event and marks it: built once (db/prepared.ts).
  const byId = preparedQuery(db, () => db.select().from(webhookEvents).where(eq(webhookEvents.id, sql.placeholder('id'))).limit(1).prepare(UNNAMED));
  // One event per write transaction is the common case (confirmation, view): built once.
  const appendOne = preparedQuery(db, () =>
    db
      .insert(webhookEvents)
      .values({
        tenantId: sql.placeholder('tenantId'),
        documentId: sql.placeholder('documentId'),
        type: sql.placeholder('type'),
        occurredAt: sql.placeholder('occurredAt'),
        data: sql.placeholder('data'),
      })
      .returning(outboxColumns)
      .prepare(UNNAMED),
  );
  const dispatched = preparedQuery(db, () =>
    db
      .update(webhookEvents)
      .set({ dispatchedAt: sql`${sql.placeholder('at')}::timestamptz` })
      .where(eq(webhookEvents.id, sql.placeholder('id')))
      .prepare(UNNAMED),
  );
  return {
    async append(...events: NewWebhookEvent[]): Promise<OutboxEvent[]> {
      if (events.length === 0) return [];
      const [one] = events;
      return events.length === 1 ? await appendOne({ ...one }) : await db.insert(webhookEvents).values(events).returning(outboxColumns);
    },

    async find(id: string): Promise<WebhookEventRow | null> {
      const [row] = await byId({ id });
      return row ?? null;
    },

    async findBySeq(seq: number): Promise<WebhookEventRow | null> {
      const [row] = await db.select().from(webhookEvents).where(eq(webhookEvents.seq, seq)).limit(1);
      return row ?? null;
    },

    async markDispatched(id: string, at: Date): Promise<void> {
      await dispatched({ id, at: at.toISOString() });
    },

    /** Whether an event of the document earlier than `seq` has not been fanned out yet. */
    async undispatchedBefore(documentId: string, seq: number): Promise<boolean> {
      const [row] = await db
        .select({ seq: webhookEvents.seq })
        .from(webhookEvents)
        .where(and(eq(webhookEvents.documentId, documentId), lt(webhookEvents.seq, seq), isNull(webhookEvents.dispatchedAt)))
        .limit(1);
      return Boolean(row);
    },

    /** Whether the document was erased (its `document_erased` event exists). */
    async documentErased(documentId: string): Promise<boolean> {
      const [row] = await db
        .select({ seq: webhookEvents.seq })
        .from(webhookEvents)
        .where(and(eq(webhookEvents.documentId, documentId), eq(webhookEvents.type, 'document_erased')))
        .limit(1);
      return Boolean(row);
    },

    /** Events not fanned out and older than `before` (their dispatch job was lost). */
    async undispatchedIds(before: Date): Promise<string[]> {
      const rows = await db
        .select({ id: webhookEvents.id })
        .from(webhookEvents)
        .where(and(isNull(webhookEvents.dispatchedAt), lt(webhookEvents.occurredAt, before)))
        .orderBy(asc(webhookEvents.seq));
      return rows.map((r) => r.id);
    },

    /** Tenant erasure: every event of the tenant (after its deliveries, which reference them). */
    async removeAllOfTenant(tenantId: string): Promise<number> {
      const rows = await db.delete(webhookEvents).where(eq(webhookEvents.tenantId, tenantId)).returning({ seq: webhookEvents.seq });
      return rows.length;
    },

    /** Erasure: the signee's address, and a decline's reason, leave every stored payload of the document's events. */
    async anonymiseDocument(documentId: string): Promise<number> {
      const withoutEmail = sql`case when ${webhookEvents.data} ? 'signee_email' then jsonb_set(${webhookEvents.data}, '{signee_email}', '"[suprimido]"') else ${webhookEvents.data} end`;
      const rows = await db
        .update(webhookEvents)
        .set({ data: sql`case when ${webhookEvents.type} = 'request_declined' then jsonb_set(${withoutEmail}, '{reason}', '"[suprimido]"') else ${withoutEmail} end` })
        .where(eq(webhookEvents.documentId, documentId))
        .returning({ seq: webhookEvents.seq });
      return rows.length;
    },
  };
}

export type WebhookEventsRepository = ReturnType<typeof createWebhookEventsRepository>;
