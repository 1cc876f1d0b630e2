import type { AuditEventRow } from '../../audit/repository';
import type { documents } from '../../documents/tables';
import type { emailOutbox } from '../../mail/tables';
import type { SigningRequestRow } from '../../signing-requests/repository';
import type { WebhookEventRow } from '../../webhooks/events-repository';

/**
 * The rows the fake repositories keep, one array per table. Every fake of one test shares
 * one `FakeTables`, as the real repositories share one database: a document's status is
 * computed from the requests the fake signing-requests repository wrote. A test may read
 * them to assert what was stored, and the fake unit of work snapshots them to roll back.
 */
export interface FakeTables {
  requests: SigningRequestRow[];
  documents: (typeof documents.$inferSelect)[];
  audit: AuditEventRow[];
  webhookEvents: WebhookEventRow[];
  meter: { tenant: string; day: string; counter: string; value: number }[];
  mail: (typeof emailOutbox.$inferSelect)[];
}

export function createFakeTables(): FakeTables {
  return { requests: [], documents: [], audit: [], webhookEvents: [], meter: [], mail: [] };
}

/** A copy of a row, as a database answers one: changing it changes nothing stored. */
export const copy = <T>(row: T): T => structuredClone(row);

/** A method the signing flow never calls: the fake says so instead of guessing an answer. */
export function notFaked(method: string): never {
  throw new Error(`${method} is not faked: test it against Postgres (an integration test, *.test.ts)`);
}
