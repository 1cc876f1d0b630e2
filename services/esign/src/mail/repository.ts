import { and, eq, lt, sql } from 'drizzle-orm';
import type { EsignDb } from '../db';
import { emailOutbox } from './tables';

export interface OutboxEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  documentId?: string;
  requestId?: string;
  kind?: 'signing_link' | 'otp' | 'other';
}

export function createMailRepository(db: EsignDb) {
  return {
    async insert(email: OutboxEmail): Promise<string> {
      const [row] = await db
        .insert(emailOutbox)
        .values({
          toAddress: email.to,
          subject: email.subject,
          textBody: email.text,
          htmlBody: email.html,
          documentId: email.documentId,
          requestId: email.requestId,
          kind: email.kind ?? 'other',
        })
        .returning({ id: emailOutbox.id });
      return row!.id;
    },
    async find(id: string) {
      const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).limit(1);
      return row ?? null;
    },
    async queuedIdsCreatedBefore(before: Date): Promise<string[]> {
      const rows = await db
        .select({ id: emailOutbox.id })
        .from(emailOutbox)
        .where(and(eq(emailOutbox.status, 'queued'), lt(emailOutbox.createdAt, before)));
      return rows.map((r) => r.id);
    },
    /** Erasure: the messages about a document go, addresses and bodies with them. Answers their ids (their .eml files go too). */
    async deleteForDocument(documentId: string): Promise<string[]> {
      const rows = await db.delete(emailOutbox).where(eq(emailOutbox.documentId, documentId)).returning({ id: emailOutbox.id });
      return rows.map((r) => r.id);
    },
    async markSent(id: string, at: Date): Promise<void> {
      await db
        .update(emailOutbox)
        .set({ status: 'sent', sentAt: at, attempts: sql`${emailOutbox.attempts} + 1`, lastError: null })
        .where(eq(emailOutbox.id, id));
    },
    async markAttemptFailed(id: string, error: string, final: boolean): Promise<void> {
      await db
        .update(emailOutbox)
        .set({ attempts: sql`${emailOutbox.attempts} + 1`, lastError: error.slice(0, 1000), ...(final ? { status: 'failed' as const } : {}) })
        .where(eq(emailOutbox.id, id));
    },
  };
}

export type MailRepository = ReturnType<typeof createMailRepository>;
