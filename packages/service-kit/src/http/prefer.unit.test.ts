import { parsePrefer, prefers } from './prefer';

describe('RFC 7240 Prefer', () => {
  it('finds a preference among several, in any case, with or without parameters, across joined headers', () => {
    expect(prefers('respond-async', 'respond-async')).toBe(true);
    expect(prefers('Respond-Async', 'respond-async')).toBe(true);
    expect(prefers('return=minimal, respond-async; foo=bar', 'respond-async')).toBe(true);
    expect(prefers('wait=10,respond-async', 'respond-async')).toBe(true);
    expect(prefers('return=representation', 'respond-async')).toBe(false);
    expect(prefers(undefined, 'respond-async')).toBe(false);
    expect(prefers('', 'respond-async')).toBe(false);
  });

  it('reads values, quoted ones included, keeps the first of a repeated preference, and ignores what it cannot read', () => {
    expect([...parsePrefer('wait=10, handling="lenient, please"; x=1, wait=5, =nope, bad name')]).toEqual([
      ['wait', '10'],
      ['handling', 'lenient, please'],
    ]);
    expect(prefers('"respond-async"', 'respond-async')).toBe(false);
  });
});
