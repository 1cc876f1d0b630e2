import { and, count, desc, eq, isNull, lte, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { WildfireDb } from '../db';
import { alertDeliveries, alertSubscriptions, raisedAlerts, type AlertAttempt } from './tables';

export type SubscriptionRow = typeof alertSubscriptions.$inferSelect;
export type NewSubscription = Omit<typeof alertSubscriptions.$inferInsert, 'id'>;
export type RaisedAlertRow = typeof raisedAlerts.$inferSelect;
export type DeliveryRow = typeof alertDeliveries.$inferSelect;

/** An alert the triggering decided on; `raise` stores it unless the same or a higher class is already raised. */
export interface AlertCandidate {
  id: string;
  subscriptionId: string;
  accountId: string;
  municipioId: string;
  date: string;
  kind: 'observed' | 'forecast';
  dangerClass: string;
  classRank: number;
  payload: Record<string, unknown>;
  /** Its subscription has a webhook: a delivery is queued with it. */
  webhook: boolean;
}

/** A subscription that covers some of the loaded municipalities, with those it covers. */
export interface Subscriber {
  id: string;
  accountId: string;
  minClass: SubscriptionRow['minClass'];
  webhookUrl: string | null;
  /** The service disabled its webhook: alerts are raised (the CAP feed) but not sent. */
  webhookDisabled: boolean;
  /** The token that made it, whose current access bounds what it raises (null: nothing). */
  tokenId: string | null;
  hits: string[];
}

/** The alerts of a subscription the CAP feed may show: all of them, or those of these municipalities. */
export interface VisibleAlerts {
  subscriptionId: string;
  municipios: readonly string[] | null;
}

const textArray = (codes: readonly string[]) => sql`${`{${codes.join(',')}}`}::text[]`;

/** The only code that touches alert_subscriptions, raised_alerts and alert_deliveries. */
export function createAlertsRepository(db: WildfireDb) {
  return {
    /**
     * Inserts the subscription unless its account holds `max` already (null then). The
     * account's subscriptions are counted under a lock on the account, so two requests at
     * once cannot both take the last place.
     */
    async insertWithin(row: NewSubscription, max: number): Promise<SubscriptionRow | null> {
      return db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`wildfire:alert-subscriptions:${row.accountId}`}))`);
        const [held] = await tx.select({ n: count() }).from(alertSubscriptions).where(eq(alertSubscriptions.accountId, row.accountId));
        if (held!.n >= max) return null;
        const [created] = await tx.insert(alertSubscriptions).values(row).returning();
        return created!;
      });
    },

    list: (accountId: string): Promise<SubscriptionRow[]> =>
      db.select().from(alertSubscriptions).where(eq(alertSubscriptions.accountId, accountId)).orderBy(alertSubscriptions.createdAt, alertSubscriptions.id),

    /** Deletes the account's subscription with its raised alerts and deliveries (cascade); false when it has none with this id. */
    async remove(accountId: string, id: string): Promise<boolean> {
      const gone = await db
        .delete(alertSubscriptions)
        .where(and(eq(alertSubscriptions.accountId, accountId), eq(alertSubscriptions.id, id)))
        .returning({ id: alertSubscriptions.id });
      return gone.length > 0;
    },

    /** The account's subscription with this id, or null. */
    async find(accountId: string, id: string): Promise<SubscriptionRow | null> {
      const [row] = await db.select().from(alertSubscriptions).where(and(eq(alertSubscriptions.accountId, accountId), eq(alertSubscriptions.id, id)));
      return row ?? null;
    },

    /** A new current secret; the one it replaces keeps signing until `previousExpiresAt`. It re-enables a webhook the service disabled. */
    async rotate(row: Pick<SubscriptionRow, 'id' | 'secret'>, sealed: string, previousExpiresAt: Date): Promise<void> {
      await db
        .update(alertSubscriptions)
        .set({ secret: sealed, previousSecret: row.secret, previousSecretExpiresAt: previousExpiresAt, webhookDisabledAt: null, webhookDisabledReason: null })
        .where(eq(alertSubscriptions.id, row.id));
    },

    /** Stops sending to the subscription's webhook, with why; false when it was disabled already. */
    async disableWebhook(id: string, reason: string, at: Date): Promise<boolean> {
      const rows = await db
        .update(alertSubscriptions)
        .set({ webhookDisabledAt: at, webhookDisabledReason: reason })
        .where(and(eq(alertSubscriptions.id, id), isNull(alertSubscriptions.webhookDisabledAt)))
        .returning({ id: alertSubscriptions.id });
      return rows.length > 0;
    },

    /** Live subscriptions covering any of `municipios` (forecast: only those that asked for forecast days). */
    async subscribers(municipios: readonly string[], kind: 'observed' | 'forecast'): Promise<Subscriber[]> {
      if (municipios.length === 0) return [];
      const codes = textArray(municipios);
      const rows = await db
        .select({
          id: alertSubscriptions.id,
          accountId: alertSubscriptions.accountId,
          minClass: alertSubscriptions.minClass,
          webhookUrl: alertSubscriptions.webhookUrl,
          webhookDisabled: sql<boolean>`${alertSubscriptions.webhookDisabledAt} is not null`,
          tokenId: alertSubscriptions.tokenId,
          hits: sql<string[]>`array(select unnest(${alertSubscriptions.municipios}) intersect select unnest(${codes}))`,
        })
        .from(alertSubscriptions)
        .where(
          and(
            sql`${alertSubscriptions.municipios} && ${codes}`,
            eq(alertSubscriptions.tokenType, 'live'),
            kind === 'forecast' ? eq(alertSubscriptions.includeForecast, true) : undefined,
          ),
        );
      return rows;
    },

    /**
     * Stores the candidates not yet raised (none of the same subscription, municipality and
     * day at the same or a higher class) and, in the same transaction, the delivery of each
     * one whose subscription has a webhook (the outbox). Two statements whatever the number
     * of candidates. Answers the deliveries to send.
     */
    async raise(candidates: readonly AlertCandidate[], now: Date): Promise<{ raised: number; deliveries: DeliveryRow[] }> {
      if (candidates.length === 0) return { raised: 0, deliveries: [] };
      const rows = JSON.stringify(
        candidates.map((c) => ({
          id: c.id,
          subscription_id: c.subscriptionId,
          account_id: c.accountId,
          municipio_id: c.municipioId,
          date: c.date,
          kind: c.kind,
          danger_class: c.dangerClass,
          class_rank: c.classRank,
          payload: c.payload,
        })),
      );
      return db.transaction(async (tx) => {
        const inserted = await tx.execute<{ id: string; subscription_id: string }>(sql`
          insert into raised_alerts (id, subscription_id, account_id, municipio_id, date, kind, danger_class, class_rank, payload, raised_at)
          select c.id, c.subscription_id, c.account_id, c.municipio_id, c.date, c.kind, c.danger_class, c.class_rank, c.payload, ${now.toISOString()}::timestamptz
          from jsonb_to_recordset(${rows}::jsonb) as c(id uuid, subscription_id uuid, account_id uuid, municipio_id text, date date, kind text, danger_class text, class_rank integer, payload jsonb)
          where not exists (
            select 1 from raised_alerts r
            where r.subscription_id = c.subscription_id and r.municipio_id = c.municipio_id and r.date = c.date and r.class_rank >= c.class_rank
          )
          on conflict do nothing
          returning id, subscription_id`);
        const alertIds = inserted.rows.map((r) => r.id);
        const withWebhook = new Set(candidates.filter((c) => c.webhook).map((c) => c.id));
        const toDeliver = inserted.rows.filter((r) => withWebhook.has(r.id));
        const deliveries =
          toDeliver.length === 0
            ? []
            : await tx
                .insert(alertDeliveries)
                .values(toDeliver.map((r) => ({ alertId: r.id, subscriptionId: r.subscription_id, status: 'pending' as const, nextAttemptAt: now, createdAt: now })))
                .returning();
        return { raised: alertIds.length, deliveries };
      });
    },

    /** A delivery with what sending it needs: its alert's payload and its subscription's endpoint. */
    async delivery(id: string): Promise<{ delivery: DeliveryRow; alert: RaisedAlertRow; subscription: SubscriptionRow } | null> {
      const [row] = await db
        .select({ delivery: alertDeliveries, alert: raisedAlerts, subscription: alertSubscriptions })
        .from(alertDeliveries)
        .innerJoin(raisedAlerts, eq(raisedAlerts.id, alertDeliveries.alertId))
        .innerJoin(alertSubscriptions, eq(alertSubscriptions.id, alertDeliveries.subscriptionId))
        .where(eq(alertDeliveries.id, id));
      return row ?? null;
    },

    /** Records one attempt in the delivery's log and its next state; false when another attempt got there first. */
    async recordAttempt(d: Pick<DeliveryRow, 'id' | 'attempts'>, attempt: AlertAttempt, next: { status: DeliveryRow['status']; nextAttemptAt: Date | null }): Promise<boolean> {
      const updated = await db
        .update(alertDeliveries)
        .set({ ...next, attempts: d.attempts + 1, log: sql`${alertDeliveries.log} || ${JSON.stringify([attempt])}::jsonb` })
        .where(and(eq(alertDeliveries.id, d.id), eq(alertDeliveries.attempts, d.attempts)))
        .returning({ id: alertDeliveries.id });
      return updated.length > 0;
    },

    /** Open deliveries due before `before` (their job lost in a crash, or their webhook re-enabled): the sweep enqueues them again. Those of a disabled webhook wait. */
    overdue: async (before: Date, limit = 500): Promise<DeliveryRow[]> =>
      (
        await db
          .select({ delivery: alertDeliveries })
          .from(alertDeliveries)
          .innerJoin(alertSubscriptions, eq(alertSubscriptions.id, alertDeliveries.subscriptionId))
          .where(and(inArray(alertDeliveries.status, ['pending', 'failed']), lte(alertDeliveries.nextAttemptAt, before), isNull(alertSubscriptions.webhookDisabledAt)))
          .orderBy(alertDeliveries.nextAttemptAt)
          .limit(limit)
      ).map((r) => r.delivery),

    /** The account's raised alerts that `visible` allows, newest first (the CAP feed). */
    async raised(accountId: string, limit: number, visible: readonly VisibleAlerts[]): Promise<RaisedAlertRow[]> {
      if (visible.length === 0) return [];
      const allowed: SQL[] = visible.map((v) =>
        v.municipios === null
          ? eq(raisedAlerts.subscriptionId, v.subscriptionId)
          : and(eq(raisedAlerts.subscriptionId, v.subscriptionId), sql`${raisedAlerts.municipioId} = any(${textArray(v.municipios)})`)!,
      );
      return db
        .select()
        .from(raisedAlerts)
        .where(and(eq(raisedAlerts.accountId, accountId), or(...allowed)))
        .orderBy(desc(raisedAlerts.raisedAt), desc(raisedAlerts.id))
        .limit(limit);
    },

    /** The delivery log of a subscription: its newest deliveries with their alerts' municipality, day and class. */
    deliveriesOf: (subscriptionId: string, limit: number) =>
      db
        .select({ delivery: alertDeliveries, municipioId: raisedAlerts.municipioId, date: raisedAlerts.date, dangerClass: raisedAlerts.dangerClass })
        .from(alertDeliveries)
        .innerJoin(raisedAlerts, eq(raisedAlerts.id, alertDeliveries.alertId))
        .where(eq(alertDeliveries.subscriptionId, subscriptionId))
        .orderBy(desc(alertDeliveries.createdAt), desc(alertDeliveries.id))
        .limit(limit),
  };
}

export type AlertsRepository = ReturnType<typeof createAlertsRepository>;
