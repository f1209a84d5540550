// Draws for the tests' Monte Carlo checks of stated distributions (src/domain/*.test.ts).

/** One draw of Poisson(mean) from `random` (uniform on [0, 1)): Knuth's product of uniforms. */
export function poissonDraw(mean: number, random: () => number): number {
  const limit = Math.exp(-mean);
  let k = 0;
  let product = random();
  while (product > limit) {
    k += 1;
    product *= random();
  }
  return k;
}
