import { randomUUID } from 'node:crypto';
import type { MailRepository } from '../../mail/repository';
import { copy, type FakeTables } from './fake-tables';

/**
 * In-memory email outbox (mail/repository.ts), over `tables.mail`. The bodies are kept in
 * plain text (the legacy columns) instead of sealed under the at-rest key: a test reads the
 * code from them as it would from the sent message.
 */
export function createFakeMailRepository(tables: FakeTables): MailRepository {
  const rows = tables.mail;
  const byId = (id: string) => rows.find((r) => r.id === id);
  return {
    async insert(email) {
      const id = randomUUID();
      rows.push({
        id,
        toAddress: email.to,
        subject: email.subject,
        sealedBody: null,
        textBody: email.text,
        htmlBody: email.html ?? null,
        documentId: email.documentId ?? null,
        requestId: email.requestId ?? null,
        kind: email.kind ?? 'other',
        status: 'queued',
        attachmentKey: email.attachment?.key ?? null,
        attachmentName: email.attachment?.name ?? null,
        attempts: 0,
        lastError: null,
        createdAt: new Date(),
        sentAt: null,
      });
      return id;
    },
    async find(id) {
      const row = byId(id);
      return row ? copy(row) : null;
    },
    openBody(row) {
      if (row.textBody !== null) return { text: row.textBody, html: row.htmlBody };
      throw new Error('the email has no body left (sent or given up)');
    },
    async discardHeld(requestIds) {
      rows.splice(0, rows.length, ...rows.filter((r) => !(r.status === 'held' && r.requestId !== null && requestIds.includes(r.requestId))));
    },
    async queuedIdsCreatedBefore(before) {
      return rows.filter((r) => r.status === 'queued' && r.createdAt < before).map((r) => r.id);
    },
    async deleteForDocument(documentId) {
      const gone = rows.filter((r) => r.documentId === documentId).map((r) => r.id);
      rows.splice(0, rows.length, ...rows.filter((r) => r.documentId !== documentId));
      return gone;
    },
    async markSent(id, at) {
      const row = byId(id);
      if (row) Object.assign(row, { status: 'sent', sentAt: at, attempts: row.attempts + 1, lastError: null, sealedBody: null, textBody: null, htmlBody: null });
    },
    async markAttemptFailed(id, error, final) {
      const row = byId(id);
      if (row) Object.assign(row, { attempts: row.attempts + 1, lastError: error.slice(0, 1000), ...(final ? { status: 'failed', sealedBody: null, textBody: null, htmlBody: null } : {}) });
    },
  };
}
