import { Webhook } from 'standardwebhooks';
import { nextDelayMs, parseRetrySchedule, retryAfterMs } from './schedule';
import { createSecretBox, newWebhookSecret, signatureHeader } from './secrets';

describe('the retry schedule', () => {
  it('parses the default into about 3.2 days (75.6 hours) over ten attempts', () => {
    const steps = parseRetrySchedule('5s,5m,30m,2h,5h,10h,10h,24h,24h');
    expect(steps).toHaveLength(9);
    expect(steps.reduce((a, b) => a + b, 0) / 86_400_000).toBeCloseTo(3.15, 2);
    expect(() => parseRetrySchedule('5s,soon')).toThrow('"soon" is not a duration');
  });

  it('waits each step with at most ±10% jitter, then gives up', () => {
    const steps = [1_000, 60_000];
    expect(nextDelayMs(steps, 1, { random: () => 0 })).toBe(900);
    expect(nextDelayMs(steps, 1, { random: () => 1 })).toBe(1_100);
    expect(nextDelayMs(steps, 2, { random: () => 0.5 })).toBe(60_000);
    expect(nextDelayMs(steps, 3)).toBeNull();
  });

  it('honours Retry-After within the bounds of the schedule', () => {
    const steps = [1_000, 60_000];
    const now = new Date('2026-11-25T10:00:00Z');
    expect(nextDelayMs(steps, 1, { retryAfterMs: retryAfterMs('30', now) })).toBe(30_000);
    expect(nextDelayMs(steps, 1, { retryAfterMs: retryAfterMs('86400', now) })).toBe(60_000);
    expect(nextDelayMs(steps, 1, { retryAfterMs: retryAfterMs('0', now) })).toBe(1_000);
    expect(retryAfterMs('Wed, 25 Nov 2026 10:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('whenever', now)).toBeNull();
  });
});

describe('webhook secrets', () => {
  it('signs exactly as the Standard Webhooks reference library does', () => {
    const secret = newWebhookSecret();
    const body = '{"type":"document_signed"}';
    const at = new Date('2026-11-25T10:00:00Z');
    const ours = signatureHeader([secret], 'msg_1', Math.floor(at.getTime() / 1000), body);
    expect(ours).toBe(new Webhook(secret).sign('msg_1', at, body));
  });

  it('stores secrets encrypted under the first key, opens them with any of its keys, and refuses them without the right one', () => {
    const key = Buffer.alloc(32, 7);
    const own = Buffer.alloc(32, 9);
    const secret = newWebhookSecret();
    const stored = createSecretBox(key).seal(secret);
    expect(stored).toMatch(/^enc:v1:/);
    expect(stored).not.toContain(secret.slice(6));
    expect(createSecretBox(key).open(stored)).toBe(secret);
    expect(() => createSecretBox(Buffer.alloc(32, 8)).open(stored)).toThrow('does not open with the service');
    // Sealed under the service's own key, then the operator configures one: both open, new ones go under the configured key.
    const underOwn = createSecretBox(own).seal(secret);
    const both = createSecretBox([key, own]);
    expect([both.open(underOwn), both.open(stored)]).toEqual([secret, secret]);
    expect(createSecretBox(key).open(both.seal(secret))).toBe(secret);
    // A row an earlier version stored as it was still reads; nothing new is stored so.
    expect(both.open(`raw:${secret}`)).toBe(secret);
    expect(() => createSecretBox([])).toThrow('32-byte keys');
  });

  it('refuses a stored secret whose GCM tag was cut short (a 4-byte tag would be forgeable)', () => {
    const key = Buffer.alloc(32, 7);
    const box = createSecretBox(key);
    const secret = newWebhookSecret();
    const [enc, v1, iv, tag, ct] = box.seal(secret).split(':') as [string, string, string, string, string];
    const cut = `${enc}:${v1}:${iv}:${Buffer.from(tag, 'base64').subarray(0, 4).toString('base64')}:${ct}`;
    expect(() => box.open(cut)).toThrow();
    expect(box.open(`${enc}:${v1}:${iv}:${tag}:${ct}`)).toBe(secret);
  });
});
