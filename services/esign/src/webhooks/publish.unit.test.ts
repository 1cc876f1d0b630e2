import pino from 'pino';
import { dispatchWebhookEventsNow } from './publish';

describe('fanning a confirmation’s events out right after commit', () => {
  const logger = pino({ level: 'silent' });

  it('dispatches each event itself, in order, and enqueues no webhook.dispatch job', async () => {
    const dispatched: string[] = [];
    const jobs = { enqueue: jest.fn(async () => ({ id: 'job' })) };
    await dispatchWebhookEventsNow({ dispatch: async (id) => (dispatched.push(id), { deliveries: 1 }) }, jobs, ['e1', 'e2'], logger);
    expect(dispatched).toEqual(['e1', 'e2']);
    expect(jobs.enqueue).not.toHaveBeenCalled();
  });

  it('leaves an event whose fan-out fails to its webhook.dispatch job, logged, and still dispatches the next one', async () => {
    const dispatched: string[] = [];
    const jobs = { enqueue: jest.fn(async () => ({ id: 'job' })) };
    const warn = jest.spyOn(logger, 'warn');
    const delivery = {
      dispatch: async (id: string) => {
        if (id === 'e1') throw new Error('connection terminated');
        dispatched.push(id);
        return { deliveries: 0 };
      },
    };
    await dispatchWebhookEventsNow(delivery, jobs, ['e1', 'e2'], logger);
    expect(jobs.enqueue.mock.calls).toEqual([['webhook.dispatch', { eventId: 'e1' }]]);
    expect(dispatched).toEqual(['e2']);
    expect(warn).toHaveBeenCalledWith({ eventId: 'e1', err: 'connection terminated' }, expect.stringContaining('webhook.dispatch job'));
  });

  it('rejects when the fallback job cannot be enqueued either, as a failed enqueue did before', async () => {
    const jobs = { enqueue: jest.fn(async (): Promise<{ id: string }> => Promise.reject(new Error('redis down'))) };
    await expect(
      dispatchWebhookEventsNow({ dispatch: async () => Promise.reject(new Error('db down')) }, jobs, ['e1'], logger),
    ).rejects.toThrow('redis down');
  });
});
