import { createTouchTracker } from './touch-tracker';

describe('the touch tracker', () => {
  const at = (iso: string) => new Date(`2026-11-20T${iso}Z`);

  it('says a touch is due once per minute and credential, whatever the stale record says', () => {
    const due = createTouchTracker();
    const stale = { id: 'k1', lastUsedAt: null };
    expect(due(stale, at('10:00:00.000'))).toBe(true);
    expect(due(stale, at('10:00:30.000'))).toBe(false);
    expect(due(stale, at('10:00:59.999'))).toBe(false);
    expect(due(stale, at('10:01:00.000'))).toBe(true);
    expect(due({ id: 'k2', lastUsedAt: at('09:59:30.000') }, at('10:00:00.000'))).toBe(false); // the stored time is recent
    expect(due({ id: 'k2', lastUsedAt: at('09:59:30.000') }, at('10:00:30.000'))).toBe(true);
  });

  it('remembers at most its size, forgetting the least recently touched first', () => {
    const due = createTouchTracker(2);
    for (const id of ['a', 'b', 'c']) expect(due({ id, lastUsedAt: null }, at('10:00:00.000'))).toBe(true);
    expect(due({ id: 'c', lastUsedAt: null }, at('10:00:10.000'))).toBe(false);
    expect(due({ id: 'b', lastUsedAt: null }, at('10:00:10.000'))).toBe(false);
    expect(due({ id: 'a', lastUsedAt: null }, at('10:00:10.000'))).toBe(true); // forgotten: one more touch, deduplicated by the job's minute bucket
  });
});
