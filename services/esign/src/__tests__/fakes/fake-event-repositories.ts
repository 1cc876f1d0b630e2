import { randomUUID } from 'node:crypto';
import type { AuditRepository } from '../../audit/repository';
import type { MeterRepository } from '../../metering/repository';
import type { WebhookEventsRepository } from '../../webhooks/events-repository';
import { copy, notFaked, type FakeTables } from './fake-tables';

/**
 * In-memory stand-ins for the tables a signing event is written to (signing-events/record-event.ts
 * `SigningEventRepos`): audit rows, webhook outbox rows and meter counters, over `tables`.
 */
export function createFakeAuditRepository(tables: FakeTables): AuditRepository {
  const rows = tables.audit;
  return {
    async append(...events) {
      for (const e of events) {
        rows.push({
          id: rows.length + 1,
          documentId: e.documentId,
          requestId: e.requestId ?? null,
          tenantId: e.tenantId,
          kind: e.kind,
          occurredAt: e.occurredAt ?? new Date(),
          ip: e.ip ?? null,
          userAgent: e.userAgent ?? null,
          email: e.email ?? null,
          documentSha256: e.documentSha256,
          details: e.details ?? null,
        });
      }
    },
    async listForDocument(documentId) {
      return rows.filter((r) => r.documentId === documentId).sort((a, b) => a.occurredAt.getTime() - b.occurredAt.getTime() || a.id - b.id).map(copy);
    },
    async countSince(requestId, kind, since) {
      const matching = rows.filter((r) => r.requestId === requestId && r.kind === kind && r.occurredAt >= since);
      const oldest = matching.reduce<Date | null>((min, r) => (!min || r.occurredAt < min ? r.occurredAt : min), null);
      return { n: matching.length, oldest };
    },
    async has(requestId, kind) {
      return rows.some((r) => r.requestId === requestId && r.kind === kind);
    },
    async anonymiseDocument(documentId) {
      const mine = rows.filter((r) => r.documentId === documentId && (r.ip !== null || r.userAgent !== null || r.email !== null));
      const gone = (v: string | null) => (v === null ? null : '[suprimido]');
      for (const r of mine) Object.assign(r, { ip: gone(r.ip), userAgent: gone(r.userAgent), email: gone(r.email) });
      return mine.length;
    },
    async otpOutcomes() {
      return { failed: rows.filter((r) => r.kind === 'otp_failed').length, verified: rows.filter((r) => r.kind === 'otp_verified').length };
    },
  };
}

export function createFakeWebhookEventsRepository(tables: FakeTables): WebhookEventsRepository {
  const rows = tables.webhookEvents;
  return {
    async append(...events) {
      return events.map((e) => {
        const row = { seq: rows.length + 1, id: randomUUID(), tenantId: e.tenantId, documentId: e.documentId, type: e.type, data: e.data, occurredAt: e.occurredAt, dispatchedAt: null };
        rows.push(row);
        return row.id;
      });
    },
    async find(id) {
      const row = rows.find((r) => r.id === id);
      return row ? copy(row) : null;
    },
    async findBySeq(seq) {
      const row = rows.find((r) => r.seq === seq);
      return row ? copy(row) : null;
    },
    async markDispatched(id, at) {
      const row = rows.find((r) => r.id === id);
      if (row) row.dispatchedAt = at;
    },
    undispatchedBefore: () => notFaked('webhook events undispatchedBefore'),
    documentErased: () => notFaked('webhook events documentErased'),
    undispatchedIds: () => notFaked('webhook events undispatchedIds'),
    removeAllOfTenant: () => notFaked('webhook events removeAllOfTenant'),
    anonymiseDocument: () => notFaked('webhook events anonymiseDocument'),
  };
}

export function createFakeMeterRepository(tables: FakeTables): MeterRepository {
  const rows = tables.meter;
  return {
    async add(tenant, day, counter, by = 1) {
      if (by === 0) return;
      const row = rows.find((r) => r.tenant === tenant && r.day === day && r.counter === counter);
      if (row) row.value += by;
      else rows.push({ tenant, day, counter, value: by });
    },
    attributeToName: () => notFaked('meter attributeToName'),
    async rows(options) {
      return rows
        .filter((r) => (!options.tenant || r.tenant === options.tenant) && (!options.from || r.day >= options.from) && (!options.to || r.day <= options.to))
        .sort((a, b) => a.tenant.localeCompare(b.tenant) || a.day.localeCompare(b.day))
        .map(copy);
    },
    async storageAt(tenant, day) {
      return rows.filter((r) => r.tenant === tenant && r.counter === 'storage_delta' && r.day <= day).reduce((sum, r) => sum + r.value, 0);
    },
  };
}
