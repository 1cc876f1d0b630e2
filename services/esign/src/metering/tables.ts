import { bigint, date, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/** What is counted for billing, per tenant and day (METERING_TIMEZONE, UTC by default). */
export const METER_COUNTERS = [
  'documents_uploaded',
  'requests_created',
  'emails_sent',
  'otps_sent',
  'signatures_completed',
  'documents_completed',
  'documents_erased',
  'tool_calls',
  'webhook_deliveries',
] as const;
export type MeterCounter = (typeof METER_COUNTERS)[number];

/**
 * One row per tenant (its id; an erased tenant's name, so counters outlive its data, keys and row), day and
 * counter. Incremented in the same transaction as the event it counts. `storage_delta`
 * is the day's net change of stored bytes; storage at the end of a day is the running sum.
 * No personal data: erasure leaves it as it is.
 */
export const meterDaily = pgTable(
  'meter_daily',
  {
    tenant: text('tenant').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    counter: text('counter').notNull(),
    value: bigint('value', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenant, t.day, t.counter] })],
);
