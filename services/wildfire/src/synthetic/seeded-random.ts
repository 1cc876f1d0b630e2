/**
 * Deterministic randomness for the synthetic data: the same key always yields the
 * same draws, on every machine and in every process.
 */

/**
 * mulberry32 (Tommy Ettinger's public-domain 32-bit generator): uniform draws in
 * [0, 1) from a 32-bit seed.
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

/** FNV-1a, 32 bits: turns a key such as "41091|2024-07-15" into a seed. */
export function hashKey(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** A standard normal draw (Box–Muller) from two uniform draws. */
export function standardNormal(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
