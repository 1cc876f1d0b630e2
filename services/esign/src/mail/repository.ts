import { randomUUID } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { EsignDb } from '../db';
import type { BodySealer, EmailBody } from './sealed-body';
import { emailOutbox } from './tables';

export interface OutboxEmail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  documentId?: string;
  requestId?: string;
  kind?: 'signing_link' | 'otp' | 'completion' | 'other';
  /** A stored file (its blob key) attached when the message is sent, under this name. */
  attachment?: { key: string; name: string };
}

type OutboxRow = typeof emailOutbox.$inferSelect;

/** Wiped when a message is sent or given up: nothing left in the row recovers a link or a code. */
const NO_BODY = { sealedBody: null, textBody: null, htmlBody: null };

/** The outbox repository with its body sealer, as a unit of work's factory wants it (`(db) => repository`). */
export function mailRepositoryWith(sealer: BodySealer): (db: EsignDb) => MailRepository {
  return (db) => createMailRepository(db, sealer);
}

export function createMailRepository(db: EsignDb, sealer: BodySealer) {
  return {
    /** Stores the message with its bodies encrypted (the id is made here: the ciphertext is bound to it). */
    async insert(email: OutboxEmail): Promise<string> {
      const id = randomUUID();
      const [row] = await db
        .insert(emailOutbox)
        .values({
          id,
          toAddress: email.to,
          subject: email.subject,
          sealedBody: sealer.seal({ id, to: email.to }, { text: email.text, html: email.html }),
          documentId: email.documentId,
          requestId: email.requestId,
          kind: email.kind ?? 'other',
          ...(email.attachment ? { attachmentKey: email.attachment.key, attachmentName: email.attachment.name } : {}),
        })
        .returning({ id: emailOutbox.id });
      return row!.id;
    },
    async find(id: string) {
      const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.id, id)).limit(1);
      return row ?? null;
    },
    /** The bodies of a queued row. Throws when they cannot be opened (another key) or are gone (sent or given up). */
    openBody(row: OutboxRow): EmailBody {
      if (row.sealedBody) {
        try {
          return sealer.open({ id: row.id, to: row.toAddress }, row.sealedBody);
        } catch (err) {
          throw new Error(`the email's body does not open with this instance's at-rest key (is ESIGN_AT_REST_KEY the one that queued it?): ${(err as Error).message}`);
        }
      }
      // A row queued by a version that stored plain bodies: sent as it is, then wiped.
      if (row.textBody !== null) return { text: row.textBody, html: row.htmlBody };
      throw new Error('the email has no body left (sent or given up)');
    },
    /**
     * The held link emails of these requests go, bodies and all: they will never be sent. Only
     * rows written before link emails were written at the turn's release (a waiting request's
     * email used to be written held at its creation) can still be held.
     */
    async discardHeld(requestIds: string[]): Promise<void> {
      if (requestIds.length === 0) return;
      await db.delete(emailOutbox).where(and(inArray(emailOutbox.requestId, requestIds), eq(emailOutbox.status, 'held')));
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
        .set({ status: 'sent', sentAt: at, attempts: sql`${emailOutbox.attempts} + 1`, lastError: null, ...NO_BODY })
        .where(eq(emailOutbox.id, id));
    },
    async markAttemptFailed(id: string, error: string, final: boolean): Promise<void> {
      await db
        .update(emailOutbox)
        .set({ attempts: sql`${emailOutbox.attempts} + 1`, lastError: error.slice(0, 1000), ...(final ? { status: 'failed' as const, ...NO_BODY } : {}) })
        .where(eq(emailOutbox.id, id));
    },
  };
}

export type MailRepository = ReturnType<typeof createMailRepository>;
