import pino from 'pino';
import type { OutboxEvent } from './events-repository';
import { dispatchWebhookEventsNow } from './publish';

/** Outbox rows as the recorder answers them. */
const rows = (...ids: string[]): OutboxEvent[] => ids.map((id, i) => ({ id, seq: i + 1, tenantId: 't', documentId: 'd', type: 'document_signed' }));

describe('fanning a confirmation’s events out right after commit', () => {
  const logger = pino({ level: 'silent' });

  it('dispatches each event as inserted, in order, without reading it back', async () => {
    const dispatched: (string | OutboxEvent)[] = [];
    const events = rows('e1', 'e2');
    await dispatchWebhookEventsNow({ dispatch: async (e) => (dispatched.push(e), { deliveries: 1 }) }, events, logger);
    expect(dispatched).toEqual(events);
  });

  it('leaves an event whose fan-out fails undispatched for the recovery sweep, logged, and still dispatches the next one', async () => {
    const dispatched: string[] = [];
    const warn = jest.spyOn(logger, 'warn');
    const delivery = {
      dispatch: async (e: string | OutboxEvent) => {
        const id = typeof e === 'string' ? e : e.id;
        if (id === 'e1') throw new Error('connection terminated');
        dispatched.push(id);
        return { deliveries: 0 };
      },
    };
    await dispatchWebhookEventsNow(delivery, rows('e1', 'e2'), logger);
    expect(dispatched).toEqual(['e2']);
    expect(warn).toHaveBeenCalledWith({ eventId: 'e1', err: 'connection terminated' }, expect.stringContaining('recovery sweep'));
  });
});
