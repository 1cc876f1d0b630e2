import { DisposalStack } from './disposal-stack';

describe('DisposalStack', () => {
  it('releases what was opened in reverse order, once however often it is disposed', async () => {
    const released: string[] = [];
    const stack = new DisposalStack();
    const db = await stack.open('database', async () => 'db', (value) => void released.push(value));
    stack.defer('redis', () => void released.push('redis'));
    await stack.open('server', () => 'server', async (value) => void released.push(value));
    expect(db).toBe('db');
    expect(stack.pending).toEqual(['server', 'redis', 'database']);
    await Promise.all([stack.dispose(), stack.dispose()]);
    await stack.dispose();
    expect(released).toEqual(['server', 'redis', 'db']);
  });

  it('registers nothing for an open that fails, so unwinding a failed start releases exactly what had opened', async () => {
    const released: string[] = [];
    const stack = new DisposalStack();
    await stack.open('database', () => 'db', () => void released.push('database'));
    await expect(stack.open('identity', () => Promise.reject(new Error('bad key')), () => void released.push('identity'))).rejects.toThrow('bad key');
    await stack.dispose();
    expect(released).toEqual(['database']);
  });

  it('runs every close even when one fails, logs it, and rejects with the first failure', async () => {
    const released: string[] = [];
    const warn = jest.fn();
    const stack = new DisposalStack({ warn });
    stack.defer('database', () => void released.push('database'));
    stack.defer('queue', () => Promise.reject(new Error('queue stuck')));
    stack.defer('pool', () => {
      throw new Error('pool stuck');
    });
    await expect(stack.dispose()).rejects.toThrow('pool stuck');
    expect(released).toEqual(['database']);
    expect(warn.mock.calls.map(([fields]) => (fields as { step: string }).step)).toEqual(['pool', 'queue']);
  });

  it('refuses to register after disposal (it would never be released)', async () => {
    const stack = new DisposalStack();
    await stack.dispose();
    expect(() => stack.defer('late', () => undefined)).toThrow('disposed');
  });
});
