import { z } from 'zod';
import { createJobRegistry, defineJob } from './index';
import { assertHandlers } from './handlers';
import { UnknownJobError } from './errors';

const email = defineJob({ name: 'email.send', schema: z.object({ to: z.email() }) });
const pdf = defineJob({ name: 'pdf.render', schema: z.object({ documentId: z.string() }) });

describe('defineJob', () => {
  it('fills in the default retry policy: 5 attempts, exponential backoff, a few completed jobs kept', () => {
    expect(email).toMatchObject({
      name: 'email.send',
      attempts: 5,
      backoff: { type: 'exponential', delayMs: 2000 },
      removeOnComplete: 100,
    });
  });

  it('keeps the policy written in the definition', () => {
    const job = defineJob({
      name: 'report.build',
      schema: z.object({}),
      attempts: 2,
      backoff: { type: 'fixed', delayMs: 50 },
      removeOnComplete: true,
      timeoutMs: 1000,
    });
    expect(job).toMatchObject({ attempts: 2, backoff: { type: 'fixed', delayMs: 50 }, removeOnComplete: true, timeoutMs: 1000 });
  });

  it.each([
    ['zero attempts', { attempts: 0 }, /attempts/],
    ['fractional attempts', { attempts: 1.5 }, /attempts/],
    ['a negative backoff', { backoff: { type: 'fixed' as const, delayMs: -1 } }, /delayMs/],
    ['a zero timeout', { timeoutMs: 0 }, /timeoutMs/],
  ])('refuses %s', (_label, policy, message) => {
    expect(() => defineJob({ name: 'x', schema: z.object({}), ...policy })).toThrow(message);
  });
});

describe('createJobRegistry', () => {
  it('lists the names of its jobs and finds them by name', () => {
    const registry = createJobRegistry([email, pdf]);
    expect(registry.names).toEqual(['email.send', 'pdf.render']);
    expect(registry.get('pdf.render')).toBe(pdf);
    expect(registry.find('nope')).toBeUndefined();
  });

  it('throws UnknownJobError for a name it does not define', () => {
    const registry = createJobRegistry([email]);
    expect(() => registry.get('pdf.render')).toThrow(UnknownJobError);
  });

  it('throws when two definitions share a name', () => {
    const again = defineJob({ name: 'email.send', schema: z.object({ address: z.string() }) });
    expect(() => createJobRegistry([email, pdf, again])).toThrow('Job "email.send" is defined twice in the registry');
  });
});

describe('assertHandlers', () => {
  const registry = createJobRegistry([email, pdf]);
  const handler = async () => undefined;

  it('accepts exactly one handler per job', () => {
    expect(() => assertHandlers(registry, { 'email.send': handler, 'pdf.render': handler })).not.toThrow();
  });

  it('names the jobs that have no handler', () => {
    expect(() => assertHandlers(registry, { 'email.send': handler })).toThrow('no handler for "pdf.render"');
  });

  it('names the handlers that have no job', () => {
    expect(() => assertHandlers(registry, { 'email.send': handler, 'pdf.render': handler, 'sms.send': handler })).toThrow(
      'handler for undefined job "sms.send"',
    );
  });

  it('reports missing and extra handlers together', () => {
    expect(() => assertHandlers(registry, { 'pdf.render': handler, 'email.sned': handler })).toThrow(
      'Job handlers do not match the registry: no handler for "email.send"; handler for undefined job "email.sned"',
    );
  });

  it('does not take a non-function for a handler', () => {
    expect(() => assertHandlers(registry, { 'email.send': handler, 'pdf.render': 'render' })).toThrow('no handler for "pdf.render"');
  });
});
