/**
 * mulberry32 (Tommy Ettinger's public-domain 32-bit generator): a seeded PRNG so
 * property tests draw the same "random" cases on every run and a failure can be
 * replayed.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform draw from [min, max). */
export function uniform(random: () => number, min: number, max: number): number {
  return min + (max - min) * random();
}
