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

/**
 * A deep copy of a row (or of the tables), as a database answers one: changing it changes
 * nothing stored. Written out rather than `structuredClone`, whose dates come from another
 * realm than the test's under jest (`instanceof Date` would fail on them).
 */
export function copy<T>(value: T): T {
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (Buffer.isBuffer(value)) return Buffer.from(value) as T;
  if (Array.isArray(value)) return value.map(copy) as T;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)])) as T;
  return value;
}

/** A method the signing flow never calls: the fake says so instead of guessing an answer. */
export function notFaked(method: string): never {
  throw new Error(`${method} is not faked: test it against Postgres (an integration test, *.test.ts)`);
}
