import { and, asc, count, eq, gte, isNotNull, or, sql } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { preparedQuery, UNNAMED } from '../db/prepared';
import { auditEvents, type AuditKind } from './tables';

export interface NewAuditEvent {
  documentId: string;
  requestId?: string | null;
  tenantId: string;
  kind: AuditKind;
  occurredAt?: Date;
  ip?: string | null;
  userAgent?: string | null;
  email?: string | null;
  documentSha256: string;
  details?: Record<string, string | number | boolean | null>;
}

export type AuditEventRow = typeof auditEvents.$inferSelect;

/** The columns an append writes, in the names its placeholders take (`<column><row>`). */
const APPENDED = ['documentId', 'requestId', 'tenantId', 'kind', 'occurredAt', 'ip', 'userAgent', 'email', 'documentSha256', 'details'] as const;
/** Appends of up to this many events at once are built once per row count (db/prepared.ts). */
const PREPARED_APPEND_ROWS = 3;

/** The only code that touches audit_events. Appends and reads; erasure's anonymisation is the one update. */
export function createAuditRepository(db: EsignDb) {
  const appends = Array.from({ length: PREPARED_APPEND_ROWS + 1 }, (_, rows) =>
    preparedQuery(db, () =>
      db
        .insert(auditEvents)
        .values(Array.from({ length: rows }, (_, i) => Object.fromEntries(APPENDED.map((c) => [c, sql.placeholder(`${c}${i}`)])) as unknown as typeof auditEvents.$inferInsert))
        .prepare(UNNAMED),
    ),
  );
  return {
    async append(...events: NewAuditEvent[]): Promise<void> {
      if (events.length === 0) return;
      const rows = events.map((e) => ({ ...e, occurredAt: e.occurredAt ?? new Date() }));
      if (rows.length > PREPARED_APPEND_ROWS) {
        await db.insert(auditEvents).values(rows);
        return;
      }
      // Absent fields go as undefined: jsonb would store `null` as a JSON null, not as SQL NULL.
      const values: Record<string, unknown> = {};
      rows.forEach((row, i) => {
        for (const c of APPENDED) values[`${c}${i}`] = row[c] ?? undefined;
      });
      await appends[rows.length]!(values);
    },

    listForDocument(documentId: string): Promise<AuditEventRow[]> {
      return db.select().from(auditEvents).where(eq(auditEvents.documentId, documentId)).orderBy(asc(auditEvents.occurredAt), asc(auditEvents.id));
    },

    async countSince(requestId: string, kind: AuditKind, since: Date): Promise<{ n: number; oldest: Date | null }> {
      const [row] = await db
        .select({ n: count(), oldest: sql<string | null>`min(${auditEvents.occurredAt})` })
        .from(auditEvents)
        .where(and(eq(auditEvents.requestId, requestId), eq(auditEvents.kind, kind), gte(auditEvents.occurredAt, since)));
      return { n: row?.n ?? 0, oldest: row?.oldest ? new Date(row.oldest) : null };
    },

    async has(requestId: string, kind: AuditKind): Promise<boolean> {
      const [row] = await db
        .select({ id: auditEvents.id })
        .from(auditEvents)
        .where(and(eq(auditEvents.requestId, requestId), eq(auditEvents.kind, kind)))
        .limit(1);
      return Boolean(row);
    },

    /** Erasure: ip, user agent and email become `[suprimido]`; everything else (hashes, times) stays. */
    async anonymiseDocument(documentId: string): Promise<number> {
      const rows = await db
        .update(auditEvents)
        .set({
          ip: sql`case when ${auditEvents.ip} is null then null else '[suprimido]' end`,
          userAgent: sql`case when ${auditEvents.userAgent} is null then null else '[suprimido]' end`,
          email: sql`case when ${auditEvents.email} is null then null else '[suprimido]' end`,
        })
        .where(
          and(
            eq(auditEvents.documentId, documentId),
            or(isNotNull(auditEvents.ip), isNotNull(auditEvents.userAgent), isNotNull(auditEvents.email)),
          ),
        )
        .returning({ id: auditEvents.id });
      return rows.length;
    },

    /** Wrong codes and verified codes in all: the OTP failure rate (administration). */
    async otpOutcomes(): Promise<{ failed: number; verified: number }> {
      const [row] = await db
        .select({
          failed: sql<number>`(count(*) filter (where ${auditEvents.kind} = 'otp_failed'))::int`,
          verified: sql<number>`(count(*) filter (where ${auditEvents.kind} = 'otp_verified'))::int`,
        })
        .from(auditEvents);
      return { failed: row?.failed ?? 0, verified: row?.verified ?? 0 };
    },
  };
}

export type AuditRepository = ReturnType<typeof createAuditRepository>;
