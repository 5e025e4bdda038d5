/**
 * Seeded 32-bit PRNG (xorshift32, Marsaglia 2003) so a face edit is reproducible for its `seed`.
 * The seed is mixed first (splitmix-style) so neighbouring seeds give unrelated streams.
 */
export interface Rng {
  /** Uniform integer in [0, n) for 1 ≤ n ≤ 2^31. */
  int(n: number): number;
}

export function createRng(seed: number): Rng {
  let s = Math.imul((seed >>> 0) ^ 0x9e3779b9, 0x85ebca6b) >>> 0;
  s = Math.imul(s ^ (s >>> 13), 0xc2b2ae35) >>> 0;
  s = (s ^ (s >>> 16)) >>> 0;
  if (s === 0) s = 0x6d2b79f5;
  return {
    int(n: number): number {
      s ^= s << 13; s >>>= 0;
      s ^= s >>> 17;
      s ^= s << 5; s >>>= 0;
      return s % n;
    },
  };
}
