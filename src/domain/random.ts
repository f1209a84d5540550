// One seeded pseudo-random generator for the whole codebase: the market simulator (deterministic for SIM_SEED) and the
// home page's twinkling dots (the prerendered HTML and the hydrated page must agree) both draw from it.

/** mulberry32: numbers in [0, 1) from a 32-bit seed; small, fast, and the same sequence on every platform. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal draw from two of `random`'s numbers (Box–Muller; the simulators' noise). */
export function gaussian(random: () => number): number {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}
