import type { AuditRepository } from '../audit/repository';
import type { MeterKey, MeterRepository } from '../metering/repository';
import type { WebhookEventsRepository } from '../webhooks/events-repository';
import { SIGNING_EVENTS, type EventSpec } from './event-table';
import type { SigningEvent } from './events';

/** The repositories an event is written to: a service that records events declares them in its unit of work. */
export type SigningEventRepos = {
  audit: Pick<AuditRepository, 'append'>;
  webhookEvents: Pick<WebhookEventsRepository, 'append'>;
  meter: Pick<MeterRepository, 'add'>;
};

/**
 * Records events in the caller's transaction (`tx`, the repositories of its unit of
 * work): their audit rows in one insert, their webhook outbox rows in one insert, then
 * their meter counts (last, so the counter rows other transactions also update stay
 * locked for the shortest time). Answers the webhook event ids, which the caller
 * publishes once the transaction has committed.
 */
export type RecordSigningEvents = (tx: SigningEventRepos, ...events: SigningEvent[]) => Promise<string[]>;

type MeterCount = { counter: MeterKey; by?: (e: SigningEvent) => number };

export function createSigningEventRecorder(deps: {
  /** The usage day (METERING_TIMEZONE) of an instant: counts go on the day of the event's `at`. */
  meterDay: (at: Date) => string;
}): RecordSigningEvents {
  const specOf = (e: SigningEvent) => SIGNING_EVENTS[e.kind] as EventSpec<SigningEvent>;
  return async function recordSigningEvents(tx, ...events) {
    await tx.audit.append(...events.flatMap((e) => specOf(e).audit(e)));
    const eventIds = await tx.webhookEvents.append(...events.flatMap((e) => specOf(e).webhook?.(e) ?? []));
    for (const e of events) {
      const counts = (specOf(e).meter ?? []) as MeterCount[];
      if (counts.length === 0 || !('at' in e)) continue;
      const tenant = 'request' in e && 'tenantId' in e.request ? e.request.tenantId : e.document.tenantId;
      for (const { counter, by } of counts) await tx.meter.add(tenant, deps.meterDay(e.at), counter, by ? by(e) : 1);
    }
    return eventIds;
  };
}
