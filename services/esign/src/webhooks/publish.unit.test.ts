import pino from 'pino';
import type { OutboxEvent } from './events-repository';
import { dispatchWebhookEventsNow } from './publish';

/** Outbox rows as the recorder answers them. */
const rows = (...ids: string[]): OutboxEvent[] => ids.map((id, i) => ({ id, seq: i + 1, tenantId: 't', documentId: 'd', type: 'document_signed' }));

describe('fanning a confirmation’s events out right after commit', () => {
  const logger = pino({ level: 'silent' });

  it('dispatches each event itself, in order, and enqueues no webhook.dispatch job', async () => {
    const dispatched: string[] = [];
    const jobs = { enqueue: jest.fn(async () => ({ id: 'job' })) };
    await dispatchWebhookEventsNow({ dispatch: async (e) => (dispatched.push(typeof e === 'string' ? e : e.id), { deliveries: 1 }) }, jobs, rows('e1', 'e2'), logger);
    expect(dispatched).toEqual(['e1', 'e2']);
    expect(jobs.enqueue).not.toHaveBeenCalled();
  });

  it('leaves an event whose fan-out fails to its webhook.dispatch job, logged, and still dispatches the next one', async () => {
    const dispatched: string[] = [];
    const jobs = { enqueue: jest.fn(async () => ({ id: 'job' })) };
    const warn = jest.spyOn(logger, 'warn');
    const delivery = {
      dispatch: async (e: string | OutboxEvent) => {
        const id = typeof e === 'string' ? e : e.id;
        if (id === 'e1') throw new Error('connection terminated');
        dispatched.push(id);
        return { deliveries: 0 };
      },
    };
    await dispatchWebhookEventsNow(delivery, jobs, rows('e1', 'e2'), logger);
    expect(jobs.enqueue.mock.calls).toEqual([['webhook.dispatch', { eventId: 'e1' }]]);
    expect(dispatched).toEqual(['e2']);
    expect(warn).toHaveBeenCalledWith({ eventId: 'e1', err: 'connection terminated' }, expect.stringContaining('webhook.dispatch job'));
  });

  it('rejects when the fallback job cannot be enqueued either, as a failed enqueue did before', async () => {
    const jobs = { enqueue: jest.fn(async (): Promise<{ id: string }> => Promise.reject(new Error('redis down'))) };
    await expect(
      dispatchWebhookEventsNow({ dispatch: async () => Promise.reject(new Error('db down')) }, jobs, rows('e1'), logger),
    ).rejects.toThrow('redis down');
  });
});
