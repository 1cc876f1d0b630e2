/**
 * The cffdrs reference output is printed to 6 significant digits, and not always
 * rounded: about one value in ten is truncated (e.g. FWI 9.2204459 is printed
 * 9.22044). A faithful result therefore lies within one unit of the 6th
 * significant digit of the printed value, i.e. a relative error of at most 1e-5
 * (in practice we measure at most 4.2e-6).
 */
export function referenceTolerance(reference: number): number {
  if (reference === 0) return 0;
  return 10 ** (Math.floor(Math.log10(Math.abs(reference))) - 5);
}

/** The days whose value lies outside the tolerance, with both numbers, for a readable failure. */
export function outsideReference(actual: readonly number[], expected: readonly number[]): { day: number; actual: number; expected: number }[] {
  if (actual.length !== expected.length) throw new Error(`expected ${expected.length} values, got ${actual.length}`);
  return expected.flatMap((ref, day) => {
    const value = actual[day] ?? NaN;
    return Math.abs(value - ref) <= referenceTolerance(ref) ? [] : [{ day, actual: value, expected: ref }];
  });
}
