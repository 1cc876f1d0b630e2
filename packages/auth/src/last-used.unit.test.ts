import { touchDue } from './last-used';

describe('touchDue', () => {
  const now = new Date('2026-11-21T12:00:00Z');

  it('records the first use', () => {
    expect(touchDue(null, now)).toBe(true);
  });

  it('skips a use within a minute of the stored one and records one a minute or more later', () => {
    expect(touchDue(new Date('2026-11-21T11:59:30Z'), now)).toBe(false);
    expect(touchDue(new Date('2026-11-21T11:59:00Z'), now)).toBe(true);
  });
});
